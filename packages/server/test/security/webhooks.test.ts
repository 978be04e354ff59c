/**
 * Attack tests of `POST /v1/webhooks` (docs/page-api.md#upstream-webhooks), as an attacker who
 * holds the webhook key, or guesses it, would try them against a real companion on a loopback
 * socket with the sandbox as its upstream: a forged verdict never reaches the store, the page,
 * the backend or the integrator's notification; guessing the key from one address ends in 429;
 * production refuses a short key at start.
 */
import { test, after, before } from 'node:test';
import assert from 'node:assert/strict';
import { request } from 'node:http';
import { createCompanion, CompanionConfigError } from '@onboarding-kit/server';
import type { CreateSessionResponse, SessionView } from '@onboarding-kit/contract';
import { body, IT_WEBHOOK_KEY, openEvents, startStack, TEST_IDENTITIES, waitUntil, type Stack } from '@onboarding-kit/testing/stack';
import { startReceiver, until, type Receiver } from '../helpers/notify-receiver.js';

const API_KEY = 'sk_test_webhook_attack_0123456789abcdef01';
const NOTIFY_SECRET = 'whsec_attack_0123456789abcdef0123456789abcd';
const NAME = 'Maria Silva';

let stack: Stack;
let receiver: Receiver;
before(async () => {
  receiver = await startReceiver(NOTIFY_SECRET);
  stack = await startStack({
    companion: {
      apiKeys: [API_KEY],
      notify: { url: receiver.url, secret: NOTIFY_SECRET },
      // Polling must not be what corrects a forged verdict here: only the webhook's own check may.
      poll: { firstDelayMs: 120_000 },
    },
  });
});
after(async () => {
  await stack.close();
  await receiver.close();
});

/** A POST from a chosen loopback address, so per-address limits can be told apart. */
function postFrom(localAddress: string, path: string, headers: Record<string, string>, payload: string) {
  const url = new URL(path, stack.url);
  return new Promise<{ status: number; headers: Record<string, string | string[] | undefined>; body: string }>((resolve, reject) => {
    const req = request(
      url,
      { method: 'POST', localAddress, headers: { 'content-type': 'application/json', ...headers }, agent: false },
      (res) => {
        let text = '';
        res.setEncoding('utf8');
        res.on('data', (c: string) => (text += c));
        res.on('end', () => resolve({ status: res.statusCode!, headers: res.headers, body: text }));
      },
    );
    req.on('error', reject);
    req.end(payload);
  });
}

const forge = (token: string, status: string, key = IT_WEBHOOK_KEY) =>
  fetch(`${stack.url}/v1/webhooks`, {
    method: 'POST',
    headers: { 'id-service-token': key, 'content-type': 'application/json' },
    body: JSON.stringify({ tokenOnboarding: token, status, fields: {}, services: [] }),
  });

/** A session opened by the backend and used by a page: its id and the onboarding's token and access key. */
async function usedSession(reference: string, cpf: string) {
  const opened = await fetch(`${stack.url}/v1/sessions`, {
    method: 'POST',
    headers: { authorization: `Bearer ${API_KEY}`, 'content-type': 'application/json' },
    body: JSON.stringify({ reference, cpf }),
  });
  assert.equal(opened.status, 201);
  const s = (await opened.json()) as CreateSessionResponse;
  const res = await fetch(`${stack.url}/v1/onboardings`, {
    method: 'POST',
    headers: { authorization: `Bearer ${s.clientSecret}`, 'content-type': 'application/json' },
    body: JSON.stringify(body({ cpf }, { name: NAME })),
  });
  assert.equal(res.status, 201, await res.clone().text());
  const o = (await res.json()) as { tokenOnboarding: string; accessKey: string };
  return { sessionId: s.id, ...o };
}

const backendView = async (id: string) =>
  (await (await fetch(`${stack.url}/v1/sessions/${id}`, { headers: { authorization: `Bearer ${API_KEY}` } })).json()) as SessionView;

const completedFor = (sessionId: string) =>
  receiver.received.filter((r) => r.type === 'session.completed' && (JSON.parse(r.body) as { data: SessionView }).data.id === sessionId);

const logLines = () => stack.logs.map((l) => JSON.parse(l) as Record<string, unknown>);

test('an onboarding the upstream approved, its webhook lost, gets a forged REFUSED with the right key: everyone is told APPROVED', async () => {
  stack.sandbox.setFaults({ dropWebhooks: true });
  try {
    const o = await usedSession('attack-approved', TEST_IDENTITIES.cpfManualReview);
    // The upstream decides; its webhook never arrives.
    await stack.sandbox.decide(o.tokenOnboarding, 'APPROVED');
    const events = await openEvents(stack.url, o.tokenOnboarding, o.accessKey);
    const forged = await forge(o.tokenOnboarding, 'REFUSED');
    assert.equal(forged.status, 200, 'acknowledged like any webhook, so the forger learns nothing');

    await waitUntil(async () => (await stack.app.store.get(o.tokenOnboarding))?.status !== 'IN_PROCESS');
    assert.equal((await stack.app.store.get(o.tokenOnboarding))!.status, 'APPROVED', 'the store holds the upstream verdict');
    assert.deepEqual(
      (await events.untilEnd()).map((e) => e.status),
      ['IN_PROCESS', 'APPROVED'],
      "the page's event stream",
    );
    const page = (await (
      await fetch(`${stack.url}/v1/onboardings/${o.tokenOnboarding}`, { headers: { authorization: `Bearer ${o.accessKey}` } })
    ).json()) as { status: string };
    assert.equal(page.status, 'APPROVED', "the page's read");
    assert.equal((await backendView(o.sessionId)).onboarding?.status, 'APPROVED', 'GET /v1/sessions/{id}');
    await until(() => completedFor(o.sessionId).length > 0, 'session.completed', 10_000);
    const [completed] = completedFor(o.sessionId);
    assert.equal(completed!.verified, true);
    assert.equal(
      (JSON.parse(completed!.body) as { data: SessionView }).data.onboarding?.status,
      'APPROVED',
      "the integrator's notification",
    );

    const warned = logLines().filter((l) => l.msg === 'webhook disagrees with the upstream, not applied');
    assert.equal(warned.length, 1);
    assert.equal(warned[0]!.level, 'warn');
    assert.deepEqual([warned[0]!.tokenOnboarding, warned[0]!.status, warned[0]!.upstream], [o.tokenOnboarding, 'REFUSED', 'APPROVED']);
    const line = JSON.stringify(warned[0]);
    for (const secret of [IT_WEBHOOK_KEY, NAME, TEST_IDENTITIES.cpfManualReview, TEST_IDENTITIES.cpfManualReview.replace(/\D/g, '')])
      assert.ok(!line.includes(secret), 'no key or personal data in the warning');
  } finally {
    stack.sandbox.resetFaults();
  }
});

test('a forged verdict before the upstream decides changes nothing; the upstream decision that follows is applied', async () => {
  const o = await usedSession('attack-early', TEST_IDENTITIES.cpfManualReview);
  for (const status of ['REFUSED', 'ERROR', 'APPROVED', 'IN_PROCESS']) assert.equal((await forge(o.tokenOnboarding, status)).status, 200);
  await waitUntil(
    () =>
      logLines().filter((l) => l.msg === 'webhook disagrees with the upstream, not applied' && l.tokenOnboarding === o.tokenOnboarding)
        .length >= 1,
  );
  // Let every read the forgeries caused finish before looking.
  await new Promise((r) => setTimeout(r, 300));
  const held = (await stack.app.store.get(o.tokenOnboarding))!;
  assert.equal(held.status, 'IN_PROCESS');
  assert.deepEqual(
    held.history.map((h) => h.status),
    ['IN_PROCESS'],
  );
  assert.equal((await backendView(o.sessionId)).status, 'submitted');
  assert.equal(completedFor(o.sessionId).length, 0, 'no session.completed went out');

  // The genuine webhook, checked against the upstream, is applied; the first final status is the upstream's.
  await stack.sandbox.decide(o.tokenOnboarding, 'REFUSED');
  await waitUntil(async () => (await stack.app.store.get(o.tokenOnboarding))!.status === 'REFUSED');
  await until(() => completedFor(o.sessionId).length > 0, 'session.completed', 10_000);
  assert.equal((JSON.parse(completedFor(o.sessionId)[0]!.body) as { data: SessionView }).data.onboarding?.status, 'REFUSED');
});

test('a wrong key repeated from one address gets 429 with Retry-After past the limit; a right key never counts', async () => {
  const o = await usedSession('attack-guess', TEST_IDENTITIES.cpfManualReview);
  const report = JSON.stringify({ tokenOnboarding: o.tokenOnboarding, status: 'IN_PROCESS' });
  // Right keys from an address are never counted against it.
  for (let i = 0; i < 15; i++)
    assert.equal((await postFrom('127.0.0.3', '/v1/webhooks', { 'id-service-token': IT_WEBHOOK_KEY }, report)).status, 200);
  const guesses = [];
  for (let i = 0; i < 12; i++) guesses.push(await postFrom('127.0.0.3', '/v1/webhooks', { 'id-service-token': `guess-${i}` }, report));
  assert.deepEqual(
    guesses.map((g) => g.status),
    [...Array(10).fill(401), 429, 429],
  );
  const limited = guesses.at(-1)!;
  const retryAfter = Number(limited.headers['retry-after']);
  assert.ok(retryAfter >= 1 && retryAfter <= 60, `Retry-After ${String(limited.headers['retry-after'])}`);
  const shape = JSON.parse(limited.body) as { error: { code: string; message: string } };
  assert.equal(shape.error.code, 'rate_limited');
  assert.match(shape.error.message, /try again in \d+ s/);
  // Past the limit even the right key is refused from that address: a 200 would tell the guesser it was right.
  assert.equal((await postFrom('127.0.0.3', '/v1/webhooks', { 'id-service-token': IT_WEBHOOK_KEY }, report)).status, 429);
  // Another address is not affected.
  assert.equal((await postFrom('127.0.0.4', '/v1/webhooks', { 'id-service-token': IT_WEBHOOK_KEY }, report)).status, 200);
  assert.equal((await postFrom('127.0.0.4', '/v1/webhooks', { 'id-service-token': 'guess' }, report)).status, 401);
  const warnings = logLines().filter((l) => l.level === 'warn' && String(l.msg).startsWith('webhook refused'));
  assert.equal(warnings.filter((l) => l.msg === 'webhook refused: missing or wrong id-service-token').length, 11);
  assert.equal(warnings.filter((l) => l.msg === 'webhook refused: too many failed authentications from this address').length, 3);
  assert.ok(!stack.logs.some((l) => l.includes(IT_WEBHOOK_KEY)), 'the key never reaches the log');
});

test('production refuses a webhook key shorter than 32 characters at start, in the companion', async () => {
  const options = {
    baseUrl: 'https://upstream.example',
    client: 'prod-client',
    secret: 'prod-secret',
    environment: 'production' as const,
    apiKeys: [API_KEY],
  };
  assert.throws(
    () => createCompanion({ ...options, webhookKey: 'k'.repeat(16) }),
    (e: unknown) => e instanceof CompanionConfigError && /webhookKey must have at least 32 characters in production/.test(e.message),
  );
  await createCompanion({ ...options, webhookKey: 'k'.repeat(32) }).close();
  // In test the operator's key is taken as it is.
  await createCompanion({ ...options, environment: 'test', webhookKey: 'k'.repeat(16) }).close();

  // npm start's own check of ONBOARDING_WEBHOOK_KEY: test/node/demo-start.test.ts.
});
