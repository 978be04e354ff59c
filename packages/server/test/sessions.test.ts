/**
 * Sessions end to end on the companion (docs/backend-api.md#sessions): the backend opens them with
 * an API key, the page reads its own with the client secret and creates one onboarding with it,
 * and the session follows the onboarding to its outcome. The sandbox plays the upstream over HTTP.
 */
import { test, after, before } from 'node:test';
import assert from 'node:assert/strict';
import { companionOn, body, startStack, type Stack } from '@onboarding-kit/testing/stack';
import type { CompanionApp } from '@onboarding-kit/server';
import { ManualClock } from '@onboarding-kit/testing/manual-clock';
import type { CreateSessionResponse, PageSession, SessionView } from '@onboarding-kit/contract';
import { supportCodeOf } from '@onboarding-kit/contract';

const API_KEY = 'sk_test_0123456789abcdef0123456789abcdef';
const OTHER_API_KEY = 'sk_test_fedcba9876543210fedcba9876543210';
const CPF = '529.982.247-25';
const CPF_REFUSED = '111.444.777-35';

let stack: Stack;
before(async () => {
  stack = await startStack();
});
after(async () => {
  await stack.close();
});

function companion(over: Parameters<typeof companionOn>[1] = {}): CompanionApp {
  return companionOn(stack, { apiKeys: [API_KEY, OTHER_API_KEY], publicUrl: 'https://kyc.example', ...over }).app;
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
  payload: Record<string, unknown> = { reference: 'user-8812', cpf: CPF },
  headers: Record<string, string> = {},
): Promise<CreateSessionResponse> {
  const res = await call(app, 'POST', '/v1/sessions', { key: API_KEY, body: payload, headers });
  assert.equal(res.status, 201, await res.clone().text());
  return (await res.json()) as CreateSessionResponse;
}

async function errorOf(res: Response): Promise<{ status: number; code: string; field?: string }> {
  const b = (await res.json()) as { error: { code: string; field?: string; message: string } };
  assert.equal(typeof b.error.message, 'string');
  return { status: res.status, code: b.error.code, ...(b.error.field && { field: b.error.field }) };
}

test('opening a session: 201 with a client secret, a capture URL of its own secret, and the view holds no secret', async () => {
  const clock = new ManualClock();
  const app = companion({ timers: clock });
  const s = await openSession(app, {
    reference: 'user-8812',
    cpf: CPF,
    name: 'Maria Silva',
    documentTypes: ['cnh', 'RG'],
    locale: 'en',
    returnUrl: 'https://app.example/kyc/done',
    expiresIn: 600,
    metadata: { plan: 'gold' },
  });
  assert.match(s.id, /^ses_[0-9a-f]{32}$/);
  assert.equal(s.status, 'open');
  assert.equal(s.reference, 'user-8812');
  assert.ok(s.clientSecret.length >= 40);
  const capture = new URL(s.url);
  assert.equal(capture.origin, 'https://kyc.example');
  const token = capture.pathname.replace('/capture/', '');
  assert.match(token, /^[A-Za-z0-9_-]{32,}$/);
  assert.ok(!s.url.includes(s.id), 'the capture URL does not carry the session id');
  assert.equal(Date.parse(s.expiresAt) - clock.now(), 600_000, 'expires in 600 s');

  const res = await call(app, 'GET', `/v1/sessions/${s.id}`, { key: API_KEY });
  assert.equal(res.status, 200);
  const text = await res.text();
  assert.ok(!text.includes(s.clientSecret) && !text.includes(token), 'no secret in the view');
  const view = JSON.parse(text) as SessionView;
  assert.deepEqual(
    { ...view, createdAt: undefined },
    {
      id: s.id,
      supportCode: supportCodeOf(s.id),
      reference: 'user-8812',
      status: 'open',
      createdAt: undefined,
      expiresAt: s.expiresAt,
      metadata: { plan: 'gold' },
      returnUrl: 'https://app.example/kyc/done',
    },
  );

  const page = await call(app, 'GET', '/v1/session', { key: s.clientSecret });
  assert.equal(page.status, 200);
  assert.deepEqual((await page.json()) as PageSession, {
    id: s.id,
    status: 'open',
    expiresAt: s.expiresAt,
    prefill: { cpf: '***.982.247-**', name: 'Maria' },
    documentTypes: ['CNH', 'RG'],
    locale: 'en',
    returnUrl: 'https://app.example/kyc/done',
    handoff: { state: 'none', holder: true, origin: true },
  });
  await app.close();
});

test('backend routes answer 401 without an API key, with a wrong one, a page access key or a client secret; page routes never take an API key', async () => {
  const app = companion();
  const s = await openSession(app);
  const created = await call(app, 'POST', '/v1/onboardings', { key: s.clientSecret, body: body({ cpf: CPF }) });
  assert.equal(created.status, 201);
  const { accessKey, tokenOnboarding } = (await created.json()) as { accessKey: string; tokenOnboarding: string };
  for (const key of [undefined, 'sk_test_wrong_wrong_wrong_wrong_wrong_wrong', accessKey, s.clientSecret]) {
    for (const [method, path] of [
      ['POST', '/v1/sessions'],
      ['GET', `/v1/sessions/${s.id}`],
      ['GET', '/v1/sessions?reference=user-8812'],
    ] as const) {
      const res = await call(app, method, path, { ...(key && { key }), ...(method === 'POST' && { body: { reference: 'x' } }) });
      assert.deepEqual(
        await errorOf(res),
        { status: 401, code: 'unauthorized' },
        `${method} ${path} with ${key ? 'a wrong key' : 'no key'}`,
      );
      assert.match(res.headers.get('www-authenticate') ?? '', /^Bearer/);
    }
  }
  // Page routes: an API key is no session secret and no access key.
  assert.deepEqual(await errorOf(await call(app, 'GET', '/v1/session', { key: API_KEY })), { status: 401, code: 'unauthorized' });
  assert.deepEqual(await errorOf(await call(app, 'POST', '/v1/onboardings', { key: API_KEY, body: body({ cpf: CPF }) })), {
    status: 401,
    code: 'unauthorized',
  });
  assert.equal((await call(app, 'GET', `/v1/onboardings/${tokenOnboarding}`, { key: API_KEY })).status, 404);
  // Either key of the rotation works.
  assert.equal((await call(app, 'GET', `/v1/sessions/${s.id}`, { key: OTHER_API_KEY })).status, 200);
  await app.close();
});

test('bad session bodies get the error shape naming the field', async () => {
  const app = companion();
  const cases: [unknown, number, string, string?][] = [
    [{}, 400, 'invalid_field', 'reference'],
    [{ reference: '' }, 400, 'invalid_field', 'reference'],
    [{ reference: 'x'.repeat(129) }, 400, 'invalid_field', 'reference'],
    [{ reference: 'u', cpf: '123.456.789-00' }, 400, 'invalid_cpf', 'cpf'],
    [{ reference: 'u', cnpj: '11.111.111/1111-11' }, 400, 'invalid_cnpj', 'cnpj'],
    [{ reference: 'u', expiresIn: 86_401 }, 400, 'invalid_field', 'expiresIn'],
    [{ reference: 'u', expiresIn: 1.5 }, 400, 'invalid_field', 'expiresIn'],
    [
      { reference: 'u', metadata: Object.fromEntries(Array.from({ length: 21 }, (_, i) => [`k${i}`, 'v'])) },
      400,
      'invalid_field',
      'metadata',
    ],
    [{ reference: 'u', metadata: { plan: 3 } }, 400, 'invalid_field', 'metadata.plan'],
    [{ reference: 'u', locale: 'fr' }, 400, 'invalid_field', 'locale'],
    [{ reference: 'u', returnUrl: 'javascript:alert(1)' }, 400, 'invalid_field', 'returnUrl'],
    [{ reference: 'u', returnUrl: 'data:text/html,<script>alert(1)</script>' }, 400, 'invalid_field', 'returnUrl'],
    [{ reference: 'u', returnUrl: 'vbscript:msgbox(1)' }, 400, 'invalid_field', 'returnUrl'],
    [{ reference: 'u', returnUrl: 'file:///etc/passwd' }, 400, 'invalid_field', 'returnUrl'],
    [{ reference: 'u', documentTypes: [] }, 400, 'invalid_field', 'documentTypes'],
    [{ reference: 'u', surprise: 1 }, 400, 'invalid_field', 'surprise'],
    [[], 400, 'invalid_request'],
    ['{"reference":', 400, 'invalid_json'],
    [{ reference: 'u', name: 'x'.repeat(20_000) }, 413, 'payload_too_large'],
  ];
  for (const [payload, status, code, field] of cases) {
    const res = await call(app, 'POST', '/v1/sessions', { key: API_KEY, body: payload });
    assert.deepEqual(await errorOf(res), { status, code, ...(field && { field }) }, JSON.stringify(payload).slice(0, 80));
  }
  const wrongType = await call(app, 'POST', '/v1/sessions', {
    key: API_KEY,
    body: '{"reference":"u"}',
    headers: { 'content-type': 'text/plain' },
  });
  assert.deepEqual(await errorOf(wrongType), { status: 415, code: 'unsupported_media_type' });
  await app.close();
});

test('Idempotency-Key on session creation: same body -> 200, same session, a new secret (both valid); another body -> 409', async () => {
  const app = companion();
  const payload = { reference: 'user-idem', cpf: CPF };
  const first = await openSession(app, payload, { 'idempotency-key': 'idem-1' });
  const again = await call(app, 'POST', '/v1/sessions', { key: API_KEY, body: payload, headers: { 'idempotency-key': 'idem-1' } });
  assert.equal(again.status, 200);
  assert.equal(again.headers.get('idempotent-replayed'), 'true');
  const second = (await again.json()) as CreateSessionResponse;
  assert.equal(second.id, first.id);
  assert.notEqual(second.clientSecret, first.clientSecret);
  for (const secret of [first.clientSecret, second.clientSecret])
    assert.equal((await call(app, 'GET', '/v1/session', { key: secret })).status, 200);
  // The replay's capture URL is its own, and registered: the hosted page can open with it.
  const captureOf = (r: CreateSessionResponse) => new URL(r.url).pathname.replace('/capture/', '');
  assert.notEqual(captureOf(second), captureOf(first));
  for (const token of [captureOf(first), captureOf(second)]) {
    const page = await call(app, 'GET', '/v1/session', { key: token });
    assert.equal(page.status, 200);
    assert.equal(((await page.json()) as PageSession).id, first.id);
    const exchanged = await call(app, 'POST', '/v1/session/exchange', { body: { captureToken: token } });
    assert.equal(exchanged.status, 201);
  }
  // Member order does not make another body.
  const reordered = await call(app, 'POST', '/v1/sessions', {
    key: API_KEY,
    body: { cpf: CPF, reference: 'user-idem' },
    headers: { 'idempotency-key': 'idem-1' },
  });
  assert.equal(reordered.status, 200);
  const other = await call(app, 'POST', '/v1/sessions', {
    key: API_KEY,
    body: { reference: 'user-other' },
    headers: { 'idempotency-key': 'idem-1' },
  });
  assert.deepEqual(await errorOf(other), { status: 409, code: 'idempotency_conflict', field: 'Idempotency-Key' });
  const badKey = await call(app, 'POST', '/v1/sessions', { key: API_KEY, body: payload, headers: { 'idempotency-key': 'with space' } });
  assert.deepEqual(await errorOf(badKey), { status: 400, code: 'invalid_field', field: 'Idempotency-Key' });
  // Without a key, every request opens a new session.
  assert.notEqual((await openSession(app, payload)).id, (await openSession(app, payload)).id);
  await app.close();
});

test('GET /v1/session: an unknown or malformed secret is 401 in the error shape', async () => {
  const app = companion();
  for (const key of [undefined, 'nope', `ses_${'0'.repeat(32)}_secret_${'A'.repeat(32)}`, 'x'.repeat(600)]) {
    assert.deepEqual(await errorOf(await call(app, 'GET', '/v1/session', { ...(key && { key }) })), { status: 401, code: 'unauthorized' });
  }
  await app.close();
});

test('one onboarding per session: a replay with the same Idempotency-Key gets the same token and a new access key; any other creation 409 session_used', async () => {
  const app = companion();
  const s = await openSession(app);
  const headers = { 'idempotency-key': 'create-1' };
  const first = await call(app, 'POST', '/v1/onboardings', { key: s.clientSecret, body: body({ cpf: CPF }), headers });
  assert.equal(first.status, 201);
  const a = (await first.json()) as { tokenOnboarding: string; accessKey: string };
  const replay = await call(app, 'POST', '/v1/onboardings', { key: s.clientSecret, body: body({ cpf: CPF }), headers });
  assert.equal(replay.status, 200);
  const b = (await replay.json()) as { tokenOnboarding: string; accessKey: string; status: string };
  assert.equal(b.tokenOnboarding, a.tokenOnboarding);
  assert.notEqual(b.accessKey, a.accessKey);
  for (const k of [a.accessKey, b.accessKey])
    assert.equal((await call(app, 'GET', `/v1/onboardings/${a.tokenOnboarding}`, { key: k })).status, 200, 'every key issued opens it');
  const creations = stack.upstreamCalls.filter(
    (c) => c.path === '/api/token-history-onboarding' && JSON.stringify(c.body).includes('52998224725'),
  ).length;

  const otherKey = await call(app, 'POST', '/v1/onboardings', {
    key: s.clientSecret,
    body: body({ cpf: CPF }),
    headers: { 'idempotency-key': 'create-2' },
  });
  assert.deepEqual(await errorOf(otherKey), { status: 409, code: 'session_used' });
  const noKey = await call(app, 'POST', '/v1/onboardings', { key: s.clientSecret, body: body({ cpf: CPF }) });
  assert.deepEqual(await errorOf(noKey), { status: 409, code: 'session_used' });
  const sameKeyOtherBody = await call(app, 'POST', '/v1/onboardings', {
    key: s.clientSecret,
    body: body({ cpf: CPF }, { name: 'Someone Else' }),
    headers,
  });
  assert.deepEqual(await errorOf(sameKeyOtherBody), { status: 409, code: 'idempotency_conflict', field: 'Idempotency-Key' });
  assert.equal(
    stack.upstreamCalls.filter((c) => c.path === '/api/token-history-onboarding' && JSON.stringify(c.body).includes('52998224725')).length,
    creations,
    'nothing more went upstream',
  );

  const view = (await (await call(app, 'GET', `/v1/sessions/${s.id}`, { key: API_KEY })).json()) as SessionView;
  assert.equal(view.status === 'submitted' || view.status === 'completed', true);
  assert.equal(view.onboarding?.tokenOnboarding, a.tokenOnboarding);
  await app.close();
});

test('a session fixes the person: another CPF, a CNPJ or a document type it does not offer is 400 session_mismatch, and the session stays usable', async () => {
  const app = companion();
  const s = await openSession(app, { reference: 'user-lock', cpf: CPF, documentTypes: ['RG'] });
  assert.deepEqual(
    await errorOf(
      await call(app, 'POST', '/v1/onboardings', { key: s.clientSecret, body: body({ cpf: CPF_REFUSED }, { documentType: 'RG' }) }),
    ),
    { status: 400, code: 'session_mismatch', field: 'cpf' },
  );
  assert.deepEqual(
    await errorOf(
      await call(app, 'POST', '/v1/onboardings', {
        key: s.clientSecret,
        body: body({ cnpj: '11.222.333/0001-81' }, { documentType: 'RG' }),
      }),
    ),
    { status: 400, code: 'session_mismatch', field: 'cpf' },
  );
  assert.deepEqual(
    await errorOf(await call(app, 'POST', '/v1/onboardings', { key: s.clientSecret, body: body({ cpf: CPF }, { documentType: 'CNH' }) })),
    { status: 400, code: 'session_mismatch', field: 'documentType' },
  );
  // Punctuation is not another CPF.
  assert.equal(
    (await call(app, 'POST', '/v1/onboardings', { key: s.clientSecret, body: body({ cpf: '52998224725' }, { documentType: 'RG' }) }))
      .status,
    201,
  );
  await app.close();
});

test("a page holding only the masked CPF creates without one: the session's own CPF goes upstream", async () => {
  const app = companion();
  const s = await openSession(app, { reference: 'user-masked', cpf: CPF_REFUSED, name: 'Maria Silva' });
  const page = (await (await call(app, 'GET', '/v1/session', { key: s.clientSecret })).json()) as PageSession;
  assert.deepEqual(page.prefill, { cpf: '***.444.777-**', name: 'Maria' });
  const before = stack.upstreamCalls.length;
  const created = await call(app, 'POST', '/v1/onboardings', { key: s.clientSecret, body: body({}, { name: 'Maria' }) });
  assert.equal(created.status, 201);
  const sent = stack.upstreamCalls
    .slice(before)
    .map((c) => c.body as { cpf?: string; name?: string } | undefined)
    .find((b) => b?.cpf);
  assert.equal(sent?.cpf, '11144477735', "the session's CPF, whole, went upstream");
  assert.equal(sent?.name, 'Maria Silva', "the page sent the first name it was shown: the session's whole name went");
  // Without a session fixing one, a creation still needs its tax id.
  const open = companion({ sessions: 'optional' });
  assert.deepEqual(await errorOf(await call(open, 'POST', '/v1/onboardings', { body: body({}) })), {
    status: 400,
    code: 'missing_tax_id',
    field: 'cpf',
  });
  await Promise.all([app.close(), open.close()]);
});

test('an expired session: creation 410 session_expired; the page and backend views say expired', async () => {
  let offset = 0;
  const app = companion({
    timers: { now: () => Date.now() + offset, setTimeout: (fn, ms) => setTimeout(fn, ms), clearTimeout: (h) => clearTimeout(h as never) },
  });
  const s = await openSession(app, { reference: 'user-late', cpf: CPF, expiresIn: 60 });
  offset = 61_000;
  assert.deepEqual(await errorOf(await call(app, 'POST', '/v1/onboardings', { key: s.clientSecret, body: body({ cpf: CPF }) })), {
    status: 410,
    code: 'session_expired',
  });
  assert.equal(((await (await call(app, 'GET', '/v1/session', { key: s.clientSecret })).json()) as PageSession).status, 'expired');
  assert.equal(((await (await call(app, 'GET', `/v1/sessions/${s.id}`, { key: API_KEY })).json()) as SessionView).status, 'expired');
  await app.close();
});

test('sessions required (the production default): creation without a session is 401; optional: it works', async () => {
  const required = companion({ environment: 'production' });
  assert.deepEqual(await errorOf(await call(required, 'POST', '/v1/onboardings', { body: body({ cpf: CPF }) })), {
    status: 401,
    code: 'unauthorized',
  });
  await required.close();
  const optional = companion({ sessions: 'optional' });
  assert.equal((await call(optional, 'POST', '/v1/onboardings', { body: body({ cpf: CPF }) })).status, 201);
  await optional.close();
});

test('GET /v1/sessions?reference=: that reference only, newest first (one millisecond by id), never a secret', async () => {
  const app = companion();
  const opened: Array<{ id: string; at: number }> = [];
  for (let i = 0; i < 3; i++) {
    const s = await openSession(app, { reference: 'user-list', metadata: { n: String(i) } });
    const view = (await (await call(app, 'GET', `/v1/sessions/${s.id}`, { key: API_KEY })).json()) as SessionView;
    opened.push({ id: s.id, at: Date.parse(view.createdAt) });
  }
  await openSession(app, { reference: 'user-else' });
  const res = await call(app, 'GET', '/v1/sessions?reference=user-list', { key: API_KEY });
  assert.equal(res.status, 200);
  const { data } = (await res.json()) as { data: SessionView[] };
  assert.deepEqual(
    data.map((v) => v.id),
    opened.sort((x, y) => y.at - x.at || (x.id < y.id ? 1 : -1)).map((o) => o.id),
  );
  assert.ok(!JSON.stringify(data).includes('secret'), 'no secret in a listing');
  assert.deepEqual(await errorOf(await call(app, 'GET', '/v1/sessions?reference=', { key: API_KEY })), {
    status: 400,
    code: 'invalid_field',
    field: 'reference',
  });
  assert.deepEqual(await errorOf(await call(app, 'GET', '/v1/sessions/ses_unknown', { key: API_KEY })), { status: 404, code: 'not_found' });
  await app.close();
});

test('the session follows its onboarding: completed with the outcome the webhook brought, history included', async () => {
  const app = companion();
  const s = await openSession(app, { reference: 'user-outcome', cpf: CPF_REFUSED });
  const res = await call(app, 'POST', '/v1/onboardings', { key: s.clientSecret, body: body({ cpf: CPF_REFUSED }) });
  assert.equal(res.status, 201);
  const { tokenOnboarding } = (await res.json()) as { tokenOnboarding: string };
  // The sandbox decides REFUSED for this CPF; its webhook goes to the stack's own companion, so this
  // one learns the outcome by polling, and the status hook completes the session.
  const deadline = Date.now() + 20_000;
  let view: SessionView;
  for (;;) {
    view = (await (await call(app, 'GET', `/v1/sessions/${s.id}`, { key: API_KEY })).json()) as SessionView;
    if (view.status === 'completed' || Date.now() > deadline) break;
    await new Promise((r) => setTimeout(r, 200));
  }
  assert.equal(view.status, 'completed');
  assert.equal(view.onboarding?.tokenOnboarding, tokenOnboarding);
  assert.equal(view.onboarding?.status, 'REFUSED');
  assert.deepEqual(
    view.onboarding?.history?.map((h) => h.status),
    ['IN_PROCESS', 'REFUSED'],
  );
  await app.close();
});

test('without a session, an Idempotency-Key makes a retried creation answer the same onboarding (identical body only)', async () => {
  const app = companion({ sessions: 'optional' });
  const headers = { 'idempotency-key': 'no-session-1' };
  const first = await call(app, 'POST', '/v1/onboardings', { body: body({ cpf: CPF }), headers });
  assert.equal(first.status, 201);
  const a = (await first.json()) as { tokenOnboarding: string; accessKey: string };
  const again = await call(app, 'POST', '/v1/onboardings', { body: body({ cpf: CPF }), headers });
  assert.equal(again.status, 200);
  assert.equal(again.headers.get('idempotent-replayed'), 'true');
  const b = (await again.json()) as { tokenOnboarding: string; accessKey: string };
  assert.equal(b.tokenOnboarding, a.tokenOnboarding);
  assert.notEqual(b.accessKey, a.accessKey);
  for (const k of [a.accessKey, b.accessKey])
    assert.equal((await call(app, 'GET', `/v1/onboardings/${a.tokenOnboarding}`, { key: k })).status, 200);
  // The key alone opens nothing: another body (here another photo) is a conflict, never the onboarding.
  const other = await call(app, 'POST', '/v1/onboardings', {
    body: {
      ...body({ cpf: CPF }),
      images: {
        documentFront: (body() as { images: { selfie: string } }).images.selfie,
        selfie: (body() as { images: { selfie: string } }).images.selfie,
      },
    },
    headers,
  });
  assert.deepEqual(await errorOf(other), { status: 409, code: 'idempotency_conflict', field: 'Idempotency-Key' });
  await app.close();
});
