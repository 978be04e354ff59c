import { test, after, before } from 'node:test';
import assert from 'node:assert/strict';
import { SERVICE_CATALOG, type ServiceId } from '@onboarding-kit/contract';
import { createUpstreamClient, UpstreamError, type UpstreamClient } from '@onboarding-kit/server';
import {
  IT_CLIENT,
  IT_SECRET,
  NO_FACE_PNG_BASE64,
  SAMPLE_PNG_BASE64,
  startStack,
  TEST_IDENTITIES,
  waitUntil,
  type Stack,
} from '@onboarding-kit/testing/stack';
import { SERVICE_FIELDS } from '../src/upstream/service-fields.js';
import { FAKE_CLIENT, FAKE_SECRET, startFakeUpstream, type FakeUpstream } from './helpers/fake-upstream.js';
import { JPEG } from './helpers/fixtures.js';

// The sandbox plays the upstream wherever it can; the fake upstream answers what it cannot script.
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

type ClientOptions = Partial<Parameters<typeof createUpstreamClient>[0]>;
// The client's own 15 s limit per call: ordinary calls never race a short one.
const client = (over: ClientOptions = {}): UpstreamClient =>
  createUpstreamClient({ baseUrl: up.url, client: FAKE_CLIENT, secret: FAKE_SECRET, retryDelayMs: 5, ...over });
const sandboxClient = (over: ClientOptions = {}, on: Stack = stack): UpstreamClient =>
  createUpstreamClient({ baseUrl: on.sandboxUrl, client: IT_CLIENT, secret: IT_SECRET, retryDelayMs: 5, ...over });
const tokensIssued = (on: Stack = stack) => on.sandbox.stats().tokensIssued;
const serviceCalls = () => stack.sandbox.stats().requests['POST /api/service-api'] ?? 0;

test('SERVICE_FIELDS mirrors the contract catalog field for field', () => {
  assert.deepEqual(Object.keys(SERVICE_FIELDS).sort(), Object.keys(SERVICE_CATALOG).sort());
  for (const [id, spec] of Object.entries(SERVICE_CATALOG)) {
    const f = SERVICE_FIELDS[id as ServiceId];
    assert.deepEqual([...f.required], [...spec.required], id);
    if (spec.requestShown) assert.deepEqual([...f.optional], [...spec.optional], id);
    else assert.ok(f.optional.length > 10, `${id} accepts any field`);
  }
});

test('the access token is obtained once and reused across calls', async () => {
  const c = sandboxClient();
  const before = tokensIssued();
  for (let i = 0; i < 5; i++) await c.query('SERVICE_PEP', { cpf: '52998224725' });
  await Promise.all(Array.from({ length: 10 }, () => c.customers('52998224725')));
  assert.equal(tokensIssued() - before, 1);
});

test('concurrent first calls share a single token generation', async () => {
  const c = sandboxClient();
  const before = tokensIssued();
  await Promise.all(Array.from({ length: 15 }, () => c.customers('52998224725')));
  assert.equal(tokensIssued() - before, 1);
});

test('the token is renewed shortly before expires_in, before any call meets a 401', async () => {
  // The default margin (30 s before a 300 s lifetime ends), on a clock the test moves.
  let now = 1_700_000_000_000;
  const c = client({ now: () => now });
  const before = up.tokensIssued();
  const reports = up.count('/api/onboarding/report/');
  await c.report('a');
  now += 269_000;
  await c.report('a');
  assert.equal(up.tokensIssued() - before, 1, 'reused within its life');
  now += 1_000;
  await c.report('a');
  assert.equal(up.tokensIssued() - before, 2, 'renewed 30 s before expires_in');
  assert.equal(up.count('/api/onboarding/report/') - reports, 3, 'no call was answered 401 and repeated');
  const renewedAt = up.calls.findLastIndex((x) => x.path === '/api/token-generate');
  assert.equal(up.calls[renewedAt + 1]?.path, '/api/onboarding/report/a', 'the renewal came first, then the call with the new token');
});

test('a 401 storm renews exactly once and repeats each call once', async () => {
  const c = client();
  await c.report('warm');
  const tokensBefore = up.tokensIssued();
  const reportsBefore = up.count('/api/onboarding/report/');
  up.expireTokens();
  const results = await Promise.all(Array.from({ length: 20 }, (_, i) => c.report(`storm-${i}`)));
  assert.equal(results.length, 20);
  assert.equal(up.tokensIssued() - tokensBefore, 1);
  assert.equal(up.count('/api/onboarding/report/') - reportsBefore, 40, 'each call: one 401, one repeat');
});

test('a second 401 after renewal is not repeated again: the credentials failed, not the query', async () => {
  const c = client();
  up.override('/api/service-api', () => ({ status: 401, json: { status: { code: 401, message: 'Unauthorized' } } }));
  try {
    const before = up.count('/api/service-api');
    await assert.rejects(
      c.query('SERVICE_PEP', { cpf: '52998224725' }),
      (e: unknown) => e instanceof UpstreamError && e.kind === 'unauthorized' && e.type === 'credentials' && e.httpStatus === 401,
    );
    assert.equal(up.count('/api/service-api') - before, 2);
  } finally {
    up.override('/api/service-api', undefined);
  }
});

test('wrong credentials become an unauthorized UpstreamError without the secret in it', async () => {
  const c = sandboxClient({ secret: 'wrong-secret-value' });
  await assert.rejects(
    c.report('x'),
    (e: unknown) =>
      e instanceof UpstreamError && e.kind === 'unauthorized' && !JSON.stringify({ m: e.message }).includes('wrong-secret-value'),
  );
});

test('query sends the alias, pure base64 images, and returns the classified, stripped outcome', async () => {
  // A product whose documentoscopy answers only to its alias: the documented name would be refused.
  const aliases = { SERVICE_DIGITAL_DOCUMENTOSCOPY: 'SERVICE_DOCUMENTOSCOPY' };
  const product = await startStack({ sandbox: { aliases } });
  try {
    const c = sandboxClient({ aliases }, product);
    const pep = await c.query('SERVICE_PEP', { cpf: '52998224725' });
    assert.equal(pep.kind, 'success');
    // The sandbox answers what the catalog lists plus the upstream's extra members; only the catalog's reach the caller.
    assert.deepEqual(pep.result, { cpf: '52998224725', isPep: false, positions: [] });
    const sentPep = product.upstreamCalls.at(-1)!.body as Record<string, unknown>;
    assert.deepEqual(sentPep, { service: 'SERVICE_PEP', cpf: '52998224725' });
    const image = SAMPLE_PNG_BASE64;
    const doc = await c.query('SERVICE_DIGITAL_DOCUMENTOSCOPY', {
      key: '3f1c9a1e-1111-4222-8333-944455556666',
      image1: `data:image/png;base64,${image}`,
      image2: image,
      selfie1: image,
    });
    assert.equal(doc.kind, 'success', JSON.stringify(doc));
    const sent = product.upstreamCalls.at(-1)!.body as Record<string, string>;
    assert.equal(sent.service, 'SERVICE_DOCUMENTOSCOPY');
    assert.equal(sent.image1, image, 'a data URI goes as pure base64');
    const betting = await c.query('SEVICE_ONLINE_BETTING_PROPENSITY', { cpf: '52998224725' });
    assert.equal(betting.kind, 'success');
    assert.equal((product.upstreamCalls.at(-1)!.body as Record<string, string>).service, 'SEVICE_ONLINE_BETTING_PROPENSITY');
  } finally {
    await product.close();
  }
});

test('query refuses a call missing a required field before sending it', async () => {
  const c = client();
  const before = up.calls.length;
  // @ts-expect-error rg and uf are required by the catalog
  await assert.rejects(c.query('SERVICE_CRIMINAL_RECORD_CIVIL', { cpf: '52998224725' }), /rg, uf/);
  assert.equal(up.calls.length, before);
});

test('HTTP 200 with a failure status, refusal and empty result are classified, not trusted', async () => {
  const c = sandboxClient();
  const cases: [string, () => ReturnType<UpstreamClient['query']>, string][] = [
    [
      'no balance: result {} with code 200',
      () => c.query('SERVICE_PEP', { cpf: TEST_IDENTITIES.cpfNoBalance.replace(/\D/g, '') }),
      'no-data',
    ],
    // A call alias this product does not have (the sandbox knows only the documented names here).
    [
      'a service the product does not have',
      () => sandboxClient({ aliases: { SERVICE_PEP: 'SERVICE_PEP_V2' } }).query('SERVICE_PEP', { cpf: '52998224725' }),
      'no-access',
    ],
    [
      'an image that is not one',
      () => c.query('SERVICE_FACE_MATCH' as never, { image1: JPEG.slice(0, 8), image2: NO_FACE_PNG_BASE64 } as never),
      'refused',
    ],
  ];
  for (const [name, call, kind] of cases) {
    const before = serviceCalls();
    const o = await call();
    assert.equal(o.kind, kind, `${name}: ${JSON.stringify(o)}`);
    assert.equal(serviceCalls() - before, 1, `${name}: never retried`);
  }
  // The in-body 500 of a failed query, with the externalId to quote to support.
  stack.sandbox.setFaults({ errorRate: 1 });
  try {
    const before = serviceCalls();
    const o = await c.query('SERVICE_PEP', { cpf: '52998224725' });
    assert.equal(o.kind, 'error');
    assert.match(o.externalId ?? '', /^[0-9a-f-]{36}$/);
    assert.equal(serviceCalls() - before, 1, 'never retried');
  } finally {
    stack.sandbox.resetFaults();
  }
});

/**
 * A fetch that never answers the paths in `hang` (until the client's own time limit aborts it)
 * and passes everything else to the fake upstream without that limit, so no ordinary call has
 * to beat the short timeout under test however slow the machine is.
 */
function hangingFetch(hang: string[]) {
  const attempts = new Map<string, number>();
  const fetchFn: typeof fetch = (input, init) => {
    const path = new URL(String(input)).pathname;
    const hung = hang.find((p) => path.startsWith(p));
    if (!hung) return fetch(input, { ...init, signal: null });
    attempts.set(hung, (attempts.get(hung) ?? 0) + 1);
    const signal = init?.signal;
    return new Promise<Response>((_, reject) => {
      if (!signal) return;
      if (signal.aborted) reject(signal.reason);
      else signal.addEventListener('abort', () => reject(signal.reason), { once: true });
    });
  };
  return { fetchFn, attempts: (path: string) => attempts.get(path) ?? 0 };
}

test('timeouts: an answer that never comes becomes a timeout error; GETs retry, creation never does', async () => {
  const hanging = hangingFetch(['/api/token-history-onboarding', '/api/onboarding/report/']);
  const c = client({ timeoutMs: 100, retries: 2, fetch: hanging.fetchFn });
  await assert.rejects(c.createOnboarding({ cpf: '52998224725' }), (e: unknown) => e instanceof UpstreamError && e.kind === 'timeout');
  assert.equal(hanging.attempts('/api/token-history-onboarding'), 1, 'a creation is never repeated');
  await assert.rejects(c.report('slow'), (e: unknown) => e instanceof UpstreamError && e.kind === 'timeout');
  assert.equal(hanging.attempts('/api/onboarding/report/'), 3, 'a GET is tried once and retried twice');
});

test('timeouts over a real socket: an answer later than the limit is a timeout, whatever the load', async () => {
  // Several seconds of margin both ways: the token call must beat the limit, the held answer must miss it.
  const c = client({ timeoutMs: 3_000, retries: 0 });
  await c.report('warm');
  let release!: () => void;
  const held = new Promise<void>((r) => (release = r));
  up.override('/api/onboarding/report/held', async () => {
    await held;
    return { json: {} };
  });
  try {
    await assert.rejects(c.report('held'), (e: unknown) => e instanceof UpstreamError && e.kind === 'timeout');
  } finally {
    release();
    up.override('/api/onboarding/report/held', undefined);
  }
});

test('GET retries a 503 and succeeds; creation maps HTTP errors without retrying', async () => {
  const c = client();
  let n = 0;
  up.override('/api/customer', () => (++n < 3 ? { status: 503, json: {} } : undefined));
  assert.equal((await c.customers('52998224725')).length, 1);
  assert.equal(n, 3);
  up.override('/api/customer', undefined);
  const cases = [
    [400, 'refused'],
    [403, 'unauthorized'],
    [500, 'failed'],
    [503, 'unavailable'],
  ] as const;
  for (const [status, kind] of cases) {
    up.override('/api/token-history-onboarding', () => ({
      status,
      json: { status: { code: status, message: 'Failed to fetch information' } },
    }));
    const before = up.count('/api/token-history-onboarding');
    await assert.rejects(
      c.createOnboarding({ cpf: '00000019100' }),
      (e: unknown) => e instanceof UpstreamError && e.kind === kind && e.httpStatus === status,
    );
    assert.equal(up.count('/api/token-history-onboarding') - before, 1);
  }
  up.override('/api/token-history-onboarding', () => ({
    json: { status: { code: 500, message: 'Falha' }, onboardingStatus: 'ERROR', externalId: 'ext-1' },
  }));
  await assert.rejects(
    c.createOnboarding({ cpf: '52998224725' }),
    (e: unknown) => e instanceof UpstreamError && e.kind === 'failed' && e.externalId === 'ext-1',
  );
  up.override('/api/token-history-onboarding', () => ({ json: { dateHourProcess: 'x' } }));
  await assert.rejects(
    c.createOnboarding({ cpf: '52998224725' }),
    (e: unknown) => e instanceof UpstreamError && e.kind === 'invalid_response',
  );
  up.override('/api/token-history-onboarding', undefined);
});

test('network failure is unavailable', async () => {
  const c = createUpstreamClient({ baseUrl: 'http://127.0.0.1:9', client: 'a', secret: 'b', retries: 1, retryDelayMs: 1 });
  await assert.rejects(c.report('x'), (e: unknown) => e instanceof UpstreamError && e.kind === 'unavailable');
});

test('reportPdf returns the streamed upstream answer; report and customers parse', async () => {
  const c = sandboxClient();
  const digits = TEST_IDENTITIES.cpfError.replace(/\D/g, '');
  const { tokenOnboarding } = await c.createOnboarding({
    cpf: digits,
    document: digits,
    documentFiles: [{ documentFileType: 'OTHER', document: `data:image/png;base64,${SAMPLE_PNG_BASE64}` }],
  });
  await waitUntil(async () => (await c.report(tokenOnboarding)).status !== 'IN_PROCESS');
  const r = await c.report(tokenOnboarding);
  assert.equal(r.status, 'ERROR');
  assert.match(r.externalId ?? '', /^[0-9a-f-]{36}$/);
  const res = await c.reportPdf(tokenOnboarding);
  assert.equal(res.headers.get('content-type'), 'application/pdf');
  assert.equal(new TextDecoder().decode((await res.arrayBuffer()).slice(0, 5)), '%PDF-');
  const customers = await c.customers('52998224725');
  assert.equal(customers[0]!.documentKey, '52998224725');
  assert.equal(customers[0]!.active, true);
  assert.ok(!c.secrets().some((s) => s === ''));
  assert.ok(c.secrets().includes(IT_SECRET));
});

test('customer records: null fields are removed', async () => {
  // The sandbox leaves unknown fields out; only a hand-written answer can send a null.
  const c = client();
  const customers = await c.customers('52998224725');
  assert.equal(customers[0]!.documentKey, '52998224725');
  assert.ok(!('name' in customers[0]!), 'null fields removed');
  assert.ok(c.secrets().includes(FAKE_SECRET));
});
