/**
 * The capture page's own script: the settings panel, the test-identity shortcuts and the event
 * log around the `<onboarding-flow>` that the page's script tag defines. Of the element it imports
 * at run time only the list of its event names (a module with no imports): the element arrives
 * by its own script tag, as on an integrator's page. No innerHTML anywhere: every text goes in
 * through textContent.
 *
 * The element arrives with a session the demo backend opened for this visit (its `session`
 * attribute); each shortcut asks that backend for a new one, for the identity's CPF. The log
 * also shows the notifications the backend's receiver got and verified for these sessions.
 */
import type { OnboardingFlow } from '@onboarding-kit/element';
import { ONBOARDING_EVENTS } from '@onboarding-kit/element/event-names';
import {
  applySettings,
  DEFAULT_SETTINGS,
  DEMO_DOCUMENT_TYPES,
  RADIUS,
  readSettings,
  THEME,
  THEME_KEYS,
  writeSettings,
  type DemoLocale,
  type DemoSettings,
} from './settings.js';
import {
  describeNotification,
  openSession,
  renderedSession,
  sessionIdOf,
  watchNotifications,
  type DemoNotification,
} from './demo-session.js';
import { describeDetail, MANUAL_REVIEW_CPF, SANDBOX_CONTROL, TEST_IDENTITIES } from './test-identities.js';

function byId<T extends HTMLElement>(id: string): T {
  const found = document.getElementById(id);
  if (!found) throw new Error(`the demo page has no #${id}`);
  return found as T;
}

function el<K extends keyof HTMLElementTagNameMap>(
  tag: K,
  props: Partial<HTMLElementTagNameMap[K]> = {},
  ...children: (Node | string)[]
): HTMLElementTagNameMap[K] {
  const node = Object.assign(document.createElement(tag), props);
  node.append(...children);
  return node;
}

const flow = byId<OnboardingFlow>('flow');
let settings: DemoSettings = readSettings(location.search);

// ---------------------------------------------------------------- settings

const localeSelect = byId<HTMLSelectElement>('setting-locale');
const typesBox = byId<HTMLDivElement>('setting-types');
const coloursBox = byId<HTMLDivElement>('setting-colours');
const radiusInput = byId<HTMLInputElement>('setting-radius');

for (const type of DEMO_DOCUMENT_TYPES) {
  const id = `setting-type-${type}`;
  typesBox.append(
    el(
      'span',
      { className: 'check' },
      el('input', { type: 'checkbox', id, name: 'types', value: type }),
      el('label', { htmlFor: id, textContent: type }),
    ),
  );
}
for (const key of THEME_KEYS) {
  const id = `setting-color-${key}`;
  coloursBox.append(
    el(
      'span',
      { className: 'colour' },
      el('input', { type: 'color', id, name: key }),
      el('label', { htmlFor: id, textContent: THEME[key].label }),
    ),
  );
}

/** Puts `settings` into the form controls. */
function showSettings(): void {
  localeSelect.value = settings.locale;
  for (const box of typesBox.querySelectorAll<HTMLInputElement>('input[type=checkbox]'))
    box.checked = settings.documentTypes.includes(box.value);
  for (const key of THEME_KEYS) byId<HTMLInputElement>(`setting-color-${key}`).value = settings.colours[key];
  radiusInput.value = String(settings.radius);
}

/** Reads the form controls into `settings`, applies them to the element and to the address bar. */
function takeSettings(): void {
  const checked = [...typesBox.querySelectorAll<HTMLInputElement>('input[type=checkbox]:checked')].map((b) => b.value);
  settings = {
    locale: localeSelect.value as DemoLocale,
    // At least one type: an empty choice falls back to the defaults (and the boxes show it).
    documentTypes: checked.length ? checked : [...DEFAULT_SETTINGS.documentTypes],
    colours: Object.fromEntries(THEME_KEYS.map((k) => [k, byId<HTMLInputElement>(`setting-color-${k}`).value])) as DemoSettings['colours'],
    radius: Math.min(RADIUS.max, Math.max(RADIUS.min, Number(radiusInput.value) || 0)),
  };
  if (!checked.length) showSettings();
  applySettings(flow, settings);
  history.replaceState(null, '', `${location.pathname}${writeSettings(settings)}`);
}

const form = byId<HTMLFormElement>('settings');
form.addEventListener('input', takeSettings);
form.addEventListener('change', takeSettings);
form.addEventListener('submit', (e) => e.preventDefault());
byId<HTMLButtonElement>('settings-reset').addEventListener('click', () => {
  settings = structuredClone(DEFAULT_SETTINGS);
  showSettings();
  takeSettings();
});
showSettings();
applySettings(flow, settings);

// ---------------------------------------------------------------- sessions

/** The current session's id, for its notifications. */
let sessionId: Promise<string | null> = Promise.resolve(null);
/** The CPF the current session was opened for ('' for the session rendered with the page). */
let sessionCpf = '';

/**
 * A new session from the demo backend, for `cpf`, given to the element, which starts over at
 * its intro by itself when its session changes (a start() on top would read the session a second
 * time, cutting the first read short). The CPF goes in the element's `cpf` too, so the step is
 * prefilled even by an element that does not read sessions.
 */
async function startWithNewSession(cpf: string): Promise<void> {
  let secret: string;
  try {
    secret = await openSession({ ...(cpf && { cpf }), locale: settings.locale, page: '/' });
  } catch (e) {
    logLine('demo-backend', `could not open a session: ${(e as Error).message}`);
    return;
  }
  sessionId = sessionIdOf(flow.endpoint || '/v1', secret);
  sessionCpf = cpf;
  flow.cpf = cpf;
  flow.setAttribute('session', secret);
  logLine('demo-backend', `opened a session${cpf ? ` for CPF ${cpf}` : ''} (the page holds only its client secret)`);
}

// Notifications are expected once an onboarding is sent: the page asks for them from then on.
// (A session yields one onboarding, so the element offers no "Start again" under one: a
// shortcut, or a reload, which renders a new session, starts over.)
flow.addEventListener('onboarding-submitted', () => {
  void sessionId.then((id) => id && notifications.follow(id));
});

// ---------------------------------------------------------------- shortcuts

const shortcuts = byId<HTMLUListElement>('shortcuts');
for (const identity of TEST_IDENTITIES) {
  const button = el(
    'button',
    { type: 'button', className: `shortcut ${identity.outcome.toLowerCase()}` },
    el('strong', { textContent: identity.outcome }),
    ` ${identity.cpf}`,
  );
  button.dataset.cpf = identity.cpf;
  button.dataset.outcome = identity.outcome;
  button.addEventListener('click', () => void startWithNewSession(identity.cpf));
  shortcuts.append(el('li', {}, button, el('span', { className: 'muted', textContent: ` ${identity.note}` })));
}

// ---------------------------------------------------------------- manual review

/**
 * Only with the embedded sandbox (its control API answers): the manual-review CPF, and buttons
 * that decide the onboarding just sent, as a back-office reviewer would upstream.
 */
const manual = byId<HTMLElement>('manual-review');
const decisionStatus = byId<HTMLParagraphElement>('decision-status');
const decisionButtons = [...manual.querySelectorAll<HTMLButtonElement>('button[data-decision]')];
let pendingToken: string | null = null;

function setPending(token: string | null, message: string): void {
  pendingToken = token;
  for (const b of decisionButtons) b.disabled = token === null;
  decisionStatus.textContent = message;
}

void fetch(`${SANDBOX_CONTROL}/stats`).then(
  (res) => {
    manual.hidden = !res.ok;
  },
  () => {},
);
for (const button of manual.querySelectorAll<HTMLButtonElement>('button[data-cpf]')) {
  button.addEventListener('click', () => void startWithNewSession(button.dataset.cpf ?? ''));
}
for (const button of decisionButtons) {
  button.addEventListener('click', async () => {
    const token = pendingToken;
    const status = button.dataset.decision;
    if (!token || !status) return;
    const res = await fetch(`${SANDBOX_CONTROL}/onboardings/${encodeURIComponent(token)}/decision`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ status }),
    }).catch(() => null);
    if (res?.ok) setPending(null, `Decided ${status}; the element hears it from the companion.`);
    else
      decisionStatus.textContent =
        res?.status === 409
          ? 'This onboarding was already decided.'
          : `The sandbox refused the decision (${res?.status ?? 'network error'}).`;
  });
}
// A session opened for the manual-review CPF locks that CPF on the element, so only such an
// onboarding waits for these buttons; any other is decided by the sandbox by itself, and a
// decision sent for it would only be refused as already decided.
flow.addEventListener('onboarding-submitted', (e) => {
  const token = e.detail.tokenOnboarding;
  if (sessionCpf === MANUAL_REVIEW_CPF) setPending(token, `Waiting for a decision on ${token}.`);
  else
    setPending(
      null,
      `The sandbox decides ${token} by itself. These buttons decide an onboarding started with CPF ${MANUAL_REVIEW_CPF} (the button above).`,
    );
});
flow.addEventListener('onboarding-complete', (e) => setPending(null, `Decided: ${e.detail.status}.`));

// ---------------------------------------------------------------- event log

const log = byId<HTMLOListElement>('event-log');
const lastOutcome = byId<HTMLParagraphElement>('last-outcome');

/** A line of the log that is not an element event: the demo backend and its receiver. */
function logLine(name: string, text: string, className = 'backend'): HTMLLIElement {
  const time = new Date().toLocaleTimeString('en-GB', { hour12: false });
  const entry = el(
    'li',
    { className },
    el('time', { textContent: time }),
    ' ',
    el('code', { className: 'event-name', textContent: name }),
    el('pre', { textContent: text }),
  );
  entry.dataset.event = name;
  log.prepend(entry);
  return entry;
}

function showNotification(n: DemoNotification): void {
  const entry = logLine(`notification ${n.type}`, describeNotification(n), 'notification');
  entry.dataset.notification = n.type;
  if (n.onboardingStatus) entry.dataset.status = n.onboardingStatus;
}
const notifications = watchNotifications(showNotification, () => {
  logLine('demo-backend', 'notifications go to ONBOARDING_NOTIFY_URL, not to this demo: none are shown here');
});
const firstSession = renderedSession(flow);
if (firstSession) sessionId = sessionIdOf(flow.endpoint || '/v1', firstSession);
else logLine('demo-backend', 'no session for this visit: a test identity opens one');
// Every event the element dispatches (all bubble and are composed).
for (const name of ONBOARDING_EVENTS) {
  flow.addEventListener(name, (event) => {
    const detail = (event as CustomEvent<unknown>).detail;
    const time = new Date().toLocaleTimeString('en-GB', { hour12: false });
    const entry = el(
      'li',
      {},
      el('time', { textContent: time }),
      ' ',
      el('code', { className: 'event-name', textContent: name }),
      el('pre', { textContent: describeDetail(detail) }),
    );
    entry.dataset.event = name;
    log.prepend(entry);
    if (name === 'onboarding-complete') {
      const d = detail as { status: string; externalId?: string; tokenOnboarding: string };
      lastOutcome.textContent = `Outcome: ${d.status}${d.externalId ? ` (externalId ${d.externalId})` : ''}`;
      lastOutcome.dataset.status = d.status;
    }
  });
}
byId<HTMLButtonElement>('log-clear').addEventListener('click', () => log.replaceChildren());
