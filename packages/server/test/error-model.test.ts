/**
 * The one error model (docs/page-api.md#error-shape): the page, webhook and admin routes of one
 * companion answer every refusal and every unexpected failure with the same shape, a real status,
 * `Cache-Control: no-store`, and nothing of what went wrong inside.
 */
import { test, after, before } from 'node:test';
import assert from 'node:assert/strict';
import { API_PREFIX, maxCreateBodyBytes } from '@onboarding-kit/contract';
import { CompanionError, MemoryStore, type CompanionApp } from '@onboarding-kit/server';
import { companionOn, IT_SECRET, startStack, type Stack } from '@onboarding-kit/testing/stack';
import { createBody } from './helpers/fixtures.js';
import { created, postJson, webhook, WEBHOOK_KEY } from './helpers/companion.js';
import { StoreUnavailableError } from '../src/store/errors.js';

const ADMIN_KEY = 'admin-key-for-the-error-model-0123';
const admin = { authorization: `Bearer ${ADMIN_KEY}` };
const IMAGE_MAX_BYTES = 1024;

// The onboardings these tests need are created in the sandbox; the test drives statuses through webhooks.
let stack: Stack;
let app: CompanionApp;
let logs: string[];
const testCompanion = (over: Parameters<typeof companionOn>[1] = {}) =>
  companionOn(stack, { webhookKey: WEBHOOK_KEY, poll: { firstDelayMs: 60_000 }, ...over });
before(async () => {
  stack = await startStack();
  ({ app, logs } = testCompanion({ adminKey: ADMIN_KEY, imageMaxBytes: IMAGE_MAX_BYTES }));
});
after(async () => {
  await app.close();
  await stack.close();
});

/** Checks the one shape and returns its `error` member. */
async function expectShape(res: Response, status: number, code: string): Promise<Record<string, unknown>> {
  const text = await res.text();
  assert.equal(res.status, status, text);
  assert.match(res.headers.get('content-type') ?? '', /^application\/json/);
  assert.equal(res.headers.get('cache-control'), 'no-store');
  const body = JSON.parse(text) as { error: Record<string, unknown> };
  assert.deepEqual(Object.keys(body), ['error']);
  assert.equal(body.error.code, code);
  assert.equal(typeof body.error.message, 'string');
  for (const key of Object.keys(body.error))
    assert.ok(['code', 'message', 'field', 'externalId'].includes(key), `unexpected member ${key}`);
  for (const secret of [IT_SECRET, WEBHOOK_KEY, ADMIN_KEY, stack.sandboxUrl]) assert.ok(!text.includes(secret), `the body leaks ${secret}`);
  return body.error;
}

const v1 = (path: string) => `${API_PREFIX}${path}`;

test('page routes: 400, 404, 413, 415 in the shape', async () => {
  await expectShape(await postJson(app, v1('/onboardings'), '{"cpf": '), 400, 'invalid_json');
  const field = await expectShape(await postJson(app, v1('/onboardings'), createBody({ cpf: '529.982.247-24' })), 400, 'invalid_cpf');
  assert.equal(field.field, 'cpf');
  await expectShape(await app.request(v1('/onboardings/no-such-token')), 404, 'not_found');
  await expectShape(await app.request(v1('/no-such-route')), 404, 'not_found');
  const huge = JSON.stringify({ padding: 'x'.repeat(maxCreateBodyBytes(IMAGE_MAX_BYTES) + 1) });
  await expectShape(await postJson(app, v1('/onboardings'), huge), 413, 'payload_too_large');
  const plain = await app.request(v1('/onboardings'), {
    method: 'POST',
    headers: { 'content-type': 'text/plain' },
    body: JSON.stringify(createBody()),
  });
  await expectShape(plain, 415, 'unsupported_media_type');
});

test('page routes: 429 in the shape, with Retry-After', async () => {
  const limited = testCompanion({ rateLimit: 1 });
  await created(limited.app, createBody());
  const res = await postJson(limited.app, v1('/onboardings'), createBody());
  assert.match(res.headers.get('retry-after') ?? '', /^\d+$/);
  await expectShape(res, 429, 'rate_limited');
  await limited.app.close();
});

test('webhook route: 400, 401, 404, 413 in the shape; any content type is read', async () => {
  await expectShape(await webhook(app, { tokenOnboarding: 't', status: 'APPROVED' }, null), 401, 'unauthorized');
  await expectShape(await webhook(app, { tokenOnboarding: 't', status: 'APPROVED' }, 'wrong-key'), 401, 'unauthorized');
  await expectShape(await webhook(app, '{"tokenOnboarding": '), 400, 'invalid_json');
  await expectShape(await webhook(app, { hello: 1 }), 400, 'invalid_request');
  await expectShape(await webhook(app, { padding: 'x'.repeat(2 * 1024 * 1024) }), 413, 'payload_too_large');
  await expectShape(await app.request(v1('/webhooks'), { headers: { 'id-service-token': WEBHOOK_KEY } }), 404, 'not_found');
  // The upstream promises a JSON body, not a content type: a webhook is never refused with 415.
  const o = await created(app, createBody());
  const typed = await app.request(v1('/webhooks'), {
    method: 'POST',
    headers: { 'content-type': 'text/plain', 'id-service-token': WEBHOOK_KEY },
    body: JSON.stringify({ tokenOnboarding: o.tokenOnboarding, status: 'REFUSED' }),
  });
  assert.equal(typed.status, 200);
  // Read and recognised: the report went to its branch (a hint checked against the upstream).
  assert.ok(
    logs.some((l) => l.includes('webhook acknowledged: reading the report from the upstream') && l.includes(o.tokenOnboarding)),
    'the text/plain body was read as a report',
  );
});

test('admin routes: 400, 401, 404, 413 in the same shape as the page routes', async () => {
  const denied = await app.request(v1('/admin/onboardings/x'));
  assert.match(denied.headers.get('www-authenticate') ?? '', /^Bearer/);
  await expectShape(denied, 401, 'unauthorized');
  await expectShape(await app.request(v1('/admin/no-such-route')), 401, 'unauthorized');
  await expectShape(await app.request(v1('/admin/no-such-route'), { headers: admin }), 404, 'not_found');
  await expectShape(await app.request(v1('/admin/onboardings/no-such-token'), { headers: admin }), 404, 'not_found');
  const missing = await expectShape(await app.request(v1('/admin/customers'), { headers: admin }), 400, 'missing_tax_id');
  assert.equal(missing.field, 'documentKey');
  const o = await created(app, createBody());
  const evidence = v1(`/admin/onboardings/${o.tokenOnboarding}/evidence`);
  await expectShape(await postJson(app, evidence, '{"password": ', admin), 400, 'invalid_json');
  const password = await expectShape(await postJson(app, evidence, { password: 'short' }, admin), 400, 'invalid_password');
  assert.equal(password.field, 'password');
  await expectShape(await postJson(app, evidence, { password: 'x'.repeat(9000) }, admin), 413, 'payload_too_large');

  // Same code, same members, same headers as the page's answer for the same failure.
  const page = await expectShape(await app.request(v1('/onboardings/no-such-token')), 404, 'not_found');
  const operator = await expectShape(await app.request(v1('/admin/onboardings/no-such-token'), { headers: admin }), 404, 'not_found');
  assert.deepEqual(Object.keys(operator), Object.keys(page));
});

test('an unexpected error in any route family is a 500 internal_error naming only the request id', async () => {
  const leak = `store password ${IT_SECRET} at redis://10.0.0.5`;
  const store = new MemoryStore();
  const failing = testCompanion({ adminKey: ADMIN_KEY, store });
  const o = await created(failing.app, createBody());
  store.get = async () => {
    throw new Error(leak);
  };
  store.applyStatus = async () => {
    throw new Error(leak);
  };
  const calls: [string, Promise<Response>][] = [
    [
      'page',
      Promise.resolve(
        failing.app.request(v1(`/onboardings/${o.tokenOnboarding}`), {
          headers: { authorization: `Bearer ${o.accessKey}`, 'x-request-id': 'req-page' },
        }),
      ),
    ],
    [
      'webhook',
      Promise.resolve(
        failing.app.request(v1('/webhooks'), {
          method: 'POST',
          headers: { 'content-type': 'application/json', 'id-service-token': WEBHOOK_KEY, 'x-request-id': 'req-webhook' },
          body: JSON.stringify({ tokenOnboarding: o.tokenOnboarding, status: 'APPROVED' }),
        }),
      ),
    ],
    [
      'admin',
      Promise.resolve(
        failing.app.request(v1(`/admin/onboardings/${o.tokenOnboarding}`), { headers: { ...admin, 'x-request-id': 'req-admin' } }),
      ),
    ],
  ];
  for (const [family, call] of calls) {
    const res = await call;
    const error = await expectShape(res, 500, 'internal_error');
    assert.equal(error.message, `Internal error; quote request id req-${family} to support.`, family);
    assert.ok(!JSON.stringify(error).includes('redis'), `${family}: the cause stays out of the body`);
  }
  const unexpected = failing.logs.filter((l) => l.includes('unexpected error'));
  assert.equal(unexpected.length, 3, 'each cause is logged once');
  for (const id of ['req-page', 'req-webhook', 'req-admin'])
    assert.ok(
      unexpected.some((l) => l.includes(id)),
      `logged with ${id}`,
    );
  assert.ok(!failing.logs.some((l) => l.includes(IT_SECRET)), 'the log is redacted');
  await failing.app.close();
});

test('a store that does not answer is a 503 store_unavailable with Retry-After in every route family', async () => {
  const store = new MemoryStore();
  const failing = testCompanion({ adminKey: ADMIN_KEY, store });
  const o = await created(failing.app, createBody());
  const down = async (): Promise<never> => {
    throw new StoreUnavailableError('redis://10.0.0.5:6379 refused the connection');
  };
  store.get = down;
  store.applyStatus = down;
  for (const res of [
    await failing.app.request(v1(`/onboardings/${o.tokenOnboarding}`), { headers: { authorization: `Bearer ${o.accessKey}` } }),
    await webhook(failing.app, { tokenOnboarding: o.tokenOnboarding, status: 'APPROVED' }),
    await failing.app.request(v1(`/admin/onboardings/${o.tokenOnboarding}`), { headers: admin }),
  ]) {
    assert.equal(res.headers.get('retry-after'), '5');
    const error = await expectShape(res, 503, 'store_unavailable');
    assert.ok(!String(error.message).includes('redis'));
  }
  assert.ok(!failing.logs.some((l) => l.includes('unexpected error')), 'an unreachable store is no bug');
  await failing.app.close();
});

test('a creation whose store fails after the upstream created it answers 503 and logs the orphaned token', async () => {
  const store = new MemoryStore();
  const failing = testCompanion({ store });
  store.create = async (): Promise<never> => {
    throw new StoreUnavailableError('the store timed out');
  };
  const res = await failing.app.request(v1('/onboardings'), {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(createBody()),
  });
  await expectShape(res, 503, 'store_unavailable');
  const orphan = failing.logs.find((l) => l.includes('onboarding created upstream but not stored'));
  assert.ok(orphan, 'the operator can find the orphan');
  assert.match(orphan, /"tokenOnboarding":"[0-9a-f-]{36}"/);
  await failing.app.close();
});

test('a CompanionError renders the same shape under a host with its own (default) error handler', async () => {
  const error = new CompanionError(503, 'upstream_unavailable', 'Try again shortly.', {
    externalId: 'ext-1',
    headers: { 'Retry-After': '5' },
    cause: new Error(IT_SECRET),
  });
  const res = error.getResponse();
  assert.equal(res.headers.get('retry-after'), '5');
  assert.deepEqual(await expectShape(res, 503, 'upstream_unavailable'), {
    code: 'upstream_unavailable',
    message: 'Try again shortly.',
    externalId: 'ext-1',
  });
});

test('the log of the shared companion holds no secret either', () => {
  assert.ok(!logs.some((l) => l.includes(IT_SECRET) || l.includes(ADMIN_KEY)));
});
