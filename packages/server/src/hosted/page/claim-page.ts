/** `/h/<token>`: the hand-off link, claimed from here once the page is shown (its GET claims nothing). */
import { continueHere } from './device-page.js';
import { claim } from './handoff-claim.js';
import { show, whenShown } from './page-view.js';

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
