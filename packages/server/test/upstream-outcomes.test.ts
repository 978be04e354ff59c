/**
 * Outcomes a backend can act on (docs/page-api.md#upstream-failures, docs/backend-api.md#notifications):
 * a real companion on a loopback socket, the sandbox playing the upstream over HTTP, a real receiver
 * verifying every notification.
 *
 * - `upstream_*` answers carry `upstream: {type, status?, code?, message?}`: the backend's and the
 *   operator's routes with what the upstream answered, a page with the type alone; the log names the
 *   upstream's status and code at warn.
 * - A session's view and its notifications carry the report's `services` as the upstream sent it and
 *   the photos kept anyway; every notification names the companion's environment.
 */
import { test, after, before } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createCompanion, createJsonLogger, listen, SqliteStore } from '@onboarding-kit/server';
import { body, IT_CLIENT, IT_SECRET, startStack, TEST_IDENTITIES, type Stack } from '@onboarding-kit/testing/stack';
import type { ApiErrorBody, CreateSessionResponse, NotificationEvent, SessionView, UpstreamFailure } from '@onboarding-kit/contract';
import { startReceiver, until, type Receiver } from './helpers/notify-receiver.js';

const API_KEY = 'sk_test_outcomes_0123456789abcdef012345';
const NOTIFY_SECRET = 'whsec_outcomes_0123456789abcdef0123456789';
const WRONG_SECRET = 'wrong-secret-9a8b7c6d5e4f';

let stack: Stack;
let receiver: Receiver;

before(async () => {
  receiver = await startReceiver(NOTIFY_SECRET);
  stack = await startStack({ companion: { apiKeys: [API_KEY], notify: { url: receiver.url, secret: NOTIFY_SECRET } } });
});
after(async () => {
  await stack.close();
  await receiver.close();
});

function call(base: string, path: string, init: { method?: string; body?: unknown; key?: string | null } = {}): Promise<Response> {
  const headers: Record<string, string> = {};
  if (init.key !== null) headers.authorization = `Bearer ${init.key ?? API_KEY}`;
  if (init.body !== undefined) headers['content-type'] = 'application/json';
  return fetch(`${base}${path}`, {
    method: init.method ?? (init.body === undefined ? 'GET' : 'POST'),
    headers,
    ...(init.body !== undefined && { body: JSON.stringify(init.body) }),
  });
}

async function upstreamError(res: Response, status: number, code: string): Promise<ApiErrorBody['error'] & { upstream: UpstreamFailure }> {
  const text = await res.text();
  assert.equal(res.status, status, text);
  for (const secret of [IT_SECRET, WRONG_SECRET, API_KEY]) assert.ok(!text.includes(secret), `a secret in ${text}`);
  const error = (JSON.parse(text) as ApiErrorBody).error;
  assert.equal(error.code, code, text);
  assert.ok(error.upstream, `no upstream member: ${text}`);
  return error as ApiErrorBody['error'] & { upstream: UpstreamFailure };
}

/** Log lines logged while `run` ran, parsed. */
async function loggedDuring(logs: string[], run: () => Promise<void>): Promise<Record<string, unknown>[]> {
  const from = logs.length;
  await run();
  return logs.slice(from).map((l) => JSON.parse(l) as Record<string, unknown>);
}

test('product inactive: a query is 502 upstream_error of type product with the upstream code and message, logged at warn', async () => {
  const lines = await loggedDuring(stack.logs, async () => {
    const error = await upstreamError(
      await call(stack.url, '/v1/queries', { body: { service: 'SERVICE_PEP', cpf: TEST_IDENTITIES.cpfInactiveProduct } }),
      502,
      'upstream_error',
    );
    assert.equal(error.upstream.type, 'product');
    assert.equal(error.upstream.code, '401');
    assert.equal(error.upstream.message, 'Produto inativo ou não encontrado');
    assert.match(error.message, /product/);
  });
  const warn = lines.find((l) => l.msg === 'upstream failure');
  assert.ok(warn, 'an upstream failure line');
  assert.equal(warn.level, 'warn');
  assert.equal(warn.upstreamCode, 401);
  assert.equal(warn.upstreamType, 'product');
  assert.equal(warn.code, 'upstream_error');
});

test('a 403 of the customer lookup is 502 upstream_error of type permission with the upstream status, code and message', async () => {
  const lines = await loggedDuring(stack.logs, async () => {
    const error = await upstreamError(
      await call(stack.url, `/v1/admin/customers?documentKey=${encodeURIComponent(TEST_IDENTITIES.cpfForbidden)}`),
      502,
      'upstream_error',
    );
    assert.deepEqual(error.upstream, { type: 'permission', status: 403, code: '403', message: 'Forbidden' });
  });
  const warn = lines.find((l) => l.msg === 'upstream failure');
  assert.equal(warn?.level, 'warn');
  assert.equal(warn?.upstreamStatus, 403);
});

test('an upstream technical failure (in-body 500) is of type unavailable', async () => {
  stack.sandbox.setFaults({ errorRate: 1 });
  try {
    const error = await upstreamError(
      await call(stack.url, '/v1/queries', { body: { service: 'SERVICE_PEP', cpf: TEST_IDENTITIES.cpfApproved } }),
      502,
      'upstream_error',
    );
    assert.equal(error.upstream.type, 'unavailable');
    assert.equal(error.upstream.code, '500');
    assert.equal(error.upstream.message, 'Falha ao realizar consulta');
    assert.ok(error.externalId);
  } finally {
    stack.sandbox.resetFaults();
  }
});

test('a page gets the type alone: a creation refused with 403 upstream', async () => {
  const res = await fetch(`${stack.url}/v1/onboardings`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(body({ cpf: TEST_IDENTITIES.cpfForbidden })),
  });
  const error = await upstreamError(res, 502, 'upstream_error');
  assert.deepEqual(error.upstream, { type: 'permission' });
});

test('wrong credentials: type credentials, the token endpoint status and message for the backend, the type alone for a page, no secret anywhere', async () => {
  const wrong = await startStack({ companion: { apiKeys: [API_KEY], secret: WRONG_SECRET } });
  try {
    const query = await upstreamError(
      await call(wrong.url, '/v1/queries', { body: { service: 'SERVICE_PEP', cpf: TEST_IDENTITIES.cpfApproved } }),
      502,
      'upstream_error',
    );
    assert.deepEqual(query.upstream, { type: 'credentials', status: 401, code: '401', message: 'Unauthorized' });
    assert.match(query.message, /credentials/);
    const page = await fetch(`${wrong.url}/v1/onboardings`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify(body()),
    });
    assert.deepEqual((await upstreamError(page, 502, 'upstream_error')).upstream, { type: 'credentials' });
    const warn = wrong.logs.map((l) => JSON.parse(l) as Record<string, unknown>).find((l) => l.msg === 'upstream failure');
    assert.equal(warn?.upstreamStatus, 401);
    assert.equal(warn?.op, 'POST /api/token-generate');
    assert.ok(!wrong.logs.join('\n').includes(WRONG_SECRET), 'the secret is never logged');
    assert.ok(!wrong.logs.join('\n').includes(IT_CLIENT + '"'), 'the client is not logged as a value');
  } finally {
    await wrong.close();
  }
});

async function openSession(base: string, key: string, reference: string): Promise<CreateSessionResponse> {
  const res = await call(base, '/v1/sessions', { body: { reference, cpf: TEST_IDENTITIES.cpfRefused }, key });
  assert.equal(res.status, 201, await res.clone().text());
  return (await res.json()) as CreateSessionResponse;
}

function eventsOf(sessionId: string): NotificationEvent<SessionView>[] {
  return receiver.received
    .filter((r) => r.verified)
    .map((r) => JSON.parse(r.body) as NotificationEvent<SessionView>)
    .filter((e) => e.data.id === sessionId);
}

test("a finished session: its view, its notifications and the report route carry the report's services as sent and the photos kept anyway", async () => {
  const s = await openSession(stack.url, API_KEY, 'outcomes-refused');
  const res = await fetch(`${stack.url}/v1/onboardings`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', authorization: `Bearer ${s.clientSecret}` },
    body: JSON.stringify(body({ cpf: TEST_IDENTITIES.cpfRefused }, { keptAnyway: { selfie: 'blurry' } })),
  });
  assert.equal(res.status, 201, await res.clone().text());
  const { tokenOnboarding } = (await res.json()) as { tokenOnboarding: string };
  await until(() => eventsOf(s.id).some((e) => e.type === 'session.completed'), 'session.completed', 20_000);

  // What the upstream's report says, read straight from the sandbox.
  const upstreamReport = (await (
    await fetch(`${stack.sandboxUrl}/api/onboarding/report/${tokenOnboarding}`, {
      headers: { authorization: `Bearer ${await sandboxToken()}` },
    })
  ).json()) as { status: string; services: unknown };
  assert.equal(upstreamReport.status, 'REFUSED');
  assert.ok(upstreamReport.services !== undefined && upstreamReport.services !== null);

  const view = (await (await call(stack.url, `/v1/sessions/${s.id}`)).json()) as SessionView;
  assert.equal(view.onboarding?.status, 'REFUSED');
  assert.deepEqual(view.onboarding?.services, upstreamReport.services);
  assert.deepEqual(view.onboarding?.keptAnyway, { selfie: 'blurry' });
  assert.equal('refusal' in (view.onboarding ?? {}), false, 'the report shows no reason: none is made up');

  const events = eventsOf(s.id);
  const submitted = events.find((e) => e.type === 'session.submitted')!;
  const completed = events.find((e) => e.type === 'session.completed')!;
  for (const e of [submitted, completed]) {
    assert.equal(e.environment, 'test');
    assert.deepEqual(Object.keys(e).sort(), ['createdAt', 'data', 'environment', 'id', 'type']);
    assert.deepEqual(e.data.onboarding?.keptAnyway, { selfie: 'blurry' });
  }
  assert.equal(submitted.data.onboarding?.services, undefined, 'no services before the final status');
  assert.deepEqual(completed.data.onboarding?.services, upstreamReport.services);

  const report = (await (await call(stack.url, `/v1/admin/onboardings/${tokenOnboarding}`)).json()) as { services?: unknown };
  assert.deepEqual(report.services, upstreamReport.services);
});

async function sandboxToken(): Promise<string> {
  const res = await fetch(`${stack.sandboxUrl}/api/token-generate`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ client: IT_CLIENT, secret: IT_SECRET }),
  });
  return ((await res.json()) as { access_token: string }).access_token;
}

test('a production companion names production on every notification', async () => {
  const prodReceiver = await startReceiver(NOTIFY_SECRET);
  const prod = await startStack({
    companion: {
      environment: 'production',
      apiKeys: [{ key: API_KEY, scopes: ['sessions'] }],
      notify: { url: prodReceiver.url, secret: NOTIFY_SECRET },
    },
  });
  try {
    const s = await openSession(prod.url, API_KEY, 'outcomes-prod');
    const res = await fetch(`${prod.url}/v1/onboardings`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', authorization: `Bearer ${s.clientSecret}` },
      body: JSON.stringify(body({ cpf: TEST_IDENTITIES.cpfRefused })),
    });
    assert.equal(res.status, 201, await res.clone().text());
    await until(() => prodReceiver.received.some((r) => r.type === 'session.completed'), 'session.completed', 20_000);
    const events = prodReceiver.received.map((r) => JSON.parse(r.body) as NotificationEvent);
    assert.ok(events.length >= 2);
    for (const e of events) assert.equal(e.environment, 'production');
  } finally {
    await prod.close();
    await prodReceiver.close();
  }
});

test("a session completed by the sweep (its status applied where no session follows it) still keeps the report's services", async (t) => {
  const dir = mkdtempSync(join(tmpdir(), 'okit-outcomes-'));
  t.after(() => rmSync(dir, { recursive: true, force: true }));
  const file = join(dir, 'state.db');
  const sweepReceiver = await startReceiver(NOTIFY_SECRET);
  t.after(() => sweepReceiver.close());
  // The sandbox's webhooks reach this instance, which opens no sessions: the status it applies completes none.
  const webhookTarget = await startStack({ companion: { store: new SqliteStore(file) } });
  t.after(() => webhookTarget.close());
  // The instance that opens the session neither polls nor takes polling over: only its session sweep sees the outcome.
  const app = createCompanion({
    baseUrl: webhookTarget.sandboxUrl,
    client: IT_CLIENT,
    secret: IT_SECRET,
    webhookKey: 'it-webhook-key-1a2b3c4d5e6f7a8b9c0d',
    store: new SqliteStore(file),
    apiKeys: [API_KEY],
    notify: { url: sweepReceiver.url, secret: NOTIFY_SECRET },
    poll: { firstDelayMs: 600_000 },
    resumePolling: false,
    rateLimit: 0,
    creations: { perClient: 0 },
    logger: createJsonLogger({ sink: () => {}, level: 'error' }),
  });
  const server = await listen((req, env) => app.fetch(req, env as never), { port: 0 });
  t.after(async () => {
    await app.close();
    await server.close();
  });

  const s = await openSession(server.url, API_KEY, 'outcomes-sweep');
  const res = await fetch(`${server.url}/v1/onboardings`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', authorization: `Bearer ${s.clientSecret}` },
    body: JSON.stringify(body({ cpf: TEST_IDENTITIES.cpfRefused })),
  });
  assert.equal(res.status, 201, await res.clone().text());
  await until(() => sweepReceiver.received.some((r) => r.type === 'session.completed'), 'session.completed by the sweep', 30_000);
  const completed = JSON.parse(sweepReceiver.received.find((r) => r.type === 'session.completed')!.body) as NotificationEvent<SessionView>;
  assert.equal(completed.data.onboarding?.status, 'REFUSED');
  assert.ok(Array.isArray(completed.data.onboarding?.services), 'the report was read again for the services');
  const view = (await (await call(server.url, `/v1/sessions/${s.id}`)).json()) as SessionView;
  assert.deepEqual(view.onboarding?.services, completed.data.onboarding?.services);
});
