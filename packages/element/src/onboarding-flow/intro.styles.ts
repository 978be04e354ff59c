import { css } from 'lit';

/**
 * The intro: the list of what the person needs, and the pictures of the photos in a row that
 * wraps when the text is large. One rule a line, as the text counts toward the first-load budget.
 */
export const introStyles = css`
.intro-needs{padding-left:1.25rem;margin:0}
.intro-photos{list-style:none;padding:0;margin:.5rem 0 0;display:flex;flex-wrap:wrap;gap:.75rem}
.intro-photos li{flex:1 1 6rem;display:flex;flex-direction:column;align-items:center;gap:.25rem;padding:.75rem .5rem;border-radius:var(--_radius);background:var(--_surface);font-size:.875rem;text-align:center}
.intro-photos svg{width:3rem;height:3rem;fill:none;stroke:currentColor;stroke-width:2;stroke-linecap:round;stroke-linejoin:round;color:var(--_primary)}
`;
