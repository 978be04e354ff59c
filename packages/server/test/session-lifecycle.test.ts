/**
 * A session's life at the backend's request (docs/backend-api.md#sessions), on a real companion
 * listening on a loopback socket with the sandbox as its upstream and a real receiver verifying
 * every notification: cancel an open session (the page, its creation, its event stream and the
 * hosted page are told), redact a session's personal data everywhere the companion holds it, and
 * list sessions page by page with filters.
 */
import { test, after, before } from 'node:test';
import assert from 'node:assert/strict';
import { companionOn, body, startStack, type Stack } from '@onboarding-kit/testing/stack';
import type { CompanionApp } from '@onboarding-kit/server';
import type { CreateSessionResponse, NotificationEvent, SessionList, SessionView } from '@onboarding-kit/contract';
import { listen, type ListeningServer } from '../src/serve.js';
import { startReceiver, type Receiver } from './helpers/notify-receiver.js';
import { sessionEvents } from './helpers/session-events.js';

const API_KEY = 'sk_test_lifecycle_0123456789abcdef012345';
const SECRET = 'whsec_test_lifecycle_0123456789abcdef0123';
const CPF = '529.982.247-25';
const NAME = 'Maria Aparecida Quaresma';
const EMAIL = 'maria.quaresma@example.com';

let stack: Stack;
let receiver: Receiver;
let app: CompanionApp;
let served: ListeningServer;
let base: string;

before(async () => {
  stack = await startStack();
  receiver = await startReceiver(SECRET);
  app = companionOn(stack, { apiKeys: [API_KEY], notify: { url: receiver.url, secret: SECRET }, publicUrl: 'https://kyc.example' }).app;
  served = await listen((req, env) => app.fetch(req, env), { port: 0 });
  base = served.url;
});
after(async () => {
  await served.close({ graceMs: 100 });
  await app.close();
  await receiver.close();
  await stack.close();
});

async function call(method: string, path: string, options: { key?: string; body?: unknown } = {}): Promise<Response> {
  const headers: Record<string, string> = {};
  if (options.key) headers.authorization = `Bearer ${options.key}`;
  if (options.body !== undefined) headers['content-type'] = 'application/json';
  return fetch(`${base}${path}`, {
    method,
    headers,
    ...(options.body !== undefined && { body: typeof options.body === 'string' ? options.body : JSON.stringify(options.body) }),
  });
}

async function open(payload: Record<string, unknown> = {}): Promise<CreateSessionResponse> {
  const res = await call('POST', '/v1/sessions', {
    key: API_KEY,
    body: { reference: 'user-life', cpf: CPF, name: NAME, metadata: { email: EMAIL }, returnUrl: 'https://app.example/done', ...payload },
  });
  assert.equal(res.status, 201, await res.clone().text());
  return (await res.json()) as CreateSessionResponse;
}

async function errorOf(res: Response): Promise<{ status: number; code: string; field?: string }> {
  const b = (await res.json()) as { error: { code: string; field?: string; message: string } };
  assert.equal(typeof b.error.message, 'string');
  return { status: res.status, code: b.error.code, ...(b.error.field && { field: b.error.field }) };
}

const eventsOf = (sessionId: string, type?: string) =>
  receiver
    .delivered()
    .map((r) => JSON.parse(r.body) as NotificationEvent<SessionView>)
    .filter((e) => e.data.id === sessionId && (type === undefined || e.type === type));

async function until(what: string, ok: () => boolean | Promise<boolean>, ms = 25_000): Promise<void> {
  const deadline = Date.now() + ms;
  while (!(await ok())) {
    if (Date.now() > deadline) throw new Error(`${what}: not within ${ms} ms`);
    await new Promise((r) => setTimeout(r, 50));
  }
}

/** The stored events of a session, as the admin routes show them. */
async function outboxOf(sessionId: string): Promise<NotificationEvent<SessionView>[]> {
  const all: NotificationEvent<SessionView>[] = [];
  for (const state of ['pending', 'delivered', 'failed']) {
    const res = await call('GET', `/v1/admin/notifications?state=${state}&limit=200`, { key: API_KEY });
    assert.equal(res.status, 200);
    const { data } = (await res.json()) as { data: Array<{ orderKey: string; event: NotificationEvent<SessionView> }> };
    all.push(...data.filter((e) => e.orderKey === sessionId).map((e) => e.event));
  }
  return all;
}

test('cancel: an open session becomes cancelled (200, again 200); the page, its creation, its stream and the hosted page answer 410', async () => {
  const s = await open();
  const stream = await sessionEvents((headers) => fetch(`${base}/v1/session/events`, { headers }), s.clientSecret);

  const res = await call('POST', `/v1/sessions/${s.id}/cancel`, { key: API_KEY });
  assert.equal(res.status, 200);
  const view = (await res.json()) as SessionView;
  assert.equal(view.status, 'cancelled');
  assert.equal(view.id, s.id);
  assert.deepEqual(view.metadata, { email: EMAIL }, 'a cancelled session keeps its data until redacted');

  const again = await call('POST', `/v1/sessions/${s.id}/cancel`, { key: API_KEY, body: {} });
  assert.equal(again.status, 200, 'idempotent');
  assert.equal(((await again.json()) as SessionView).status, 'cancelled');

  await stream.until('session.cancelled');
  await stream.untilEnd();

  assert.deepEqual(await errorOf(await call('GET', '/v1/session', { key: s.clientSecret })), { status: 410, code: 'session_cancelled' });
  assert.deepEqual(await errorOf(await call('GET', '/v1/session/events', { key: s.clientSecret })), {
    status: 410,
    code: 'session_cancelled',
  });
  const creation = await fetch(`${base}/v1/onboardings`, {
    method: 'POST',
    headers: { authorization: `Bearer ${s.clientSecret}`, 'content-type': 'application/json' },
    body: JSON.stringify(body({ cpf: CPF })),
  });
  assert.deepEqual(await errorOf(creation), { status: 410, code: 'session_cancelled' });
  const token = new URL(s.url).pathname.split('/').pop()!;
  assert.deepEqual(await errorOf(await call('POST', '/v1/session/exchange', { body: { captureToken: token } })), {
    status: 410,
    code: 'session_cancelled',
  });
  const page = await fetch(`${base}/capture/${token}`);
  assert.equal(page.status, 410);
  assert.match(await page.text(), /<h1>Este link foi cancelado<\/h1>/, "in the session's locale");

  await until('session.cancelled delivered', () => eventsOf(s.id, 'session.cancelled').length === 1);
  const [event] = eventsOf(s.id, 'session.cancelled');
  assert.equal(event!.data.status, 'cancelled');
  assert.ok(
    receiver.delivered().every((r) => r.verified),
    'every notification signed',
  );
  assert.equal(((await (await call('GET', `/v1/sessions/${s.id}`, { key: API_KEY })).json()) as SessionView).status, 'cancelled');
  await new Promise((r) => setTimeout(r, 300));
  assert.equal(eventsOf(s.id, 'session.cancelled').length, 1, 'one notification, however often cancelled');
});

test('cancel: a used session is 409 session_used, an unknown one 404; a body other than {} is 400; no key is 401', async () => {
  const s = await open();
  const created = await fetch(`${base}/v1/onboardings`, {
    method: 'POST',
    headers: { authorization: `Bearer ${s.clientSecret}`, 'content-type': 'application/json' },
    body: JSON.stringify(body({ cpf: CPF })),
  });
  assert.equal(created.status, 201, await created.clone().text());
  assert.deepEqual(await errorOf(await call('POST', `/v1/sessions/${s.id}/cancel`, { key: API_KEY })), {
    status: 409,
    code: 'session_used',
  });
  assert.deepEqual(await errorOf(await call('POST', `/v1/sessions/ses_${'0'.repeat(32)}/cancel`, { key: API_KEY })), {
    status: 404,
    code: 'not_found',
  });
  assert.deepEqual(await errorOf(await call('POST', '/v1/sessions/nonsense/cancel', { key: API_KEY })), { status: 404, code: 'not_found' });
  const other = await open();
  assert.deepEqual(await errorOf(await call('POST', `/v1/sessions/${other.id}/cancel`, { key: API_KEY, body: { reason: 'x' } })), {
    status: 400,
    code: 'invalid_request',
  });
  assert.equal((await call('POST', `/v1/sessions/${other.id}/cancel`)).status, 401);
  assert.equal(((await (await call('GET', `/v1/sessions/${other.id}`, { key: API_KEY })).json()) as SessionView).status, 'open');
});

test('redact: a used session keeps its skeleton; its data leaves the view, the onboarding and every stored notification; no secret opens it', async () => {
  const s = await open({ reference: 'user-redact' });
  const created = await fetch(`${base}/v1/onboardings`, {
    method: 'POST',
    headers: { authorization: `Bearer ${s.clientSecret}`, 'content-type': 'application/json' },
    body: JSON.stringify(body({ cpf: CPF })),
  });
  assert.equal(created.status, 201, await created.clone().text());
  const { tokenOnboarding, accessKey } = (await created.json()) as { tokenOnboarding: string; accessKey: string };
  await until('session.submitted delivered', () => eventsOf(s.id, 'session.submitted').length === 1);
  assert.deepEqual(eventsOf(s.id, 'session.submitted')[0]!.data.metadata, { email: EMAIL });

  const res = await call('POST', `/v1/sessions/${s.id}/redact`, { key: API_KEY });
  assert.equal(res.status, 200, await res.clone().text());
  const view = (await res.json()) as SessionView;
  assert.equal(typeof view.redactedAt, 'string');
  assert.equal(view.id, s.id);
  assert.equal(view.reference, 'user-redact');
  assert.deepEqual(view.metadata, {});
  assert.equal(view.returnUrl, undefined);
  assert.equal(view.onboarding?.tokenOnboarding, tokenOnboarding);
  assert.equal(view.onboarding?.externalId, undefined);
  assert.ok(!JSON.stringify(view).includes(EMAIL));

  const read = (await (await call('GET', `/v1/sessions/${s.id}`, { key: API_KEY })).json()) as SessionView;
  assert.deepEqual(read.redactedAt, view.redactedAt);
  assert.deepEqual(read.metadata, {});

  const twice = await call('POST', `/v1/sessions/${s.id}/redact`, { key: API_KEY });
  assert.equal(twice.status, 200);
  assert.equal(((await twice.json()) as SessionView).redactedAt, view.redactedAt, 'idempotent: the first redaction time stays');

  await until('session.redacted delivered', () => eventsOf(s.id, 'session.redacted').length === 1);
  const redactedEvent = eventsOf(s.id, 'session.redacted')[0]!;
  assert.equal(redactedEvent.data.redactedAt, view.redactedAt);
  assert.ok(!JSON.stringify(redactedEvent).includes(EMAIL));
  const stored = await outboxOf(s.id);
  assert.ok(stored.some((e) => e.type === 'session.submitted') && stored.some((e) => e.type === 'session.redacted'));
  for (const e of stored) {
    assert.ok(!JSON.stringify(e).includes(EMAIL), `${e.type}: no personal data left in the stored body`);
    assert.equal(e.data.redactedAt, view.redactedAt);
  }

  assert.equal((await call('GET', '/v1/session', { key: s.clientSecret })).status, 401, 'the client secret opens nothing');
  const onboarding = await fetch(`${base}/v1/onboardings/${tokenOnboarding}`, { headers: { authorization: `Bearer ${accessKey}` } });
  assert.equal(onboarding.status, 404, 'the access key opens nothing');
  const list = (await (await call('GET', '/v1/sessions?reference=user-redact', { key: API_KEY })).json()) as SessionList;
  assert.deepEqual(
    list.data.map((v) => [v.id, v.redactedAt]),
    [[s.id, view.redactedAt]],
  );
  await new Promise((r) => setTimeout(r, 300));
  assert.equal(eventsOf(s.id, 'session.redacted').length, 1, 'one session.redacted, however often redacted');
});

test('redact: an open session is cancelled first, then redacted; an unknown one is 404', async () => {
  const s = await open({ reference: 'user-redact-open' });
  const res = await call('POST', `/v1/sessions/${s.id}/redact`, { key: API_KEY, body: {} });
  assert.equal(res.status, 200);
  const view = (await res.json()) as SessionView;
  assert.equal(view.status, 'cancelled');
  assert.equal(typeof view.redactedAt, 'string');
  await until('session.cancelled and session.redacted', () => eventsOf(s.id).length === 2);
  assert.deepEqual(
    eventsOf(s.id).map((e) => e.type),
    ['session.cancelled', 'session.redacted'],
  );
  for (const e of await outboxOf(s.id)) assert.ok(!JSON.stringify(e).includes(EMAIL), `${e.type} stored without personal data`);
  assert.deepEqual(await errorOf(await call('POST', `/v1/sessions/ses_${'f'.repeat(32)}/redact`, { key: API_KEY })), {
    status: 404,
    code: 'not_found',
  });
});

test('list: newest first, page by page through nextCursor, filtered by reference, status and creation time; bad values name their field', async () => {
  const reference = `user-pages-${Date.now()}`;
  const opened: string[] = [];
  for (let i = 0; i < 5; i++) opened.push((await open({ reference })).id);
  await call('POST', `/v1/sessions/${opened[1]}/cancel`, { key: API_KEY });
  const views = await Promise.all(
    opened.map(async (id) => (await (await call('GET', `/v1/sessions/${id}`, { key: API_KEY })).json()) as SessionView),
  );
  const newestFirst = [...views]
    .sort((x, y) => Date.parse(y.createdAt) - Date.parse(x.createdAt) || (x.id < y.id ? 1 : -1))
    .map((v) => v.id);

  const seen: string[] = [];
  let cursor: string | null = null;
  let pages = 0;
  do {
    const res = await call('GET', `/v1/sessions?reference=${reference}&limit=2${cursor ? `&cursor=${cursor}` : ''}`, { key: API_KEY });
    assert.equal(res.status, 200);
    const page = (await res.json()) as SessionList;
    assert.ok(page.data.length <= 2);
    seen.push(...page.data.map((v) => v.id));
    cursor = page.nextCursor;
    pages++;
    // A session opened meanwhile is newer than every page already read: it never shows up later.
    if (pages === 1) await open({ reference });
  } while (cursor && pages < 10);
  assert.deepEqual(seen, newestFirst);
  assert.equal(pages, 3);

  const cancelled = (await (
    await call('GET', `/v1/sessions?reference=${reference}&status=cancelled`, { key: API_KEY })
  ).json()) as SessionList;
  assert.deepEqual(
    cancelled.data.map((v) => v.id),
    [opened[1]],
  );
  assert.equal(cancelled.nextCursor, null);
  const from = encodeURIComponent(new Date(Date.parse(views[0]!.createdAt) - 1).toISOString());
  const all = (await (await call('GET', `/v1/sessions?createdAfter=${from}&limit=100`, { key: API_KEY })).json()) as SessionList;
  for (const id of opened)
    assert.ok(
      all.data.some((v) => v.id === id),
      'no filter but the time: every session since',
    );
  const none = (await (
    await call('GET', `/v1/sessions?reference=${reference}&createdBefore=2000-01-01`, { key: API_KEY })
  ).json()) as SessionList;
  assert.deepEqual(none, { data: [], nextCursor: null });
  const firstDefault = (await (await call('GET', '/v1/sessions', { key: API_KEY })).json()) as SessionList;
  assert.ok(firstDefault.data.length <= 20 && firstDefault.data.length > 0, 'the default page');

  for (const [query, field] of [
    ['limit=0', 'limit'],
    ['limit=101', 'limit'],
    ['limit=ten', 'limit'],
    ['status=closed', 'status'],
    ['createdAfter=yesterday', 'createdAfter'],
    ['createdBefore=2030-13-45T00:00:00Z', 'createdBefore'],
    ['cursor=garbage', 'cursor'],
    [`cursor=${Buffer.from(`c1:1:ses_${'0'.repeat(31)}`).toString('base64url')}`, 'cursor'],
    ['reference=', 'reference'],
  ] as const)
    assert.deepEqual(
      await errorOf(await call('GET', `/v1/sessions?${query}`, { key: API_KEY })),
      { status: 400, code: 'invalid_field', field },
      query,
    );
});
