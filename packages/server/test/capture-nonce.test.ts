/**
 * `POST /v1/session/capture-nonce` (docs/page-api.md#attestation): behind one of the session's page
 * secrets, a fresh 32-byte nonce per capture step, kept on the session; at most
 * `noncesPerSession` per session, even when asked all at once; none for a used or ended session.
 */
import { test, after, before } from 'node:test';
import assert from 'node:assert/strict';
import { CAPTURE_INTEGRITY_LIMITS, type ApiErrorBody, type CaptureNonce, type CreateSessionResponse } from '@onboarding-kit/contract';
import { createJsonLogger, serveCompanion, type CompanionApp } from '@onboarding-kit/server';
import { ManualClock } from '@onboarding-kit/testing/manual-clock';
import { companionOn, IT_CLIENT, IT_SECRET, IT_WEBHOOK_KEY, startStack, type Stack } from '@onboarding-kit/testing/stack';
import { CHECKS_API_KEY, openSession, submit } from './helpers/check-sessions.js';

let stack: Stack;
let app: CompanionApp;
const clock = new ManualClock();
before(async () => {
  stack = await startStack();
  app = companionOn(stack, { apiKeys: [CHECKS_API_KEY], timers: clock }).app;
});
after(async () => {
  await app.close();
  await stack.close();
});

const CPF = '529.982.247-25';
const ask = (secret: string | undefined, payload: unknown = { role: 'selfie' }, on: Pick<CompanionApp, 'request'> = app) =>
  on.request('/v1/session/capture-nonce', {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...(secret && { authorization: `Bearer ${secret}` }) },
    body: typeof payload === 'string' ? payload : JSON.stringify(payload),
  });
const errorOf = async (res: Response) => ((await res.json()) as ApiErrorBody).error;
const issuedOn = async (id: string) => (await app.store.getSession(id))?.captureNonces ?? [];
const session = (reference: string): Promise<CreateSessionResponse> => openSession(app, { reference, cpf: CPF });

test('a nonce per capture step: 32 random bytes in base64url, its role, an hour to live, kept on the session', async () => {
  const s = await session('nonce-issue');
  const answers: CaptureNonce[] = [];
  for (const role of ['documentFront', 'documentBack', 'selfie']) {
    const res = await ask(s.clientSecret, { role });
    assert.equal(res.status, 201);
    assert.equal(res.headers.get('cache-control'), 'no-store');
    const answer = (await res.json()) as CaptureNonce;
    assert.deepEqual(Object.keys(answer).sort(), ['expiresAt', 'nonce', 'role']);
    assert.match(answer.nonce, /^[A-Za-z0-9_-]{43}$/);
    assert.equal(Buffer.from(answer.nonce, 'base64url').length, 32);
    assert.equal(answer.role, role);
    assert.equal(Date.parse(answer.expiresAt), clock.now() + CAPTURE_INTEGRITY_LIMITS.nonceLifetimeMs);
    answers.push(answer);
  }
  assert.equal(new Set(answers.map((a) => a.nonce)).size, 3, 'no two alike');
  const kept = await issuedOn(s.id);
  assert.deepEqual(
    kept.map((n) => [n.nonce, n.role, n.issuedAt]),
    answers.map((a) => [a.nonce, a.role, new Date(clock.now()).toISOString()]),
  );
});

test('a page secret is required; an API key or a made-up secret is not one', async () => {
  for (const secret of [undefined, CHECKS_API_KEY, 'ses_00000000000000000000000000000000_secret_nope']) {
    const res = await ask(secret);
    assert.equal(res.status, 401, String(secret));
    assert.equal((await errorOf(res)).code, 'unauthorized');
  }
});

test('the body is { role } naming a capture step, nothing else', async () => {
  const s = await session('nonce-body');
  const cases: [unknown, number, string, string?][] = [
    [{ role: 'proofOfAddress' }, 400, 'invalid_field', 'role'],
    [{}, 400, 'invalid_field', 'role'],
    [{ role: 'selfie', count: 2 }, 400, 'invalid_field', 'count'],
    [['selfie'], 400, 'invalid_request'],
    ['{"role":', 400, 'invalid_json'],
    [{ role: 'selfie', pad: 'x'.repeat(400) }, 413, 'payload_too_large'],
  ];
  for (const [payload, status, code, field] of cases) {
    const res = await ask(s.clientSecret, payload);
    const error = await errorOf(res);
    assert.deepEqual([res.status, error.code, error.field], [status, code, field], JSON.stringify(payload).slice(0, 60));
  }
  assert.deepEqual(await issuedOn(s.id), [], 'nothing issued for a bad request');
});

test(`at most ${CAPTURE_INTEGRITY_LIMITS.noncesPerSession} per session, the last ones asked at once too; then 429 and nothing issued`, async () => {
  const s = await session('nonce-limit');
  const max = CAPTURE_INTEGRITY_LIMITS.noncesPerSession;
  for (let i = 0; i < max - 2; i++) assert.equal((await ask(s.clientSecret)).status, 201, `nonce ${i + 1}`);
  // Two tabs asking at once for the last ones: the compare-and-set lets exactly two through.
  const answers = await Promise.all(Array.from({ length: 4 }, () => ask(s.clientSecret)));
  const statuses = answers.map((r) => r.status);
  assert.deepEqual(statuses.toSorted(), [201, 201, 429, 429]);
  const refused = answers.find((r) => r.status === 429)!;
  const error = await errorOf(refused);
  assert.equal(error.code, 'rate_limited');
  assert.match(error.message, new RegExp(`${max} capture nonces`));
  assert.equal((await issuedOn(s.id)).length, max);
  assert.equal((await ask(s.clientSecret)).status, 429);
  assert.equal((await issuedOn(s.id)).length, max);
});

test('a session whose onboarding is created: 409 session_used; cancelled or expired: 410', async () => {
  const used = await session('nonce-used');
  await submit(app, used, CPF);
  const usedRes = await ask(used.clientSecret);
  assert.deepEqual([usedRes.status, (await errorOf(usedRes)).code], [409, 'session_used']);

  const cancelled = await session('nonce-cancelled');
  const cancel = await app.request(`/v1/sessions/${cancelled.id}/cancel`, {
    method: 'POST',
    headers: { authorization: `Bearer ${CHECKS_API_KEY}` },
  });
  assert.equal(cancel.status, 200);
  const cancelledRes = await ask(cancelled.clientSecret);
  assert.deepEqual([cancelledRes.status, (await errorOf(cancelledRes)).code], [410, 'session_cancelled']);

  const expiring = await openSession(app, { reference: 'nonce-expired', cpf: CPF, expiresIn: 600 });
  assert.equal((await ask(expiring.clientSecret)).status, 201);
  await clock.advance(601_000);
  const expiredRes = await ask(expiring.clientSecret);
  assert.deepEqual([expiredRes.status, (await errorOf(expiredRes)).code], [410, 'session_expired']);
  assert.equal((await issuedOn(expiring.id)).length, 1, 'nothing issued past the end');
});

test('over a real loopback socket: the same 201 and its nonce on the session', async () => {
  const served = await serveCompanion({
    port: 0,
    host: '127.0.0.1',
    baseUrl: stack.sandboxUrl,
    client: IT_CLIENT,
    secret: IT_SECRET,
    webhookKey: IT_WEBHOOK_KEY,
    apiKeys: [CHECKS_API_KEY],
    rateLimit: 0,
    logger: createJsonLogger({ sink: () => {} }),
  });
  try {
    const s = await openSession(served.app, { reference: 'nonce-socket', cpf: CPF });
    const res = await fetch(`${served.url}/v1/session/capture-nonce`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', authorization: `Bearer ${s.clientSecret}` },
      body: JSON.stringify({ role: 'documentBack' }),
    });
    assert.equal(res.status, 201);
    const answer = (await res.json()) as CaptureNonce;
    assert.equal(answer.role, 'documentBack');
    assert.deepEqual(
      ((await served.app.store.getSession(s.id))?.captureNonces ?? []).map((n) => n.nonce),
      [answer.nonce],
    );
  } finally {
    await served.close();
  }
});
