/**
 * Attack tests (issue 29, point 10): personal data that does not linger. Real requests against a
 * real companion on a loopback socket (with the sandbox as its upstream), as an attacker holding
 * what a page leaves behind: the capture URL in a browser's history, a page secret in a tab, a
 * phone the flow was handed to. Each of these passed on the code before the defences:
 *
 * - a completed session read with its capture token, its page secret, a phone's device secret or
 *   the client secret the integrator's page holds, a few minutes after it ended, answered the
 *   person's whole CPF and name (and the client secret read the session for as long as it was kept);
 * - an open session's prefill gave any page-secret holder the whole CPF and name;
 * - the capture token from the URL opened the session for everyone who found it, as often as they liked.
 */
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { body, startStack, waitUntil, type Stack } from '@onboarding-kit/testing/stack';
import type { CreateSessionResponse, HandoffOffer, SessionView } from '@onboarding-kit/contract';

const API_KEY = 'sk_test_security_pdata_0123456789abcdef01234';
const CPF = '529.982.247-25';
/** Every way the person's data could show up in an answer. */
const PERSONAL = ['52998224725', '529.982.247-25', '529982', 'Silva'];
/** The companion's grace for page secrets after a session ended (config/defaults.ts PAGE_READ_GRACE_MS). */
const GRACE_MS = 5 * 60_000;

let stack: Stack;
/** How far the companion's clock is ahead of the wall clock. */
let offset = 0;

before(async () => {
  stack = await startStack({
    companion: {
      apiKeys: [API_KEY],
      timers: { now: () => Date.now() + offset, setTimeout: (fn, ms) => setTimeout(fn, ms), clearTimeout: (h) => clearTimeout(h as never) },
    },
  });
});
after(async () => {
  await stack.close();
});

async function send(method: string, path: string, options: { key?: string; body?: unknown; headers?: Record<string, string> } = {}) {
  const res = await fetch(`${stack.url}${path}`, {
    method,
    headers: {
      ...(options.key && { authorization: `Bearer ${options.key}` }),
      ...(options.body !== undefined && { 'content-type': 'application/json' }),
      ...options.headers,
    },
    ...(options.body !== undefined && { body: JSON.stringify(options.body) }),
  });
  return { status: res.status, text: await res.text() };
}

async function openSession(idempotencyKey: string): Promise<CreateSessionResponse & { captureToken: string }> {
  const res = await send('POST', '/v1/sessions', {
    key: API_KEY,
    body: { reference: 'attack-pdata', cpf: CPF, name: 'Maria Silva', expiresIn: 3600 },
    headers: { 'idempotency-key': idempotencyKey },
  });
  assert.ok(res.status === 201 || res.status === 200, res.text);
  const s = JSON.parse(res.text) as CreateSessionResponse;
  return { ...s, captureToken: new URL(s.url).pathname.split('/').pop()! };
}

function assertNoPersonalData(text: string, what: string): void {
  for (const piece of PERSONAL) assert.ok(!text.includes(piece), `${what} answered ${piece}: ${text.slice(0, 300)}`);
}

test('a completed session read after the grace with its capture token, its page secret, a phone’s device secret or the client secret answers 401 and no personal data', async () => {
  offset = 0;
  const key = `pdata-done-${Date.now()}`;
  // The same session opened twice (a backend retry): two capture URLs, one traded by its page for a page secret.
  const s = await openSession(key);
  const unexchanged = (await openSession(key)).captureToken;
  const exchanged = await send('POST', '/v1/session/exchange', { body: { captureToken: s.captureToken } });
  assert.equal(exchanged.status, 201, exchanged.text);
  const { pageSecret } = JSON.parse(exchanged.text) as { pageSecret: string };
  // The page hands the flow to a phone, which sends the onboarding.
  const offer = await send('POST', '/v1/session/handoff', { key: pageSecret });
  assert.equal(offer.status, 201, offer.text);
  const linkToken = new URL((JSON.parse(offer.text) as HandoffOffer).url).pathname.split('/').pop()!;
  const claim = await send('POST', '/v1/handoff/claim', { body: { token: linkToken } });
  assert.equal(claim.status, 200, claim.text);
  const device = (JSON.parse(claim.text) as { clientSecret: string }).clientSecret;
  const created = await send('POST', '/v1/onboardings', { key: device, body: body({ cpf: CPF }) });
  assert.equal(created.status, 201, created.text);
  await waitUntil(async () => {
    const view = JSON.parse((await send('GET', `/v1/sessions/${s.id}`, { key: API_KEY })).text) as SessionView;
    return view.status === 'completed';
  }, 20_000);

  // Within the grace the phone still reads its outcome, and nothing of the person.
  const soon = await send('GET', '/v1/session', { key: device });
  assert.equal(soon.status, 200, soon.text);
  const seen = JSON.parse(soon.text) as { status: string; prefill: unknown };
  assert.equal(seen.status, 'completed');
  assert.deepEqual(seen.prefill, {}, 'no prefill once the session is not open');
  assertNoPersonalData(soon.text, 'the phone, right after completion');

  offset = GRACE_MS + 1_000;
  for (const [what, secret] of [
    ['the capture token from a history', unexchanged],
    ['the exchanged capture token', s.captureToken],
    ['the page secret left in a tab', pageSecret],
    ['the phone’s device secret', device],
    ['the client secret in the integrator’s page', s.clientSecret],
  ] as const) {
    const res = await send('GET', '/v1/session', { key: secret });
    assert.equal(res.status, 401, `${what}: ${res.text}`);
    assertNoPersonalData(res.text, what);
    const events = await send('GET', '/v1/session/events', { key: secret });
    assert.equal(events.status, 401, `${what} (events)`);
  }
  // The backend still reads the outcome, with its API key.
  const backend = await send('GET', `/v1/sessions/${s.id}`, { key: API_KEY });
  assert.equal(backend.status, 200);
  assert.equal((JSON.parse(backend.text) as SessionView).status, 'completed');
  offset = 0;
});

test('an open session’s prefill is masked for every page secret: the CPF as ***.982.247-**, the first name only', async () => {
  offset = 0;
  const s = await openSession(`pdata-open-${Date.now()}`);
  const offer = await send('POST', '/v1/session/handoff', { key: s.clientSecret });
  const linkToken = new URL((JSON.parse(offer.text) as HandoffOffer).url).pathname.split('/').pop()!;
  const device = (JSON.parse((await send('POST', '/v1/handoff/claim', { body: { token: linkToken } })).text) as { clientSecret: string })
    .clientSecret;
  for (const [what, secret] of [
    ['the client secret', s.clientSecret],
    ['the capture token', s.captureToken],
    ['a phone’s device secret', device],
  ] as const) {
    const res = await send('GET', '/v1/session', { key: secret });
    assert.equal(res.status, 200, `${what}: ${res.text}`);
    assert.deepEqual((JSON.parse(res.text) as { prefill: unknown }).prefill, { cpf: '***.982.247-**', name: 'Maria' }, what);
    assertNoPersonalData(res.text, what);
  }
});

test('the capture token from the URL cannot be exchanged twice: one page secret, to the first; the copy opens nothing', async () => {
  offset = 0;
  const s = await openSession(`pdata-twice-${Date.now()}`);
  // Several browsers holding the same URL at once: exactly one gets a secret.
  const tries = await Promise.all(
    Array.from({ length: 5 }, () => send('POST', '/v1/session/exchange', { body: { captureToken: s.captureToken } })),
  );
  const won = tries.filter((t) => t.status === 201);
  assert.equal(won.length, 1, tries.map((t) => `${t.status} ${t.text}`).join('\n'));
  for (const lost of tries.filter((t) => t.status !== 201)) {
    assert.equal(lost.status, 410, lost.text);
    assert.doesNotMatch(lost.text, /pageSecret|_page_/);
  }
  // Later, from the history: no secret, no read, and the page says the link was opened.
  const later = await send('POST', '/v1/session/exchange', { body: { captureToken: s.captureToken } });
  assert.equal(later.status, 410);
  assert.equal((await send('GET', '/v1/session', { key: s.captureToken })).status, 401);
  const page = await fetch(`${stack.url}/capture/${s.captureToken}`);
  assert.equal(page.status, 410);
  assert.doesNotMatch(await page.text(), /onboarding-flow|<script/);
  // The winner's secret works.
  const { pageSecret } = JSON.parse(won[0]!.text) as { pageSecret: string };
  assert.equal((await send('GET', '/v1/session', { key: pageSecret })).status, 200);
});
