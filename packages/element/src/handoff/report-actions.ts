/**
 * What the flow does with the panel's reports (panel-events.ts) besides telling the page: show
 * the following panel once a phone holds the session, announce, show the phone's outcome, take
 * the session back, start over once it expired. Part of the lazily loaded hand-off file: reports
 * only come from the panel, which comes with it.
 */
import type { HandoffMode, HandoffOptions } from './handoff-controller.js';
import type { HandoffReport } from './panel-events.js';

/** The panel in place of the flow's step: which one, and a way to change it (null: the flow's own step). */
export interface PanelMode {
  current: HandoffMode | null;
  set(mode: HandoffMode | null): void;
}

export function actOnReport(
  report: HandoffReport,
  flow: Pick<HandoffOptions, 'session' | 'nav' | 'photo' | 'texts' | 'restart'>,
  panel: PanelMode,
): void {
  const { session, nav, photo, texts } = flow;
  switch (report.kind) {
    case 'state':
      if (report.state === 'claimed') {
        if (panel.current) panel.set('follow');
        // The phone's outcome will show here: its words are fetched now, to come with its heading.
        void texts.loadAfterSend();
      }
      return;
    case 'announce':
      return nav.announce(report.text);
    case 'completed': {
      panel.set(null);
      const outcome = report.outcome;
      // Shown once its words are in (at once when they came ahead; without them if they cannot load).
      void texts.loadAfterSend().then(() => photo.when('outcome', () => photo.submission!.showOutcome(outcome)));
      return;
    }
    case 'back':
      panel.set(null);
      if (report.session) session.replace(report.session);
      else void session.load();
      return nav.presentStep();
    case 'ended':
      return flow.restart();
  }
}
