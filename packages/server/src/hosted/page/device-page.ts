/**
 * The secret a tab holds for its session, kept in sessionStorage (never in the address, gone with
 * the tab), and the flow mounted with it: a device's from a hand-off claim, or the session's own
 * page's from its capture link's exchange (with the way back to the integrator, for a reload).
 */
import { followOutcome } from './follow-outcome.js';
import { mountFlow, show } from './page-view.js';

const DEVICE_KEY = 'onboarding-kit:device-session';
const CAPTURE_KEY = 'onboarding-kit:capture-session';

/** What the session's own page keeps to come back after a reload (`/capture` speaks the browser's language, the session's page its own). */
interface KeptCapture {
  secret: string;
  sessionId?: string;
  returnUrl?: string;
  /** The page's `data-text-*`, in the session's language. */
  texts?: Record<string, string>;
}

// sessionStorage throws where storage is blocked: the tab then has no secret to find.
function read(key: string): string | null {
  try {
    return sessionStorage.getItem(key);
  } catch {
    return null;
  }
}

function keep(key: string, value: string | null): void {
  try {
    if (value === null) sessionStorage.removeItem(key);
    else sessionStorage.setItem(key, value);
  } catch {
    // The flow still runs in this page; only a reload would lose it.
  }
}

function readCapture(): KeptCapture | null {
  try {
    const kept = JSON.parse(read(CAPTURE_KEY) ?? 'null') as Partial<KeptCapture> | null;
    return kept && typeof kept.secret === 'string' ? (kept as KeptCapture) : null;
  } catch {
    return null;
  }
}

/** Mounts the flow for a device that just claimed the session, and leaves the link out of history. */
export function continueHere(data: DOMStringMap, secret: string): void {
  keep(CAPTURE_KEY, null);
  keep(DEVICE_KEY, secret);
  show('okit-flow-slot');
  mountFlow(secret);
  history.replaceState(null, '', data.devicePath);
  followOutcome(data, true);
}

/** Mounts the flow for the session's own page once its capture link was exchanged, and takes the link out of the address and history. */
export function continueAsOrigin(data: DOMStringMap, secret: string): void {
  keep(DEVICE_KEY, null);
  keep(
    CAPTURE_KEY,
    JSON.stringify({
      secret,
      ...(data.sessionId && { sessionId: data.sessionId }),
      ...(data.returnUrl && { returnUrl: data.returnUrl }),
      texts: Object.fromEntries(Object.entries(data).filter((e): e is [string, string] => e[0].startsWith('text') && e[1] !== undefined)),
    } satisfies KeptCapture),
  );
  show('okit-flow-slot');
  mountFlow(secret);
  history.replaceState(null, '', data.devicePath);
  followOutcome(data, false);
}

/** `/capture` (a claim, an exchange or a reload since): the flow with the kept secret, or the way to claim when there is none. */
export function devicePage(data: DOMStringMap): void {
  const origin = readCapture();
  if (origin) {
    mountFlow(origin.secret);
    const back: DOMStringMap = { ...data, ...origin.texts };
    if (origin.sessionId) back.sessionId = origin.sessionId;
    if (origin.returnUrl) back.returnUrl = origin.returnUrl;
    return followOutcome(back, false);
  }
  const secret = read(DEVICE_KEY);
  if (!secret) return show('okit-no-session');
  mountFlow(secret);
  followOutcome(data, true);
}
