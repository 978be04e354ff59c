/**
 * `/capture/<token>`: a session's `url`. Once the page is shown (never on a prerender or a link
 * scanner's fetch), its capture token is traded for a page secret that only this tab keeps; the
 * flow runs with that secret and the address becomes `/capture`, so the token is in neither the
 * address bar nor the history, and a copy of it opens nothing.
 */
import { continueAsOrigin } from './device-page.js';
import { exchange } from './handoff-claim.js';
import { show, whenShown } from './page-view.js';

export function capturePage(data: DOMStringMap): void {
  const token = decodeURIComponent(location.pathname.split('/').pop() || '');
  const run = async () => {
    show('okit-opening');
    const result = await exchange(data.endpoint, { captureToken: token });
    if (result.kind === 'ok') return continueAsOrigin(data, result.secret);
    // Opened elsewhere first, or no longer usable: the token is dead, so it leaves the address too.
    if (result.kind === 'refused' && (result.status === 410 || result.status === 404)) {
      history.replaceState(null, '', data.devicePath);
      return show('okit-opened');
    }
    show('okit-open-failed');
  };
  const retry = document.getElementById('okit-open-retry');
  if (retry) retry.addEventListener('click', () => void run());
  whenShown(() => void run());
}
