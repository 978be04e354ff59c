/** The large icon above the heading of every ending: an outcome, or a session the flow cannot go on with. */
import { html, type TemplateResult } from 'lit';

/** One stroke path drawn inside a circle: a tick, an "i", a "!". */
const ENDING_PATHS = { approved: 'm7.5 12.5 3 3 6-6.5', refused: 'M12 11v5.5M12 7.5v.5', error: 'M12 7v5.5M12 16v.5' } as const;

export type Ending = keyof typeof ENDING_PATHS;

/** Decorative (the heading says it all): hidden from assistive technology. */
export function endingIcon(ending: Ending): TemplateResult {
  return html`<svg class="ending-icon" viewBox="0 0 24 24" aria-hidden="true"><circle cx="12" cy="12" r="10" /><path d=${ENDING_PATHS[ending]} /></svg>`;
}
