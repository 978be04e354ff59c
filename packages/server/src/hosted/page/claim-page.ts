/** `/h/<token>`: the hand-off link, claimed from here once the page is shown (its GET claims nothing). */
import { continueHere } from './device-page.js';
import { claim } from './handoff-claim.js';
import { show } from './page-view.js';

/** `document.prerendering` (speculation rules), not yet in TypeScript's DOM types. */
type PrerenderingDocument = Document & { prerendering?: boolean };

/** Runs fn once the page is really in front of someone (not prerendered, not in a hidden tab). */
function whenShown(fn: () => void): void {
  const ready = () => !(document as PrerenderingDocument).prerendering && document.visibilityState === 'visible';
  if (ready()) return fn();
  const check = () => {
    if (!ready()) return;
    document.removeEventListener('visibilitychange', check);
    document.removeEventListener('prerenderingchange', check);
    fn();
  };
  document.addEventListener('visibilitychange', check);
  document.addEventListener('prerenderingchange', check);
}

export function claimPage(data: DOMStringMap): void {
  const token = decodeURIComponent(location.pathname.split('/').pop() || '');
  const run = async () => {
    show('okit-claiming');
    const result = await claim(data.endpoint, { token });
    if (result.kind === 'ok') return continueHere(data, result.secret);
    if (result.kind === 'refused' && result.status === 410)
      return show(result.code === 'handoff_expired' ? 'okit-link-expired' : 'okit-link-used');
    if (result.kind === 'refused' && result.status === 404) return show('okit-link-invalid');
    show('okit-claim-failed');
  };
  const retry = document.getElementById('okit-retry');
  if (retry) retry.addEventListener('click', () => void run());
  whenShown(() => void run());
}
