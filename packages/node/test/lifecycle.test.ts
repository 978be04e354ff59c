/**
 * The SDK's calls whose routes and members the other parts of issue 30 bring (the agreed shapes:
 * `POST /v1/sessions/{id}/cancel` and `/redact`, the list's cursor and filters, query ids and
 * `GET /v1/queries/{id}`, `environment` on every notification, `upstream` in upstream errors),
 * against a real companion on a loopback socket with a real notification receiver.
 */
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import * as contract from '@onboarding-kit/contract';
import { body, startStack, TEST_IDENTITIES, type Stack } from '@onboarding-kit/testing/stack';
import { NOTIFICATION_TYPES, OnboardingApiError, OnboardingClient, SESSION_STATUSES, type SessionView } from '@onboarding-kit/node';
import { startRawReceiver, type RawReceiver } from './helpers/receiver.js';

const API_KEY = 'sk_test_sdk_lifecycle_0123456789abcdef01234567';
const SECRET = 'whsec_sdk_lifecycle_0123456789abcdef01234567';
const CPF = TEST_IDENTITIES.cpfApproved;

let stack: Stack;
let receiver: RawReceiver;
let client: OnboardingClient;

before(async () => {
  receiver = await startRawReceiver();
  stack = await startStack({ companion: { apiKeys: [API_KEY], notify: { url: receiver.url, secret: SECRET } } });
  client = new OnboardingClient({ apiKey: API_KEY, baseUrl: stack.url });
});
after(async () => {
  await stack.close();
  await receiver.close();
});

const apiError = (status: number, code?: string, field?: string) => (e: unknown) => {
  assert.ok(e instanceof OnboardingApiError, String(e));
  assert.equal(e.status, status, e.message);
  if (code) assert.equal(e.code, code);
  if (field) assert.equal(e.field, field);
  return true;
};

test("the SDK's lists are the contract's", () => {
  assert.deepEqual([...NOTIFICATION_TYPES].sort(), [...contract.NOTIFICATION_TYPES].sort());
  assert.deepEqual([...SESSION_STATUSES].sort(), [...contract.SESSION_STATUSES].sort());
});

test('sessions.cancel: an open session becomes cancelled, idempotently; its page is told 410; session.cancelled goes out', async () => {
  const session = await client.sessions.create({ reference: 'life-cancel', cpf: CPF });
  const cancelled = await client.sessions.cancel(session.id);
  assert.equal(cancelled.id, session.id);
  assert.equal(cancelled.status, 'cancelled');
  const again = await client.sessions.cancel(session.id);
  assert.equal(again.status, 'cancelled');
  assert.equal((await client.sessions.retrieve(session.id)).status, 'cancelled');

  const page = await fetch(`${stack.url}/v1/session`, { headers: { authorization: `Bearer ${session.clientSecret}` } });
  assert.equal(page.status, 410);
  assert.equal(((await page.json()) as { error: { code: string } }).error.code, 'session_cancelled');

  const delivery = await receiver.waitFor((e) => e.type === 'session.cancelled' && e.data.id === session.id);
  const event = await client.notifications.constructEvent(delivery.body, delivery.signature, SECRET);
  assert.equal(event.type, 'session.cancelled');
  assert.equal(event.environment, 'test');
  if (event.type === 'session.cancelled') assert.equal(event.data.status, 'cancelled');
  assert.equal(
    receiver.deliveries.filter((d) => d.body.includes(session.id) && d.body.includes('session.cancelled')).length,
    1,
    'one event',
  );

  await assert.rejects(client.sessions.cancel('ses_nope'), apiError(404, 'not_found'));
});

test('sessions.cancel of a used session is 409', async () => {
  const session = await client.sessions.create({ reference: 'life-cancel-used', cpf: CPF });
  const res = await fetch(`${stack.url}/v1/onboardings`, {
    method: 'POST',
    headers: { authorization: `Bearer ${session.clientSecret}`, 'content-type': 'application/json' },
    body: JSON.stringify(body({ cpf: CPF })),
  });
  assert.equal(res.status, 201);
  await assert.rejects(client.sessions.cancel(session.id), apiError(409));
});

test('sessions.redact: personal data erased, a skeleton kept with redactedAt, idempotent, one session.redacted', async () => {
  const session = await client.sessions.create({
    reference: 'life-redact',
    cpf: CPF,
    name: 'Maria Silva',
    metadata: { email: 'maria@example.com' },
  });
  const redacted = await client.sessions.redact(session.id);
  assert.equal(redacted.id, session.id);
  assert.equal(redacted.reference, 'life-redact');
  assert.equal(redacted.status, 'cancelled', 'an open session is cancelled first');
  assert.match(redacted.redactedAt ?? '', /^\d{4}-\d\d-\d\dT/);
  assert.equal(JSON.stringify(redacted).includes('maria@example.com'), false);

  const again = await client.sessions.redact(session.id);
  assert.equal(again.redactedAt, redacted.redactedAt);
  const read = await client.sessions.retrieve(session.id);
  assert.equal(read.redactedAt, redacted.redactedAt);
  assert.equal(JSON.stringify(read).includes('maria@example.com'), false);

  const delivery = await receiver.waitFor((e) => e.type === 'session.redacted' && e.data.id === session.id);
  const event = await client.notifications.constructEvent(delivery.body, delivery.signature, SECRET);
  assert.equal(event.type, 'session.redacted');
  if (event.type === 'session.redacted') assert.equal(event.data.redactedAt, redacted.redactedAt);
  await new Promise((r) => setTimeout(r, 500));
  assert.equal(
    receiver.deliveries.filter((d) => d.body.includes(session.id) && d.body.includes('session.redacted')).length,
    1,
    'no second event',
  );
});

test('sessions.list: pages with a cursor, filters by status and creation time; listAll walks every page', async () => {
  const reference = `life-list-${Date.now()}`;
  const made: string[] = [];
  const times: string[] = [];
  for (let i = 0; i < 3; i++) {
    made.push((await client.sessions.create({ reference })).id);
    times.push(new Date().toISOString());
    await new Promise((r) => setTimeout(r, 20));
  }
  const newestFirst = [...made].reverse();

  const first = await client.sessions.list({ reference, limit: 2 });
  assert.deepEqual(
    first.data.map((s) => s.id),
    newestFirst.slice(0, 2),
  );
  assert.equal(typeof first.nextCursor, 'string');
  const second = await client.sessions.list({ reference, limit: 2, cursor: first.nextCursor! });
  assert.deepEqual(
    second.data.map((s) => s.id),
    newestFirst.slice(2),
  );
  assert.equal(second.nextCursor, null);

  const walked: SessionView[] = [];
  for await (const s of client.sessions.listAll({ reference, limit: 1 })) walked.push(s);
  assert.deepEqual(
    walked.map((s) => s.id),
    newestFirst,
  );

  await client.sessions.cancel(made[1]!);
  const cancelled = await client.sessions.list({ reference, status: 'cancelled' });
  assert.deepEqual(
    cancelled.data.map((s) => s.id),
    [made[1]],
  );

  const after = await client.sessions.list({ reference, createdAfter: times[0]! });
  assert.deepEqual(
    after.data.map((s) => s.id),
    newestFirst.slice(0, 2),
  );
  const before = await client.sessions.list({ reference, createdBefore: new Date(times[0]!) });
  assert.deepEqual(
    before.data.map((s) => s.id),
    [made[0]],
  );

  const all = await client.sessions.list();
  assert.ok(Array.isArray(all.data) && all.data.length > 0 && all.data.length <= 20);

  await assert.rejects(client.sessions.list({ limit: 0 }), apiError(400, 'invalid_field', 'limit'));
  await assert.rejects(client.sessions.list({ limit: 101 }), apiError(400, 'invalid_field', 'limit'));
  await assert.rejects(client.sessions.list({ status: 'lost' as never }), apiError(400, 'invalid_field', 'status'));
  await assert.rejects(client.sessions.list({ createdAfter: 'yesterday' }), apiError(400, 'invalid_field', 'createdAfter'));
});

test('queries.run answers an id; queries.retrieve reads it back; notify: true sends query.completed naming it', async () => {
  const pep = await client.queries.run({ service: 'SERVICE_PEP', cpf: CPF });
  assert.match(pep.id, /^qry_/);
  const record = await client.queries.retrieve(pep.id);
  assert.equal(record.id, pep.id);
  assert.equal(record.service, 'SERVICE_PEP');
  assert.equal(record.status, 'completed');
  assert.equal(record.result?.kind, 'success');
  await assert.rejects(client.queries.retrieve('qry_nope'), apiError(404, 'not_found'));

  const notified = await client.queries.run({ service: 'SERVICE_PEP', cpf: CPF, notify: true });
  const delivery = await receiver.waitFor((e) => e.type === 'query.completed' && e.data.requestId === notified.id);
  const event = await client.notifications.constructEvent(delivery.body, delivery.signature, SECRET);
  assert.equal(event.environment, 'test');
  if (event.type !== 'query.completed') assert.fail(event.type);
  assert.equal(event.data.requestId, notified.id);
  assert.equal(event.data.service, 'SERVICE_PEP');
  assert.equal(event.data.kind, 'success');
});

test('an upstream failure carries the upstream member: the product inactive is type product', async () => {
  await assert.rejects(client.queries.run({ service: 'SERVICE_PEP', cpf: TEST_IDENTITIES.cpfInactiveProduct }), (e: unknown) => {
    assert.ok(e instanceof OnboardingApiError);
    assert.equal(e.code, 'upstream_error');
    assert.equal(e.upstream?.type, 'product');
    return true;
  });
});
