/** The way back to the integrator once the element is done: the redirect to `returnUrl`, or the device's last word. */
import { returnHref, type OnboardingStatus } from '@onboarding-kit/contract';
import { banner } from './page-view.js';

/** Long enough to read "Redirecting…" and take the link, short enough not to look stuck. */
const REDIRECT_DELAY_MS = 4000;

/** The element's events as this script reads them (it loads none of the element's code). */
type CompleteEvent = CustomEvent<{ status: OnboardingStatus }>;
type CancelEvent = CustomEvent<{ step: string }>;

/** `returnUrl` with `session` and `status` added, or null when the page has none (or it does not parse). */
function returnTo(data: DOMStringMap, status: string): string | null {
  return data.returnUrl && data.sessionId ? returnHref(data.returnUrl, data.sessionId, status) : null;
}

/**
 * At the outcome: on a device, says so; on the session's own page, announces the redirect and
 * makes it. A cancel before the upload offers the way back without leaving on its own.
 */
export function followOutcome(data: DOMStringMap, device: boolean): void {
  let done = false;
  document.addEventListener('onboarding-complete', (event) => {
    if (done) return;
    done = true;
    if (device) return banner(data.textDeviceDone);
    const href = returnTo(data, (event as CompleteEvent).detail.status);
    if (!href) return;
    banner(data.textRedirecting, { href, text: data.textGoNow });
    setTimeout(() => location.assign(href), REDIRECT_DELAY_MS);
  });
  document.addEventListener('onboarding-cancel', (event) => {
    if (done || device || (event as CancelEvent).detail.step === 'upload') return;
    const href = returnTo(data, 'CANCELLED');
    if (href) banner(data.textCancelled, { href, text: data.textBack });
  });
}
