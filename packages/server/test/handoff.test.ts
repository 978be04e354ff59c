/**
 * The hand-off of a session between devices (docs/page-api.md#hand-off), end to end on the
 * companion: the origin (client secret or capture token) offers a link, a phone claims it once by
 * token or short code and then holds the session, the origin follows the session's events and may
 * take it back while nothing was sent. The sandbox plays the upstream over HTTP.
 */
import { test, after, before } from 'node:test';
import assert from 'node:assert/strict';
import { companionOn, body, startStack, type Stack } from '@onboarding-kit/testing/stack';
import { ManualClock } from '@onboarding-kit/testing/manual-clock';
import type { CompanionApp } from '@onboarding-kit/server';
import {
  HANDOFF_CODE_ALPHABET,
  type CreateSessionResponse,
  type HandoffClaim,
  type HandoffOffer,
  type PageSession,
} from '@onboarding-kit/contract';
import { newHandoffCode } from '../src/handoff/handoff-service.js';
import { MemoryStore } from '../src/store/memory-store.js';
import { sessionEvents } from './helpers/session-events.js';

const API_KEY = 'sk_test_handoff_0123456789abcdef01234567';
const CPF = '529.982.247-25';
const CPF_REFUSED = '111.444.777-35';

let stack: Stack;
before(async () => {
  stack = await startStack();
});
after(async () => {
  await stack.close();
});

function companion(over: Parameters<typeof companionOn>[1] = {}): { app: CompanionApp; logs: string[] } {
  return companionOn(stack, { apiKeys: [API_KEY], publicUrl: 'https://kyc.example', clientAddress: () => '203.0.113.7', ...over });
}

function call(
  app: CompanionApp,
  method: string,
  path: string,
  options: { key?: string; body?: unknown; headers?: Record<string, string> } = {},
): Promise<Response> {
  const headers: Record<string, string> = { ...options.headers };
  if (options.key) headers.authorization = `Bearer ${options.key}`;
  if (options.body !== undefined) headers['content-type'] ??= 'application/json';
  return Promise.resolve(
    app.request(path, {
      method,
      headers,
      ...(options.body !== undefined && { body: typeof options.body === 'string' ? options.body : JSON.stringify(options.body) }),
    }),
  );
}

async function openSession(
  app: CompanionApp,
  payload: Record<string, unknown> = { reference: 'user-handoff', cpf: CPF },
): Promise<CreateSessionResponse & { captureToken: string }> {
  const res = await call(app, 'POST', '/v1/sessions', { key: API_KEY, body: payload });
  assert.equal(res.status, 201, await res.clone().text());
  const s = (await res.json()) as CreateSessionResponse;
  return { ...s, captureToken: new URL(s.url).pathname.replace('/capture/', '') };
}

async function errorOf(res: Response): Promise<{ status: number; code: string }> {
  const b = (await res.json()) as { error: { code: string; message: string } };
  assert.equal(typeof b.error.message, 'string');
  return { status: res.status, code: b.error.code };
}

async function offer(app: CompanionApp, key: string): Promise<HandoffOffer & { token: string }> {
  const res = await call(app, 'POST', '/v1/session/handoff', { key });
  assert.equal(res.status, 201, await res.clone().text());
  const o = (await res.json()) as HandoffOffer;
  return { ...o, token: o.url.slice(o.url.lastIndexOf('/') + 1) };
}

const claim = (app: CompanionApp, payload: unknown) => call(app, 'POST', '/v1/handoff/claim', { body: payload });

async function claimOk(app: CompanionApp, payload: unknown): Promise<HandoffClaim> {
  const res = await claim(app, payload);
  assert.equal(res.status, 200, await res.clone().text());
  return (await res.json()) as HandoffClaim;
}

const pageSession = async (app: CompanionApp, key: string) =>
  (await (await call(app, 'GET', '/v1/session', { key })).json()) as PageSession;

const eventsOf = (app: CompanionApp) => (headers: Record<string, string>) =>
  Promise.resolve(app.request('/v1/session/events', { headers }));

test('offer and claim by the link: the phone gets a secret of its own and holds the session; the link is single use; the capture token is the origin too', async () => {
  const clock = new ManualClock();
  const { app, logs } = companion({ timers: clock });
  const s = await openSession(app);
  // The hosted page's capture token opens the session as its origin, like the client secret, but no backend route.
  assert.deepEqual((await pageSession(app, s.captureToken)).handoff, { state: 'none', holder: true, origin: true });
  assert.equal((await call(app, 'GET', `/v1/sessions/${s.id}`, { key: s.captureToken })).status, 401);

  const o = await offer(app, s.captureToken);
  assert.match(o.url, /^https:\/\/kyc\.example\/h\/[A-Za-z0-9_-]{32}$/, '192 random bits, base64url');
  assert.equal(o.shortUrl, 'https://kyc.example/h');
  assert.match(o.code, new RegExp(`^[${HANDOFF_CODE_ALPHABET}]{8}$`));
  assert.equal(Date.parse(o.expiresAt) - clock.now(), 600_000, 'lives 10 minutes');
  assert.deepEqual((await pageSession(app, s.clientSecret)).handoff, {
    state: 'pending',
    holder: true,
    origin: true,
    expiresAt: o.expiresAt,
  });

  const phone = await claimOk(app, { token: o.token });
  assert.equal(phone.sessionId, s.id);
  assert.ok(![s.clientSecret, s.captureToken].includes(phone.clientSecret));
  assert.deepEqual((await pageSession(app, phone.clientSecret)).handoff, { state: 'claimed', holder: true, origin: false });
  assert.deepEqual((await pageSession(app, s.clientSecret)).handoff, { state: 'claimed', holder: false, origin: true });
  assert.deepEqual((await pageSession(app, s.captureToken)).handoff, { state: 'claimed', holder: false, origin: true });

  assert.deepEqual(await errorOf(await claim(app, { token: o.token })), { status: 410, code: 'handoff_used' });
  assert.deepEqual(await errorOf(await claim(app, { code: o.code })), { status: 410, code: 'handoff_used' });
  // The phone is no origin: it can neither hand the session on nor take it back.
  assert.equal((await call(app, 'POST', '/v1/session/handoff', { key: phone.clientSecret })).status, 403);
  assert.equal((await call(app, 'POST', '/v1/session/handoff/reclaim', { key: phone.clientSecret })).status, 403);
  // The origin holds nothing now: no new link.
  assert.deepEqual(await errorOf(await call(app, 'POST', '/v1/session/handoff', { key: s.clientSecret })), {
    status: 409,
    code: 'session_handed_off',
  });
  // Secrets of any kind stay out of the logs.
  for (const secret of [s.clientSecret, s.captureToken, o.token, o.code, phone.clientSecret])
    assert.ok(!logs.join('\n').includes(secret), 'no secret in the logs');
  await app.close();
});

test('claim by the short code, in any case, with dashes or spaces; a new offer replaces the pending one', async () => {
  const { app } = companion();
  const s = await openSession(app);
  const first = await offer(app, s.clientSecret);
  const second = await offer(app, s.clientSecret);
  assert.notEqual(second.code, first.code);
  assert.deepEqual(await errorOf(await claim(app, { token: first.token })), { status: 404, code: 'handoff_invalid' });
  assert.deepEqual(await errorOf(await claim(app, { code: first.code })), { status: 404, code: 'handoff_invalid' });
  const typed = ` ${second.code.slice(0, 4).toLowerCase()}-${second.code.slice(4)} `;
  const phone = await claimOk(app, { code: typed });
  assert.equal(phone.sessionId, s.id);
  assert.deepEqual(await errorOf(await claim(app, { token: second.token })), { status: 410, code: 'handoff_used' });
  await app.close();
});

test('bad claims: unknown token or code 404 handoff_invalid, bodies checked at the edge; an error body never echoes what was sent', async () => {
  const { app } = companion();
  for (const payload of [{ token: 'A'.repeat(32) }, { code: 'ACDE-FGHJ' }, { code: 'not a code' }]) {
    const res = await claim(app, payload);
    const text = await res.text();
    assert.equal(res.status, 404);
    assert.equal((JSON.parse(text) as { error: { code: string } }).error.code, 'handoff_invalid');
    assert.ok(!text.includes(Object.values(payload)[0]!), 'not echoed');
  }
  for (const payload of [{}, { token: 'x', code: 'y' }, { token: 3 }, { token: 'x', extra: 1 }, { code: 'x'.repeat(100) }]) {
    assert.equal((await claim(app, payload)).status, 400, JSON.stringify(payload));
  }
  assert.equal((await claim(app, [])).status, 400);
  await app.close();
});

test('short codes are rate limited per address: 10 attempts a 60 s window, right or wrong; then 429 with Retry-After, even for the right code', async () => {
  let now = Date.parse('2030-01-01T00:00:00.000Z');
  const { app } = companion({ store: new MemoryStore({ now: () => now }) });
  const s = await openSession(app);
  const o = await offer(app, s.clientSecret);
  const wrong = o.code === 'ACDEFGHJ' ? 'ACDEFGHK' : 'ACDEFGHJ';
  for (let i = 0; i < 10; i++)
    assert.deepEqual(await errorOf(await claim(app, { code: wrong })), { status: 404, code: 'handoff_invalid' }, `attempt ${i + 1}`);
  const limited = await claim(app, { code: o.code });
  assert.deepEqual(await errorOf(limited.clone()), { status: 429, code: 'rate_limited' });
  assert.equal(limited.headers.get('retry-after'), '60', 'the window is a minute from its first attempt');
  now += 59_000;
  const late = await claim(app, { code: o.code });
  assert.equal(late.status, 429, 'still refused a second before the window ends');
  assert.equal(late.headers.get('retry-after'), '1');
  now += 1_000;
  assert.deepEqual(await errorOf(await claim(app, { code: wrong })), { status: 404, code: 'handoff_invalid' }, 'a new window');
  // Another address has its own count; the link itself is not counted.
  const other = companion({ clientAddress: () => '198.51.100.1', store: app.store });
  assert.equal((await claim(other.app, { token: o.token })).status, 200);
  await other.app.close();
  await app.close();
});

test('two phones racing for one link: exactly one gets the session, the others 410 handoff_used', async () => {
  const { app } = companion();
  const s = await openSession(app);
  const o = await offer(app, s.clientSecret);
  const answers = await Promise.all(Array.from({ length: 6 }, (_, i) => claim(app, i % 2 ? { token: o.token } : { code: o.code })));
  const statuses = answers.map((r) => r.status).sort();
  assert.deepEqual(statuses, [200, 410, 410, 410, 410, 410]);
  for (const r of answers.filter((a) => a.status === 410)) assert.equal((await errorOf(r)).code, 'handoff_used');
  await app.close();
});

test("an unused link expires after 10 minutes: 410 handoff_expired, and the origin's stream hears handoff.expired", async () => {
  const clock = new ManualClock();
  const { app } = companion({ timers: clock });
  const s = await openSession(app, { reference: 'user-clock', cpf: CPF, expiresIn: 3600 });
  const o = await offer(app, s.clientSecret);
  const stream = await sessionEvents(eventsOf(app), s.clientSecret);
  await stream.until('handoff.created');
  await clock.advance(599_000);
  assert.equal((await pageSession(app, s.clientSecret)).handoff?.state, 'pending');
  await clock.advance(1_000);
  await stream.until('handoff.expired');
  assert.deepEqual(await errorOf(await claim(app, { token: o.token })), { status: 410, code: 'handoff_expired' });
  assert.deepEqual(await errorOf(await claim(app, { code: o.code })), { status: 410, code: 'handoff_expired' });
  assert.deepEqual((await pageSession(app, s.clientSecret)).handoff, { state: 'none', holder: true, origin: true });
  assert.deepEqual(stream.types(), ['handoff.created', 'handoff.expired'], 'told once');
  // A new link works again.
  const again = await offer(app, s.clientSecret);
  assert.equal((await claim(app, { token: again.token })).status, 200);
  await stream.close();
  await app.close();
});

test("handoff.ttlMs (for tests) shortens a link's life; out of range it is refused at creation", async () => {
  const clock = new ManualClock();
  const { app } = companion({ timers: clock, handoff: { ttlMs: 5_000 } });
  const s = await openSession(app, { reference: 'user-short-ttl', cpf: CPF, expiresIn: 3600 });
  const o = await offer(app, s.clientSecret);
  assert.equal(Date.parse(o.expiresAt) - clock.now(), 5_000);
  await clock.advance(4_999);
  assert.equal((await pageSession(app, s.clientSecret)).handoff?.state, 'pending');
  await clock.advance(1);
  assert.deepEqual(await errorOf(await claim(app, { token: o.token })), { status: 410, code: 'handoff_expired' });
  await app.close();
  for (const ttlMs of [999, 600_001, 1.5, Number.NaN]) {
    assert.throws(() => companion({ handoff: { ttlMs } }), /handoff\.ttlMs must be a whole number from 1000 to 600000/, String(ttlMs));
  }
});

test('after a claim the origin cannot create (409 session_handed_off) but follows the phone: progress, submitted, completed; the stream then ends', async () => {
  const { app } = companion();
  const s = await openSession(app, { reference: 'user-follow', cpf: CPF_REFUSED });
  const o = await offer(app, s.clientSecret);
  const computer = await sessionEvents(eventsOf(app), s.captureToken);
  const phone = await claimOk(app, { code: o.code });
  await computer.until('handoff.claimed');
  for (const key of [s.clientSecret, s.captureToken]) {
    assert.deepEqual(await errorOf(await call(app, 'POST', '/v1/onboardings', { key, body: body({ cpf: CPF_REFUSED }) })), {
      status: 409,
      code: 'session_handed_off',
    });
    assert.deepEqual(await errorOf(await call(app, 'POST', '/v1/session/progress', { key, body: { step: 'selfie', photos: [] } })), {
      status: 409,
      code: 'session_handed_off',
    });
  }
  // A second stream (the phone's own) sees the same events.
  const phoneStream = await sessionEvents(eventsOf(app), phone.clientSecret);
  assert.equal(
    (
      await call(app, 'POST', '/v1/session/progress', {
        key: phone.clientSecret,
        body: { step: 'document-back', photos: ['documentFront'] },
      })
    ).status,
    204,
  );
  assert.equal(
    (
      await call(app, 'POST', '/v1/session/progress', {
        key: phone.clientSecret,
        body: { step: 'selfie', photos: ['documentFront', 'documentBack'] },
      })
    ).status,
    204,
  );
  await computer.until('capture.progress');
  const created = await call(app, 'POST', '/v1/onboardings', { key: phone.clientSecret, body: body({ cpf: CPF_REFUSED }) });
  assert.equal(created.status, 201);
  const { tokenOnboarding } = (await created.json()) as { tokenOnboarding: string };
  await computer.until('session.submitted');
  // The sandbox decides REFUSED for this CPF; this companion learns it by polling.
  await computer.until('session.completed');
  await computer.untilEnd();
  await phoneStream.untilEnd();
  const progress = computer.events.filter((e) => e.type === 'capture.progress').map((e) => e.data);
  assert.deepEqual(progress.at(-1), { type: 'capture.progress', step: 'selfie', photos: ['documentFront', 'documentBack'] });
  assert.deepEqual(computer.events.find((e) => e.type === 'session.submitted')?.data, { type: 'session.submitted', tokenOnboarding });
  assert.deepEqual(computer.events.at(-1)?.data, { type: 'session.completed', tokenOnboarding, status: 'REFUSED' });
  const ids = computer.events.map((e) => Number(e.id));
  assert.deepEqual(
    ids,
    [...ids].sort((a, b) => a - b),
    'ids grow',
  );
  assert.deepEqual(phoneStream.types().slice(-3), ['capture.progress', 'session.submitted', 'session.completed']);

  // A reload resumes from the store: every event kept so far (only the latest progress), then the end.
  const reloaded = await sessionEvents(eventsOf(app), s.clientSecret);
  await reloaded.untilEnd();
  assert.deepEqual(reloaded.types(), ['handoff.created', 'handoff.claimed', 'capture.progress', 'session.submitted', 'session.completed']);
  assert.deepEqual(reloaded.events.find((e) => e.type === 'capture.progress')?.data, progress.at(-1));
  // Last-Event-ID: only what came after it.
  const submittedId = reloaded.events.find((e) => e.type === 'session.submitted')!.id;
  const resumed = await sessionEvents(eventsOf(app), s.clientSecret, submittedId);
  await resumed.untilEnd();
  assert.deepEqual(resumed.types(), ['session.completed']);
  for (const secret of [s.clientSecret, s.captureToken, phone.clientSecret, o.code])
    assert.ok(!computer.raw.includes(secret), 'no secret in the events');
  await app.close();
});

test('reclaim: the origin takes the session back while nothing was sent; the phone is refused 409 session_handed_off everywhere', async () => {
  const { app } = companion();
  const s = await openSession(app);
  const o = await offer(app, s.clientSecret);
  const phone = await claimOk(app, { token: o.token });
  const phoneStream = await sessionEvents(eventsOf(app), phone.clientSecret);
  await phoneStream.until('handoff.claimed');
  const res = await call(app, 'POST', '/v1/session/handoff/reclaim', { key: s.captureToken });
  assert.equal(res.status, 200);
  assert.deepEqual(((await res.json()) as PageSession).handoff, { state: 'none', holder: true, origin: true });
  await phoneStream.until('handoff.reclaimed');
  await phoneStream.untilEnd();
  for (const [method, path, payload] of [
    ['GET', '/v1/session', undefined],
    ['GET', '/v1/session/events', undefined],
    ['POST', '/v1/session/progress', { step: 'selfie', photos: [] }],
    ['POST', '/v1/onboardings', body({ cpf: CPF })],
  ] as const) {
    assert.deepEqual(
      await errorOf(await call(app, method, path, { key: phone.clientSecret, ...(payload && { body: payload }) })),
      { status: 409, code: 'session_handed_off' },
      `${method} ${path}`,
    );
  }
  // The origin captures again, and may hand off anew.
  assert.equal(
    (await call(app, 'POST', '/v1/session/progress', { key: s.clientSecret, body: { step: 'consent', photos: [] } })).status,
    204,
  );
  const created = await call(app, 'POST', '/v1/onboardings', { key: s.clientSecret, body: body({ cpf: CPF }) });
  assert.equal(created.status, 201);
  // Once sent, nothing moves any more.
  assert.deepEqual(await errorOf(await call(app, 'POST', '/v1/session/handoff', { key: s.clientSecret })), {
    status: 409,
    code: 'session_used',
  });
  assert.deepEqual(await errorOf(await call(app, 'POST', '/v1/session/handoff/reclaim', { key: s.clientSecret })), {
    status: 409,
    code: 'session_used',
  });
  await app.close();
});

test('a pending link is withdrawn by reclaim; a link out while the origin sends: the claim gets 410 handoff_used', async () => {
  const { app } = companion();
  const s = await openSession(app);
  const withdrawn = await offer(app, s.clientSecret);
  assert.equal((await call(app, 'POST', '/v1/session/handoff/reclaim', { key: s.clientSecret })).status, 200);
  assert.deepEqual(await errorOf(await claim(app, { token: withdrawn.token })), { status: 404, code: 'handoff_invalid' });
  const o = await offer(app, s.clientSecret);
  assert.equal((await call(app, 'POST', '/v1/onboardings', { key: s.clientSecret, body: body({ cpf: CPF }) })).status, 201);
  assert.deepEqual(await errorOf(await claim(app, { token: o.token })), { status: 410, code: 'handoff_used' });
  await app.close();
});

test("a phone claiming while the origin's creation is under way gets 410 handoff_used, and the origin keeps the session and its creation", async () => {
  let release!: () => void;
  const held = new Promise<void>((resolve) => (release = resolve));
  let creationStarted!: () => void;
  const started = new Promise<void>((resolve) => (creationStarted = resolve));
  const gated: typeof fetch = async (input, init) => {
    if (new URL(input instanceof Request ? input.url : String(input)).pathname === '/api/token-history-onboarding') {
      creationStarted();
      await held;
    }
    return fetch(input, init);
  };
  const { app } = companion({ upstream: { fetch: gated } });
  const s = await openSession(app);
  const o = await offer(app, s.clientSecret);
  const creation = call(app, 'POST', '/v1/onboardings', { key: s.clientSecret, body: body({ cpf: CPF }) });
  await started;
  // The creation holds the session's claim, at the upstream: neither the link nor the code takes it.
  assert.deepEqual(await errorOf(await claim(app, { token: o.token })), { status: 410, code: 'handoff_used' });
  assert.deepEqual(await errorOf(await claim(app, { code: o.code })), { status: 410, code: 'handoff_used' });
  assert.deepEqual((await pageSession(app, s.clientSecret)).handoff, {
    state: 'pending',
    holder: true,
    origin: true,
    expiresAt: o.expiresAt,
  });
  release();
  assert.equal((await creation).status, 201, 'the creation under way completes');
  assert.deepEqual(await errorOf(await claim(app, { token: o.token })), { status: 410, code: 'handoff_used' });
  await app.close();
});

test('progress reports are checked: known steps and photo roles only, each role once; only the holder reports', async () => {
  const { app } = companion();
  const s = await openSession(app);
  const cases: [unknown, number, string][] = [
    [{ step: 'nowhere', photos: [] }, 400, 'invalid_field'],
    [{ step: 'selfie' }, 400, 'invalid_field'],
    [{ step: 'selfie', photos: ['passport'] }, 400, 'invalid_field'],
    [{ step: 'selfie', photos: ['selfie', 'selfie'] }, 400, 'invalid_field'],
    [{ step: 'selfie', photos: [], image: 'data:' }, 400, 'invalid_field'],
    [[], 400, 'invalid_request'],
    ['{', 400, 'invalid_json'],
  ];
  for (const [payload, status, code] of cases) {
    assert.deepEqual(
      await errorOf(await call(app, 'POST', '/v1/session/progress', { key: s.clientSecret, body: payload })),
      { status, code },
      JSON.stringify(payload),
    );
  }
  assert.equal((await call(app, 'POST', '/v1/session/progress', { body: { step: 'selfie', photos: [] } })).status, 401);
  await app.close();
});

test('short codes: 8 symbols of the alphabet, each about equally likely', () => {
  const counts = new Map<string, number>();
  for (let i = 0; i < 20_000; i++) {
    const code = newHandoffCode();
    assert.match(code, new RegExp(`^[${HANDOFF_CODE_ALPHABET}]{8}$`));
    for (const c of code) counts.set(c, (counts.get(c) ?? 0) + 1);
  }
  // 160 000 symbols over the alphabet's 23, about 6957 each (one standard deviation is 1.2 %); a
  // modulo bias on bytes (256 = 11 x 23 + 3: +9 % for three symbols) would fall outside 5 %.
  const symbols = HANDOFF_CODE_ALPHABET.length;
  assert.equal(new Set(HANDOFF_CODE_ALPHABET).size, symbols, 'no symbol written twice');
  assert.equal(counts.size, symbols);
  const expected = 160_000 / symbols;
  for (const [c, n] of counts) assert.ok(Math.abs(n - expected) < expected * 0.05, `${c}: ${n}`);
});
