/**
 * Standalone query requests end to end over real sockets: the companion and the sandbox each on
 * their own port (the sandbox's webhooks to the companion's /v1/webhooks), and a loopback receiver
 * of the companion's signed notifications. A synchronous answer is never sent again unless asked
 * (`notify: true`); an asynchronous inspection sends one `query.completed` when the upstream, read
 * back by its key, says it ended (after its webhook, or by the schedule when the webhook is lost);
 * a forged envelope sends nothing; `GET /v1/queries/{id}` follows the request; retention erases
 * its outcome, then the request.
 */
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import type { NotificationEvent } from '@onboarding-kit/contract';
import { IT_WEBHOOK_KEY, SAMPLE_PNG_BASE64, startStack, type Stack, type StackOptions } from '@onboarding-kit/testing/stack';
import type { Timers } from '../src/relay/timers.js';
import { startReceiver, until, type Receiver } from './helpers/notify-receiver.js';

const API_KEY = 'sk_test_queries_0123456789abcdef0123456789';
const SECRET = 'whsec_test_queries_0123456789abcdef012345';
const CPF = '529.982.247-25';
const INSPECTION = {
  service: 'SERVICE_DIGITAL_DOCUMENTOSCOPY',
  image1: SAMPLE_PNG_BASE64,
  image2: SAMPLE_PNG_BASE64,
  selfie1: SAMPLE_PNG_BASE64,
};
/** Consultations only when a test asks for them: a schedule far away. */
const NO_SCHEDULE = { firstDelayMs: 600_000, everyMs: 600_000 };

type Answer = Record<string, unknown> & { id: string; key?: string; kind: string };
type QueryEvent = NotificationEvent<Record<string, unknown>>;

let receiver: Receiver;
before(async () => {
  receiver = await startReceiver(SECRET);
});
after(() => receiver.close());

const started: Stack[] = [];
after(async () => {
  for (const s of started) await s.close();
});

async function stackWith(over: { companion?: StackOptions['companion']; sandbox?: StackOptions['sandbox'] } = {}): Promise<Stack> {
  const stack = await startStack({
    companion: { apiKeys: [API_KEY], notify: { url: receiver.url, secret: SECRET }, inspectionChecks: NO_SCHEDULE, ...over.companion },
    sandbox: { processingMs: 300, queryWebhookDelayMs: 400, ...over.sandbox },
  });
  started.push(stack);
  return stack;
}

async function call(stack: Stack, method: string, path: string, body?: unknown): Promise<Response> {
  return fetch(`${stack.url}${path}`, {
    method,
    headers: { authorization: `Bearer ${API_KEY}`, 'content-type': 'application/json' },
    ...(body !== undefined && { body: JSON.stringify(body) }),
  });
}

async function query(stack: Stack, body: unknown): Promise<Answer> {
  const res = await call(stack, 'POST', '/v1/queries', body);
  const text = await res.text();
  assert.equal(res.status, 200, text);
  return JSON.parse(text) as Answer;
}

async function read(stack: Stack, id: string): Promise<Record<string, unknown>> {
  const res = await call(stack, 'GET', `/v1/queries/${id}`);
  const text = await res.text();
  assert.equal(res.status, 200, text);
  return JSON.parse(text) as Record<string, unknown>;
}

/** The query.completed events delivered for a request. */
function eventsFor(requestId: string): QueryEvent[] {
  return receiver
    .delivered()
    .map((r) => JSON.parse(r.body) as QueryEvent)
    .filter((e) => e.type === 'query.completed' && e.data.requestId === requestId);
}

/** Every query.completed delivered so far, whatever its request. */
const allQueryEvents = () => receiver.delivered().filter((r) => r.type === 'query.completed').length;

/** The standalone-query webhooks the companion acknowledged so far. */
const envelopeWebhooks = (stack: Stack) => stack.logs.filter((l) => l.includes('webhook acknowledged: standalone query')).length;

async function forge(stack: Stack, body: unknown): Promise<void> {
  const res = await fetch(`${stack.url}/v1/webhooks`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'id-service-token': IT_WEBHOOK_KEY },
    body: JSON.stringify(body),
  });
  assert.equal(res.status, 200, await res.text());
}

/** Long enough for a queued notification to reach the receiver. */
const settle = () => new Promise((r) => setTimeout(r, 500));

describe('synchronous queries', () => {
  let stack: Stack;
  before(async () => {
    stack = await stackWith();
  });

  test('a synchronous answer is not sent again: the upstream webhook that follows it sends nothing', async () => {
    const before = allQueryEvents();
    const webhooks = envelopeWebhooks(stack);
    const answer = await query(stack, { service: 'SERVICE_PEP', cpf: CPF });
    assert.match(answer.id, /^qry_[0-9a-f]{32}$/);
    assert.equal(answer.kind, 'success');
    await until(() => envelopeWebhooks(stack) > webhooks, 'the sandbox webhook of the query', 5_000);
    await settle();
    assert.equal(allQueryEvents(), before, 'no query.completed for an answer the caller has');
    assert.deepEqual(eventsFor(answer.id), []);
    const view = await read(stack, answer.id);
    const { id: _id, ...outcome } = answer;
    assert.deepEqual(view, {
      id: answer.id,
      service: 'SERVICE_PEP',
      status: 'completed',
      createdAt: view.createdAt,
      completedAt: view.createdAt,
      result: outcome,
    });
  });

  test('notify: true sends one query.completed with the answer, and the upstream webhook adds none', async () => {
    const webhooks = envelopeWebhooks(stack);
    const answer = await query(stack, { service: 'SERVICE_PEP', cpf: CPF, notify: true });
    await until(() => eventsFor(answer.id).length > 0, 'query.completed of the notify request', 5_000);
    await until(() => envelopeWebhooks(stack) > webhooks, 'the sandbox webhook of the query', 5_000);
    await settle();
    const events = eventsFor(answer.id);
    assert.equal(events.length, 1);
    const { id: _id, ...outcome } = answer;
    assert.deepEqual(events[0]!.data, { ...outcome, requestId: answer.id, service: 'SERVICE_PEP', status: 'completed' });
    assert.equal(receiver.delivered().find((r) => r.id === events[0]!.id)!.verified, true);
  });
});

describe('asynchronous inspections', () => {
  test('one query.completed once the upstream says the inspection ended, with requestId, service and key; pending until then', async () => {
    const stack = await stackWith();
    const answer = await query(stack, INSPECTION);
    assert.match(answer.key!, /^[0-9a-f-]{36}$/);
    assert.equal((answer.result as { status: string }).status, 'IN_PROCESS');
    const pending = await read(stack, answer.id);
    assert.deepEqual(pending, {
      id: answer.id,
      service: INSPECTION.service,
      status: 'pending',
      createdAt: pending.createdAt,
      key: answer.key,
    });

    await until(() => eventsFor(answer.id).length > 0, 'query.completed of the inspection', 8_000);
    const [event] = eventsFor(answer.id);
    assert.equal(event!.data.requestId, answer.id);
    assert.equal(event!.data.service, INSPECTION.service);
    assert.equal(event!.data.key, answer.key);
    assert.equal(event!.data.status, 'completed');
    assert.equal((event!.data.result as { status: string }).status, 'APPROVED', 'the consultation, not the webhook, made the outcome');
    assert.ok(stack.upstreamCalls.some((c) => (c.body as { service?: string }).service === 'SERVICE_DIGITAL_DOCUMENTOSCOPY_CONSULT'));

    const done = await read(stack, answer.id);
    assert.equal(done.status, 'completed');
    assert.equal(typeof done.completedAt, 'string');
    assert.deepEqual(done.result, event!.data.result === undefined ? undefined : { ...pick(event!.data), key: answer.key });

    // The upstream repeating itself, or anyone repeating its envelope, sends nothing more.
    await forge(stack, { status: { code: 200, message: 'Success' }, result: { key: answer.key, status: 'APPROVED' } });
    await settle();
    assert.equal(eventsFor(answer.id).length, 1, 'once per request');
  });

  test('forged envelopes with the right webhook key: an unknown key, or a finish the upstream contradicts, send nothing', async () => {
    // The sandbox's clock stands still: the inspection runs until the test moves it; its own webhook comes late.
    let sandboxNow = Date.now();
    const clock: NonNullable<NonNullable<StackOptions['sandbox']>['clock']> = {
      now: () => sandboxNow,
      setTimeout: (fn, ms) => setTimeout(fn, ms),
      clearTimeout: (h) => clearTimeout(h as never),
    };
    const stack = await stackWith({ sandbox: { clock, queryWebhookDelayMs: 600_000 } });
    const before = allQueryEvents();
    await forge(stack, {
      status: { code: 200, message: 'Success' },
      result: { key: '0a0b0c0d-1111-4222-8333-444455556666', status: 'APPROVED', documentData: { name: 'X', cpf: '52998224725' } },
    });
    const answer = await query(stack, INSPECTION);
    const claimsApproved = {
      status: { code: 200, message: 'Success' },
      result: { key: answer.key, status: 'APPROVED', documentData: { name: 'Forged', cpf: '52998224725' } },
    };
    await forge(stack, claimsApproved);
    await until(() => stack.logs.some((l) => l.includes('webhook not confirmed')), 'the consultation the forged webhook caused', 5_000);
    await settle();
    assert.equal(allQueryEvents(), before, 'nothing sent');
    assert.equal((await read(stack, answer.id)).status, 'pending', 'the request is still pending');
    assert.ok(stack.logs.some((l) => l.includes('no query request has this inspection key')));

    // The inspection really ends: the same hint then finds the upstream agreeing.
    sandboxNow += 1_000;
    await forge(stack, claimsApproved);
    await until(() => eventsFor(answer.id).length > 0, 'query.completed after the inspection ended', 5_000);
    const [event] = eventsFor(answer.id);
    assert.notEqual((event!.data.result as { documentData?: unknown }).documentData, claimsApproved.result.documentData);
    assert.equal((event!.data.result as { status: string }).status, 'APPROVED');
    assert.equal((await read(stack, answer.id)).status, 'completed');
  });

  test('a lost webhook: the schedule consults the pending inspection and sends its one query.completed', async () => {
    const stack = await stackWith({
      companion: { inspectionChecks: { firstDelayMs: 100, maxDelayMs: 200, everyMs: 100 } },
      sandbox: { queryWebhookDelayMs: 600_000 },
    });
    const answer = await query(stack, INSPECTION);
    await until(() => eventsFor(answer.id).length > 0, 'query.completed by the schedule', 8_000);
    await settle();
    assert.equal(eventsFor(answer.id).length, 1);
    assert.equal(eventsFor(answer.id)[0]!.data.key, answer.key);
    assert.equal(envelopeWebhooks(stack), 0, 'no webhook took part');
  });
});

test('retention: the outcome is erased 24 h after the request ended, the request deleted 48 h after its creation', async () => {
  let offset = 0;
  const timers: Timers = {
    now: () => Date.now() + offset,
    setTimeout(fn, ms) {
      const t = setTimeout(fn, ms);
      t.unref();
      return t;
    },
    clearTimeout: (h) => clearTimeout(h as ReturnType<typeof setTimeout>),
  };
  const stack = await stackWith({ companion: { timers, inspectionChecks: { firstDelayMs: 100, everyMs: 100 } } });
  const answer = await query(stack, { service: 'SERVICE_PEP', cpf: CPF });
  assert.ok((await read(stack, answer.id)).result);
  offset += 24 * 3_600_000 + 1_000;
  await until(async () => (await read(stack, answer.id)).result === undefined, 'the outcome erased', 5_000);
  const erased = await read(stack, answer.id);
  assert.equal(erased.status, 'completed');
  assert.equal(typeof erased.resultErasedAt, 'string');
  offset += 24 * 3_600_000;
  await until(async () => (await call(stack, 'GET', `/v1/queries/${answer.id}`)).status === 404, 'the request deleted', 5_000);
});

/** An event's outcome members, without the request's own. */
function pick(data: Record<string, unknown>): Record<string, unknown> {
  const { requestId: _r, service: _s, status: _st, key: _k, ...outcome } = data;
  return outcome;
}
