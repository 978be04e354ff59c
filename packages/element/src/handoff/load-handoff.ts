import { LitElement, css, html, nothing, svg } from 'lit';
import { lazyOnce } from '../messages/lazy-once.js';

import type * as HandoffPanelModule from './handoff-panel.js';

/** The lazily loaded hand-off file: the panel, its texts, and the watch of a phone that holds the session. */
export type HandoffKit = typeof HandoffPanelModule;

/**
 * Loads the hand-off file once (from beside the script in the script-tag forms; a failed load is
 * tried again next time) and defines `<onboarding-handoff-panel>` with the element's own Lit.
 */
export const loadHandoff: () => Promise<HandoffKit> = lazyOnce(
  () =>
    import('./handoff-panel.js').then((module) => {
      module.defineHandoffPanel({ LitElement, html, svg, css, nothing });
      return module;
    }),
  'handoff',
);
