/**
 * The device's side of a hand-off: its secret, kept in sessionStorage (never in the address, gone
 * with the tab), and the flow mounted with it.
 */
import { followOutcome } from './follow-outcome.js';
import { mountFlow, show } from './page-view.js';

const DEVICE_KEY = 'onboarding-kit:device-session';

// sessionStorage throws where storage is blocked: the device then has no secret to find.
function readSecret(): string | null {
  try {
    return sessionStorage.getItem(DEVICE_KEY);
  } catch {
    return null;
  }
}

function keepSecret(secret: string): void {
  try {
    sessionStorage.setItem(DEVICE_KEY, secret);
  } catch {
    // The flow still runs in this page; only a reload would lose it.
  }
}

/** Mounts the flow for a device that just claimed the session, and leaves the link out of history. */
export function continueHere(data: DOMStringMap, secret: string): void {
  keepSecret(secret);
  show('okit-flow-slot');
  mountFlow(secret);
  history.replaceState(null, '', data.devicePath);
  followOutcome(data, true);
}

/** `/capture` after a claim: the flow with the kept secret, or the way to claim when there is none. */
export function devicePage(data: DOMStringMap): void {
  const secret = readSecret();
  if (!secret) return show('okit-no-session');
  mountFlow(secret);
  followOutcome(data, true);
}
