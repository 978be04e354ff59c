/**
 * Timeouts, retries and idempotency over real sockets: a scripted front server on 127.0.0.1
 * (helpers/front.ts) stands between the SDK and a real companion, answering 429 with
 * `Retry-After`, 5xx, hanging or dropping the connection, or passing the request on and losing
 * the companion's answer, which the companion then replays for the same `Idempotency-Key`.
 */
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { startStack, type Stack } from '@onboarding-kit/testing/stack';
import { OnboardingApiError, OnboardingClient, OnboardingConnectionError, OnboardingTimeoutError } from '@onboarding-kit/node';
import { errorBody, startFront, type Action, type Front, type Seen } from './helpers/front.js';

const API_KEY = 'sk_test_sdk_retry_0123456789abcdef0123456789ab';
const CPF = '529.982.247-25';

let stack: Stack;
const fronts: Front[] = [];

before(async () => {
  stack = await startStack({ companion: { apiKeys: [API_KEY] } });
});
after(async () => {
  await Promise.all(fronts.map((f) => f.close()));
  await stack.close();
});

async function through(script: (seen: Seen, index: number) => Action, options: { timeoutMs?: number; maxRetries?: number } = {}) {
  const front = await startFront(stack.url, script);
  fronts.push(front);
  return { front, client: new OnboardingClient({ apiKey: API_KEY, baseUrl: front.url, ...options }) };
}

const PASS = { pass: true } as const;

test('429 with Retry-After in seconds: waited for, then the same creation, same Idempotency-Key, succeeds', async () => {
  const { front, client } = await through((_, i) =>
    i === 0 ? { status: 429, headers: { 'retry-after': '1' }, body: errorBody('rate_limited') } : PASS,
  );
  const created = await client.sessions.create({ reference: 'retry-429', cpf: CPF });
  assert.match(created.id, /^ses_/);
  assert.equal(front.seen.length, 2);
  const [first, second] = front.seen as [Seen, Seen];
  assert.ok(second.at - first.at >= 1000, `waited ${second.at - first.at} ms for Retry-After: 1`);
  assert.match(String(first.headers['idempotency-key']), /^[0-9a-f-]{36}$/, 'a UUID, made by the SDK');
  assert.equal(second.headers['idempotency-key'], first.headers['idempotency-key'], 'the same key on every try');
  assert.equal(first.headers.authorization, `Bearer ${API_KEY}`);
  assert.match(String(first.headers['user-agent']), /^onboarding-kit-node\//);
});

test('Retry-After as an HTTP date is honoured too', async () => {
  const session = await new OnboardingClient({ apiKey: API_KEY, baseUrl: stack.url }).sessions.create({ reference: 'retry-date' });
  // HTTP dates have whole seconds: 2 s ahead is at least 1 s away.
  const { front, client } = await through((_, i) =>
    i === 0
      ? { status: 503, headers: { 'retry-after': new Date(Date.now() + 2000).toUTCString() }, body: errorBody('store_unavailable') }
      : PASS,
  );
  const view = await client.sessions.retrieve(session.id);
  assert.equal(view.id, session.id);
  assert.equal(front.seen.length, 2);
  assert.ok(front.seen[1]!.at - front.seen[0]!.at >= 1000, 'waited for the date');
});

test('a creation whose answer is lost (502 after the companion made it): the retry is replayed, not a second session', async () => {
  const { front, client } = await through((_, i) =>
    i === 0 ? { pass: true, answerInstead: { status: 502, body: errorBody('upstream_error') } } : PASS,
  );
  const created = await client.sessions.create({ reference: 'retry-lost-answer', cpf: CPF });
  assert.equal(front.seen.length, 2);
  assert.equal(front.seen[0]!.upstream?.status, 201, 'the companion made it the first time');
  const made = JSON.parse(front.seen[0]!.upstream!.body) as { id: string };
  assert.equal(created.id, made.id, 'the retry got the same session back');
  assert.equal(front.seen[1]!.upstream?.status, 200, 'an idempotent replay');
  const direct = new OnboardingClient({ apiKey: API_KEY, baseUrl: stack.url });
  const listed = await direct.sessions.list({ reference: 'retry-lost-answer' });
  assert.equal(listed.data.length, 1, 'one session, not two');
});

test("the caller's own Idempotency-Key is the one sent on every try", async () => {
  const { front, client } = await through((_, i) => (i < 2 ? { status: 503, headers: { 'retry-after': '0' } } : PASS));
  await client.sessions.create({ reference: 'retry-own-key' }, { idempotencyKey: 'signup-8812-retry' });
  assert.deepEqual(
    front.seen.map((s) => s.headers['idempotency-key']),
    ['signup-8812-retry', 'signup-8812-retry', 'signup-8812-retry'],
  );
});

test('409 idempotency_in_progress is waited for and tried again with the same key', async () => {
  const { front, client } = await through((_, i) =>
    i === 0 ? { status: 409, headers: { 'retry-after': '0' }, body: errorBody('idempotency_in_progress') } : PASS,
  );
  const created = await client.sessions.create({ reference: 'retry-in-progress' });
  assert.match(created.id, /^ses_/);
  assert.equal(front.seen.length, 2);
});

test('retries are bounded by maxRetries; the last answer is the typed error, with its Retry-After', async () => {
  const { front, client } = await through(
    () => ({ status: 503, headers: { 'retry-after': '0', 'x-request-id': 'req-503' }, body: errorBody('busy', 'Busy.') }),
    {
      maxRetries: 2,
    },
  );
  const error = await client.sessions.retrieve('ses_any').catch((e: unknown) => e);
  assert.ok(error instanceof OnboardingApiError);
  assert.equal(error.status, 503);
  assert.equal(error.code, 'busy');
  assert.equal(error.message, 'Busy.');
  assert.equal(error.requestId, 'req-503');
  assert.equal(error.retryAfterS, 0);
  assert.equal(front.seen.length, 3, 'one try and two retries');

  const none = await through(() => ({ status: 500, body: errorBody('internal_error') }), { maxRetries: 0 });
  await assert.rejects(none.client.sessions.retrieve('ses_any'), OnboardingApiError);
  assert.equal(none.front.seen.length, 1);
});

test('exponential backoff without Retry-After: each wait longer than the last, with jitter', async () => {
  const { front, client } = await through((_, i) => (i < 3 ? { status: 500, body: errorBody('internal_error') } : PASS), { maxRetries: 3 });
  const session = await client.sessions.create({ reference: 'retry-backoff' });
  assert.match(session.id, /^ses_/);
  const gaps = front.seen.slice(1).map((s, i) => s.at - front.seen[i]!.at);
  assert.equal(gaps.length, 3);
  // Waits are [250, 500), [500, 1000), [1000, 2000) ms.
  assert.ok(gaps[0]! >= 240 && gaps[1]! >= 490 && gaps[2]! >= 990, `gaps ${gaps.join(', ')}`);
});

test('a Retry-After longer than a minute is not waited for: the error comes at once, saying how long', async () => {
  const { front, client } = await through(() => ({ status: 429, headers: { 'retry-after': '120' }, body: errorBody('rate_limited') }));
  const started = Date.now();
  const error = await client.sessions.create({ reference: 'retry-long' }).catch((e: unknown) => e);
  assert.ok(error instanceof OnboardingApiError);
  assert.equal(error.status, 429);
  assert.equal(error.retryAfterS, 120);
  assert.equal(front.seen.length, 1);
  assert.ok(Date.now() - started < 1000);
});

test('4xx other than 429 are not retried', async () => {
  const { front, client } = await through(() => PASS);
  await assert.rejects(client.sessions.retrieve('ses_missing'), (e: unknown) => e instanceof OnboardingApiError && e.status === 404);
  assert.equal(front.seen.length, 1);
});

test('queries.run (a repeat would run and bill it again): retried on 429 and 503, not on 502 or a dropped connection', async () => {
  const retried = await through((_, i) =>
    i === 0 ? { status: 503, headers: { 'retry-after': '0' }, body: errorBody('upstream_unavailable') } : PASS,
  );
  const pep = await retried.client.queries.run({ service: 'SERVICE_PEP', cpf: CPF });
  assert.equal(pep.kind, 'success');
  assert.equal(retried.front.seen.length, 2);
  assert.equal(retried.front.seen[1]!.headers['idempotency-key'], retried.front.seen[0]!.headers['idempotency-key']);

  const failed = await through(() => ({ status: 502, body: errorBody('upstream_error', 'The verification service failed.') }));
  await assert.rejects(
    failed.client.queries.run({ service: 'SERVICE_PEP', cpf: CPF }),
    (e: unknown) => e instanceof OnboardingApiError && e.code === 'upstream_error',
  );
  assert.equal(failed.front.seen.length, 1);

  const dropped = await through(() => 'drop');
  await assert.rejects(dropped.client.queries.run({ service: 'SERVICE_PEP', cpf: CPF }), (e: unknown) => {
    assert.ok(e instanceof OnboardingConnectionError);
    assert.equal(e instanceof OnboardingTimeoutError, false);
    return true;
  });
  assert.equal(dropped.front.seen.length, 1);
});

test('a dropped connection on a read is retried', async () => {
  const session = await new OnboardingClient({ apiKey: API_KEY, baseUrl: stack.url }).sessions.create({ reference: 'retry-drop' });
  const { front, client } = await through((_, i) => (i === 0 ? 'drop' : PASS));
  const view = await client.sessions.retrieve(session.id);
  assert.equal(view.id, session.id);
  assert.equal(front.seen.length, 2);
});

test('timeout: a companion that never answers fails each try after timeoutMs, then OnboardingTimeoutError', async () => {
  const { front, client } = await through(() => 'hang', { timeoutMs: 300, maxRetries: 1 });
  const started = Date.now();
  const error = await client.sessions.retrieve('ses_slow').catch((e: unknown) => e);
  const took = Date.now() - started;
  assert.ok(error instanceof OnboardingTimeoutError, String(error));
  assert.ok(error instanceof OnboardingConnectionError);
  assert.match(error.message, /GET \/v1\/sessions\/ses_slow: no answer within 300 ms \(2 tries\)/);
  assert.equal(front.seen.length, 2);
  assert.ok(took >= 600 && took < 5000, `took ${took} ms`);

  // A call's own limit wins over the client's.
  const quick = Date.now();
  await assert.rejects(client.sessions.retrieve('ses_slow', { timeoutMs: 100, maxRetries: 0 }), OnboardingTimeoutError);
  assert.ok(Date.now() - quick < 1000);
});

test("a caller's AbortSignal stops the call, its waits included", async () => {
  const { client } = await through(() => ({ status: 503, headers: { 'retry-after': '30' }, body: errorBody('busy') }));
  const controller = new AbortController();
  const call = client.sessions.retrieve('ses_any', { signal: controller.signal });
  setTimeout(() => controller.abort(new Error('caller gave up')), 200);
  await assert.rejects(call, /caller gave up/);
});

test('a companion that cannot be reached: OnboardingConnectionError naming the cause, never the key', async () => {
  const front = await startFront(stack.url, () => PASS);
  const url = front.url;
  await front.close();
  const client = new OnboardingClient({ apiKey: API_KEY, baseUrl: url, maxRetries: 1 });
  const error = await client.sessions.retrieve('ses_any').catch((e: unknown) => e);
  assert.ok(error instanceof OnboardingConnectionError);
  assert.match(error.message, /ECONNREFUSED/);
  assert.equal(`${error.message} ${error.stack}`.includes(API_KEY), false);
});
