import { css } from 'lit';

/**
 * The path through the flow: the list of steps in the header, and the consent summary with its
 * disclosure (the compact review grid comes with the photo steps). Added after the base styles,
 * whose properties it uses; one rule a line, as the text counts toward the first-load budget.
 * Widths that decide a layout are in `em`, so large text reflows like a narrow screen: the header
 * (a container) shows the five labels only where each fits whole, else the bars and one line
 * ("Etapa 2 de 5: Dados"). No word is split.
 */
export const pathStyles = css`
.header{flex-wrap:wrap;container-type:inline-size}
.stages{flex-basis:100%;list-style:none;margin:.25rem 0 .5rem;padding:0;display:grid;grid-auto-flow:column;grid-auto-columns:minmax(0,1fr);gap:.25rem}
.stages li{display:flex;flex-direction:column;gap:.25rem;min-width:0;font-size:.75rem}
.stages li::before{content:'';height:.25rem;border-radius:9px;background:var(--_primary)}
[aria-current]~li::before{background:var(--_surface);box-shadow:inset 0 0 0 1px var(--_border)}
[aria-current],.stages-compact{color:var(--_text);font-weight:600}
.stages-compact{display:none;flex-basis:100%;margin:-.25rem 0 .5rem;font-size:.75rem;overflow-wrap:break-word}
@container (max-width:42em){.stages li span{position:absolute;width:1px;height:1px;overflow:hidden;clip:rect(0 0 0 0)}.stages-compact{display:block}}
.consent-summary{padding-left:1.25rem}
.consent-details summary{display:list-item;cursor:pointer;color:var(--_primary);text-decoration:underline;min-height:44px;padding:.625rem 0;width:fit-content}
`;
