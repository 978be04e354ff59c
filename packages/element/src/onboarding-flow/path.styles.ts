import { css } from 'lit';

/**
 * The path through the flow: the list of steps in the header, the consent summary with its
 * disclosure, and the compact review grid (over the base `.thumbs`). Added after the base styles,
 * whose properties it uses; one rule a line, as the text counts toward the first-load budget.
 */
export const pathStyles = css`
.header{flex-wrap:wrap}
.stages{flex-basis:100%;list-style:none;margin:.25rem 0 .5rem;padding:0;display:grid;grid-template-columns:repeat(5,minmax(0,1fr));gap:.25rem}
.stages li{display:flex;flex-direction:column;gap:.25rem;min-width:0;font-size:.75rem;overflow-wrap:anywhere}
.stages li::before{content:'';height:.25rem;border-radius:9px;background:var(--_primary)}
[aria-current]~li::before{background:var(--_surface);box-shadow:inset 0 0 0 1px var(--_border)}
[aria-current]{color:var(--_text);font-weight:600}
@media (max-width:32rem){.stages li:not([aria-current]) span{position:absolute;width:1px;height:1px;overflow:hidden;clip:rect(0 0 0 0)}[aria-current]{white-space:nowrap}}
.consent-summary{padding-left:1.25rem}
.consent-details summary{display:list-item;cursor:pointer;color:var(--_primary);text-decoration:underline;min-height:44px;padding:.625rem 0;width:fit-content}
.thumbs{grid-template-columns:repeat(3,minmax(0,1fr));gap:.75rem}
.thumbs[data-count='2']{grid-template-columns:repeat(2,minmax(0,1fr))}
.thumbs li{align-items:flex-start;gap:.25rem;min-width:0;font-size:.875rem;font-weight:600;overflow-wrap:anywhere}
.thumbnail{max-height:12rem}
button.link{border:none;background:none;padding:0 .25rem;margin:auto 0 0 -.25rem;min-height:44px;text-decoration:underline;font-weight:400}
`;
