import { test, after, before } from 'node:test';
import assert from 'node:assert/strict';
import { maxCreateBodyBytes } from '@onboarding-kit/contract';
import { companionOn, startStack, TEST_IDENTITIES, type Stack } from '@onboarding-kit/testing/stack';
import { startFakeUpstream, type FakeUpstream } from './helpers/fake-upstream.js';
import { createBody, CPF_APPROVED_DIGITS, GIF, JPEG, jpegOfSize, PNG } from './helpers/fixtures.js';
import { created, postJson, testCompanion } from './helpers/companion.js';

// The sandbox plays the upstream wherever it can; the fake upstream only answers what it cannot script.
let stack: Stack;
let up: FakeUpstream;
before(async () => {
  stack = await startStack();
  up = await startFakeUpstream();
});
after(async () => {
  await stack.close();
  await up.close();
});

const creationsUpstream = () => stack.upstreamCalls.filter((c) => c.path === '/api/token-history-onboarding');

test('a valid creation goes upstream with data URIs and answers 201 with a fresh access key', async () => {
  const { app } = companionOn(stack, { documentFileTypes: { selfie: 'SELFIE' } });
  const before = creationsUpstream().length;
  const res = await postJson(app, '/v1/onboardings', createBody());
  assert.equal(res.status, 201);
  const body = (await res.json()) as Record<string, string>;
  assert.deepEqual(Object.keys(body).sort(), ['accessKey', 'dateHourProcess', 'status', 'tokenOnboarding']);
  assert.equal(body.status, 'IN_PROCESS');
  assert.match(body.accessKey!, /^[A-Za-z0-9_-]{43}$/);
  assert.equal(creationsUpstream().length - before, 1);
  const sent = creationsUpstream().at(-1)!;
  assert.equal(sent.headers['content-type'], 'application/json');
  assert.match(sent.headers.authorization!, /^Bearer /);
  assert.deepEqual(sent.body, {
    cpf: CPF_APPROVED_DIGITS,
    document: CPF_APPROVED_DIGITS,
    name: 'Maria Silva',
    documentFiles: [
      { documentFileType: 'OTHER', document: `data:image/jpeg;base64,${JPEG}` },
      { documentFileType: 'OTHER', document: `data:image/png;base64,${PNG}` },
      { documentFileType: 'SELFIE', document: `data:image/jpeg;base64,${JPEG}` },
    ],
  });
  const stored = await app.store.get(body.tokenOnboarding!);
  assert.ok(stored);
  assert.notEqual(stored.accessKeyHash, body.accessKey);
  assert.ok(!JSON.stringify(stored).includes(body.accessKey!), 'only the hash is stored');
  assert.deepEqual(
    stored.history.map((h) => [h.status, h.source]),
    [['IN_PROCESS', 'creation']],
  );
  await app.close();
});

test('two creations get different access keys', async () => {
  const { app } = companionOn(stack);
  const a = await created(app, createBody());
  const b = await created(app, createBody());
  assert.notEqual(a.accessKey, b.accessKey);
  assert.notEqual(a.tokenOnboarding, b.tokenOnboarding);
  await app.close();
});

test('every bad input gets its status and code, and nothing reaches the upstream', async () => {
  const { app } = companionOn(stack, { imageMaxBytes: 4096 });
  const cases: [string, () => Promise<Response>, number, string][] = [
    [
      'wrong content type',
      () =>
        Promise.resolve(
          app.request('/v1/onboardings', { method: 'POST', headers: { 'content-type': 'text/plain' }, body: JSON.stringify(createBody()) }),
        ),
      415,
      'unsupported_media_type',
    ],
    [
      'no content type',
      () => Promise.resolve(app.request('/v1/onboardings', { method: 'POST', body: JSON.stringify(createBody()) })),
      415,
      'unsupported_media_type',
    ],
    ['not JSON', () => postJson(app, '/v1/onboardings', '{"cpf": '), 400, 'invalid_json'],
    ['JSON array', () => postJson(app, '/v1/onboardings', '[]'), 400, 'invalid_request'],
    ['bad CPF', () => postJson(app, '/v1/onboardings', createBody({ cpf: '529.982.247-26' })), 400, 'invalid_cpf'],
    ['bad CNPJ', () => postJson(app, '/v1/onboardings', createBody({ cpf: undefined, cnpj: '11.222.333/0001-82' })), 400, 'invalid_cnpj'],
    ['no tax id', () => postJson(app, '/v1/onboardings', createBody({ cpf: undefined })), 400, 'missing_tax_id'],
    ['no selfie', () => postJson(app, '/v1/onboardings', createBody({ images: { documentFront: JPEG } })), 400, 'missing_image'],
    ['GIF', () => postJson(app, '/v1/onboardings', createBody({ images: { documentFront: GIF, selfie: JPEG } })), 400, 'invalid_image'],
    [
      'data URI',
      () => postJson(app, '/v1/onboardings', createBody({ images: { documentFront: `data:image/jpeg;base64,${JPEG}`, selfie: JPEG } })),
      400,
      'invalid_image',
    ],
    ['bad name', () => postJson(app, '/v1/onboardings', createBody({ name: '<script>' })), 400, 'invalid_field'],
    [
      'image over the limit',
      () => postJson(app, '/v1/onboardings', createBody({ images: { documentFront: jpegOfSize(4097), selfie: JPEG } })),
      413,
      'image_too_large',
    ],
    [
      'non-image over the limit',
      () => postJson(app, '/v1/onboardings', createBody({ images: { documentFront: GIF.repeat(1) + 'A'.repeat(6000), selfie: JPEG } })),
      413,
      'image_too_large',
    ],
    [
      'body over the limit',
      () => postJson(app, '/v1/onboardings', createBody({ name: 'x', pad: 'y'.repeat(maxCreateBodyBytes(4096) + 1) })),
      413,
      'payload_too_large',
    ],
  ];
  const before = stack.upstreamCalls.length;
  for (const [name, send, status, code] of cases) {
    const res = await send();
    assert.equal(res.status, status, name);
    const body = (await res.json()) as { error: { code: string; message: string } };
    assert.equal(body.error.code, code, name);
    assert.equal(typeof body.error.message, 'string');
    assert.equal(res.headers.get('content-type'), 'application/json', name);
  }
  assert.equal(stack.upstreamCalls.length, before, 'no call reached the upstream');
  await app.close();
});

test('upstream refusals the sandbox plays become contract errors, never a 201', async () => {
  const { app } = companionOn(stack, { upstream: { retryDelayMs: 1 } });
  const cases: [string, string, number, string][] = [
    ['HTTP 400 Failed to fetch information', TEST_IDENTITIES.cpfCreationFails, 400, 'upstream_refused'],
    ['HTTP 403 Forbidden', TEST_IDENTITIES.cpfForbidden, 502, 'upstream_error'],
  ];
  for (const [name, cpf, status, code] of cases) {
    const res = await postJson(app, '/v1/onboardings', createBody({ cpf }));
    assert.equal(res.status, status, name);
    const body = (await res.json()) as { error: { code: string; externalId?: string } };
    assert.equal(body.error.code, code, name);
    assert.equal(body.error.externalId, undefined, name);
  }
  // The upstream's own failure: a real HTTP 500 with its JSON status body.
  stack.sandbox.setFaults({ force500: true });
  try {
    const res = await postJson(app, '/v1/onboardings', createBody());
    assert.equal(res.status, 502);
    assert.equal(((await res.json()) as { error: { code: string } }).error.code, 'upstream_error');
  } finally {
    stack.sandbox.resetFaults();
    await app.close();
  }
});

test('upstream answers the sandbox never gives become contract errors, never a 201', async () => {
  const { app } = testCompanion(up, { upstream: { retryDelayMs: 1 } });
  const cases: [Parameters<typeof up.override>[1], number, string, string?][] = [
    [() => ({ status: 500, raw: '<html>oops</html>', contentType: 'text/html' }), 502, 'upstream_error'],
    [() => ({ status: 503, json: {} }), 503, 'upstream_unavailable'],
    [
      () => ({ json: { status: { code: 500, message: 'Falha ao realizar consulta' }, onboardingStatus: 'ERROR', externalId: 'ext-42' } }),
      502,
      'upstream_error',
      'ext-42',
    ],
    [() => ({ json: { result: {}, status: { code: 400, message: 'Imagem obrigatória não encontrada' } } }), 400, 'upstream_refused'],
    [() => ({ raw: 'not json' }), 502, 'upstream_error'],
  ];
  for (const [fn, status, code, externalId] of cases) {
    up.override('/api/token-history-onboarding', fn);
    const res = await postJson(app, '/v1/onboardings', createBody());
    assert.equal(res.status, status, code);
    const body = (await res.json()) as { error: { code: string; externalId?: string; message: string } };
    assert.equal(body.error.code, code);
    assert.equal(body.error.externalId, externalId);
    if (externalId) assert.match(body.error.message, /ext-42.*test environment/);
  }
  up.override('/api/token-history-onboarding', undefined);
  await app.close();
});

test('an upstream that does not answer in time is 504 upstream_timeout', async () => {
  // The token call beats the limit by seconds; the held creation never answers until released.
  const { app } = testCompanion(up, { upstream: { timeoutMs: 3_000, retryDelayMs: 1 } });
  let release!: () => void;
  const held = new Promise<void>((r) => (release = r));
  up.override('/api/token-history-onboarding', async () => {
    await held;
    return { json: { tokenOnboarding: 'late', dateHourProcess: 'x' } };
  });
  try {
    const res = await postJson(app, '/v1/onboardings', createBody());
    assert.equal(res.status, 504);
    assert.equal(((await res.json()) as { error: { code: string } }).error.code, 'upstream_timeout');
  } finally {
    release();
    up.override('/api/token-history-onboarding', undefined);
    await app.close();
  }
});

test('an unreachable upstream is 503', async () => {
  const { app } = testCompanion(up, { baseUrl: 'http://127.0.0.1:9', upstream: { retries: 0 } });
  const res = await postJson(app, '/v1/onboardings', createBody());
  assert.equal(res.status, 503);
  assert.equal(((await res.json()) as { error: { code: string } }).error.code, 'upstream_unavailable');
  assert.ok(res.headers.get('retry-after'));
  await app.close();
});

test('rate limit: 429 with Retry-After and the error shape, per client address', async () => {
  let address = '10.0.0.1';
  const { app } = companionOn(stack, { rateLimit: 2, clientAddress: () => address });
  assert.equal((await postJson(app, '/v1/onboardings', createBody())).status, 201);
  assert.equal((await postJson(app, '/v1/onboardings', '{bad')).status, 400);
  const limited = await postJson(app, '/v1/onboardings', createBody());
  assert.equal(limited.status, 429);
  const retryAfter = Number(limited.headers.get('retry-after'));
  assert.ok(retryAfter >= 1 && retryAfter <= 60);
  assert.equal(((await limited.json()) as { error: { code: string } }).error.code, 'rate_limited');
  address = '10.0.0.2';
  assert.equal((await postJson(app, '/v1/onboardings', createBody())).status, 201);
  assert.equal((await app.request('/v1/health')).status, 200, 'reads are not limited');
  await app.close();
});
