/**
 * Session events reach the integrator's receiver (docs/backend-api.md#notifications): a real
 * receiver on a loopback socket, verifying every signature with `verifyNotification`, gets
 * `session.submitted` and `session.completed` for a session a page used, and `session.expired`
 * for one nobody touched after it expired. The sandbox plays the upstream over HTTP.
 */
import { test, after, before } from 'node:test';
import assert from 'node:assert/strict';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { companionOn, body, startStack, type Stack } from '@onboarding-kit/testing/stack';
import { verifyNotification, type CompanionApp } from '@onboarding-kit/server';
import type { CreateSessionResponse, NotificationEvent, SessionView } from '@onboarding-kit/contract';
import type { Timers } from '../src/relay/timers.js';
import { until } from './helpers/notify-receiver.js';

const API_KEY = 'sk_test_notify_0123456789abcdef0123456789';
const SECRET = 'whsec_test_0123456789abcdef0123456789abcdef';
const CPF_APPROVED = '529.982.247-25';

interface Received {
  event: NotificationEvent<SessionView>;
  verified: boolean;
}

let stack: Stack;
let receiver: Server;
let receiverUrl: string;
const received: Received[] = [];

before(async () => {
  stack = await startStack();
  receiver = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const raw = Buffer.concat(chunks);
      if (req.url === '/always-500') {
        res.writeHead(500).end('no');
        return;
      }
      void verifyNotification(new Uint8Array(raw), req.headers['onboarding-signature'] as string | undefined, SECRET).then((verified) => {
        received.push({ event: JSON.parse(raw.toString('utf8')) as NotificationEvent<SessionView>, verified });
        res.writeHead(verified ? 200 : 400).end();
      });
    });
  });
  await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve));
  receiverUrl = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/kyc-events`;
});
after(async () => {
  await stack.close();
  await new Promise((resolve) => receiver.close(resolve));
});

/** Real timers whose clock can be moved forward (setTimeout keeps real durations). */
function shiftableTimers(): Timers & { shift(ms: number): void } {
  let offset = 0;
  return {
    now: () => Date.now() + offset,
    setTimeout(fn, ms) {
      const t = setTimeout(fn, ms);
      t.unref();
      return t;
    },
    clearTimeout: (h) => clearTimeout(h as ReturnType<typeof setTimeout>),
    shift(ms) {
      offset += ms;
    },
  };
}

function companion(timers?: Timers): CompanionApp {
  return companionOn(stack, { apiKeys: [API_KEY], notify: { url: receiverUrl, secret: SECRET }, ...(timers && { timers }) }).app;
}

async function open(app: CompanionApp, payload: Record<string, unknown>): Promise<CreateSessionResponse> {
  const res = await app.request('/v1/sessions', {
    method: 'POST',
    headers: { authorization: `Bearer ${API_KEY}`, 'content-type': 'application/json' },
    body: JSON.stringify(payload),
  });
  assert.equal(res.status, 201);
  return (await res.json()) as CreateSessionResponse;
}

async function eventFor(sessionId: string, type: string, timeoutMs = 25_000): Promise<Received> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const found = received.find((r) => r.event.type === type && r.event.data.id === sessionId);
    if (found) return found;
    if (Date.now() > deadline)
      throw new Error(`no ${type} for ${sessionId}; got ${received.map((r) => `${r.event.type}:${r.event.data.id}`).join(', ')}`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

test('a used session: session.submitted, then session.completed with the outcome, each signed and sent once', async () => {
  const app = companion();
  const s = await open(app, { reference: 'user-notify', cpf: CPF_APPROVED, metadata: { plan: 'gold' } });
  const res = await app.request('/v1/onboardings', {
    method: 'POST',
    headers: { authorization: `Bearer ${s.clientSecret}`, 'content-type': 'application/json', 'idempotency-key': 'n-1' },
    body: JSON.stringify(body({ cpf: CPF_APPROVED })),
  });
  assert.equal(res.status, 201);
  const { tokenOnboarding } = (await res.json()) as { tokenOnboarding: string };

  const submitted = await eventFor(s.id, 'session.submitted');
  assert.equal(submitted.verified, true);
  assert.match(submitted.event.id, /^evt_/);
  assert.equal(submitted.event.data.status, 'submitted');
  assert.equal(submitted.event.data.onboarding?.tokenOnboarding, tokenOnboarding);
  assert.deepEqual(submitted.event.data.metadata, { plan: 'gold' });

  // This companion is not the stack's webhook target: the outcome comes by polling.
  const completed = await eventFor(s.id, 'session.completed');
  assert.equal(completed.verified, true);
  assert.equal(completed.event.data.status, 'completed');
  assert.equal(completed.event.data.onboarding?.status, 'APPROVED');
  assert.ok(received.indexOf(submitted) < received.indexOf(completed), 'in order');

  const view = (await (
    await app.request(`/v1/sessions/${s.id}`, { headers: { authorization: `Bearer ${API_KEY}` } })
  ).json()) as SessionView;
  assert.equal(view.status, 'completed');
  assert.equal(view.onboarding?.status, completed.event.data.onboarding?.status);
  // Events are not repeated once delivered: the outbox holds this session's two, both delivered, none left to send.
  const outbox = async (state: string) => {
    const res = await app.request(`/v1/admin/notifications?state=${state}&limit=200`, { headers: { authorization: `Bearer ${API_KEY}` } });
    return ((await res.json()) as { data: { orderKey: string; type: string }[] }).data
      .filter((e) => e.orderKey === s.id)
      .map((e) => e.type)
      .sort();
  };
  await until(async () => (await outbox('delivered')).length === 2, 'both recorded as delivered', 25_000);
  assert.deepEqual(await outbox('delivered'), ['session.completed', 'session.submitted']);
  assert.deepEqual(await outbox('pending'), []);
  assert.equal(received.filter((r) => r.event.data.id === s.id).length, 2);
  assert.ok(!JSON.stringify(received.filter((r) => r.event.data.id === s.id)).includes(s.clientSecret), 'no secret in any event');
  await app.close();
});

test('an open session past expiresAt with no request: expired by the sweep, and session.expired goes out', async () => {
  const timers = shiftableTimers();
  const app = companion(timers);
  const s = await open(app, { reference: 'user-expiring', expiresIn: 60 });
  timers.shift(61_000);
  const expired = await eventFor(s.id, 'session.expired');
  assert.equal(expired.verified, true);
  assert.equal(expired.event.data.status, 'expired');
  assert.equal(expired.event.data.onboarding, undefined);
  const stored = await app.store.getSession(s.id);
  assert.equal(stored?.status, 'expired', 'stored as expired, not only shown so');
  assert.ok(stored?.endedAt);
  await app.close();
});

test('a receiver that fails: the delivery is listed as failing on the admin routes (API key only) and can be replayed', async () => {
  const { app } = companionOn(stack, {
    apiKeys: [API_KEY],
    notify: { url: receiverUrl.replace('/kyc-events', '/always-500'), secret: SECRET },
  });
  const s = await open(app, { reference: 'user-failing', cpf: CPF_APPROVED });
  const res = await app.request('/v1/onboardings', {
    method: 'POST',
    headers: { authorization: `Bearer ${s.clientSecret}`, 'content-type': 'application/json' },
    body: JSON.stringify(body({ cpf: CPF_APPROVED })),
  });
  assert.equal(res.status, 201);
  let failing: { id: string; type: string; attempts: number; lastError: string | null }[] = [];
  const deadline = Date.now() + 20_000;
  while (failing.length === 0 && Date.now() < deadline) {
    await new Promise((r) => setTimeout(r, 200));
    const list = await app.request('/v1/admin/notifications?state=failing', { headers: { authorization: `Bearer ${API_KEY}` } });
    assert.equal(list.status, 200);
    failing = ((await list.json()) as { data: typeof failing }).data;
  }
  const entry = failing.find((f) => f.type === 'session.submitted');
  assert.ok(entry, 'session.submitted is failing');
  assert.ok(entry.attempts >= 1);
  assert.equal(entry.lastError, 'HTTP 500');
  assert.equal(
    (await app.request('/v1/admin/notifications', { headers: { authorization: `Bearer ${s.clientSecret}` } })).status,
    401,
    'a page secret opens no admin route',
  );
  const replay = await app.request(`/v1/admin/notifications/${entry.id}/replay`, {
    method: 'POST',
    headers: { authorization: `Bearer ${API_KEY}` },
  });
  assert.equal(replay.status, 202);
  const unknown = await app.request('/v1/admin/notifications/evt_nope/replay', {
    method: 'POST',
    headers: { authorization: `Bearer ${API_KEY}` },
  });
  assert.equal(unknown.status, 404);
  await app.close();
});
