/**
 * The hints on a document photo's review: what the reader noticed, said politely, with what the
 * person can do about it (switch to the document read, swap the sides, take the photo again) and
 * continuing anyway, always there.
 */
import type { DocumentHintsController } from './hints-controller.js';

/** What the review of an accepted document photo shows of its hints. */
export interface HintsPanel {
  lines: string[];
  goOn: string;
  /** What the person can do about them, the most useful first. */
  actions: { label: string; run: () => void }[];
  continueAnyway: string;
}

/** The panel of the visible photo's hints, or null where there are none. */
export function hintsPanel(controller: DocumentHintsController, retake: () => void): HintsPanel | null {
  const hints = controller.hints;
  if (hints.length === 0) return null;
  const t = controller.texts;
  const actions: HintsPanel['actions'] = [];
  for (const hint of hints) {
    if (hint.kind === 'other-document') actions.push({ label: t.switchTo(hint.switchTo), run: () => controller.switchTo(hint.switchTo) });
    if (hint.kind === 'sides-swapped') actions.push({ label: t.swapSides, run: () => controller.swapSides() });
  }
  actions.push({ label: t.retake, run: retake });
  return { lines: controller.lines(hints), goOn: t.goOn, actions, continueAnyway: t.continueAnyway };
}
