/**
 * Standalone queries over HTTP: queryRoutes mounted at /v1/queries behind requireApiKey, its
 * upstream the sandbox on a real socket, driven through app.request() and over a real socket.
 * The fake upstream plays what the sandbox cannot (a hung answer); an unreachable port plays the
 * network failure.
 */
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { Hono } from 'hono';
import { DEFAULT_IMAGE_MAX_BYTES } from '@onboarding-kit/contract';
import { createUpstreamClient, type UpstreamClient } from '@onboarding-kit/server';
import {
  IT_CLIENT,
  IT_SECRET,
  NO_FACE_PNG_BASE64,
  SAMPLE_PNG_BASE64,
  startStack,
  TEST_IDENTITIES,
  type Stack,
} from '@onboarding-kit/testing/stack';
import { ApiKeyring, requireApiKey } from '../src/auth/api-keys.js';
import { newAccessKey } from '../src/auth/access-key.js';
import type { CompanionEnv } from '../src/http/env.js';
import { companionErrorHandler, notFoundHandler } from '../src/http/error-handler.js';
import { silentLogger } from '../src/logger.js';
import { queryRoutes, type QueryAnswer, type QueryRoutesDeps } from '../src/queries/query-routes.js';
import { maxQueryBodyBytes } from '../src/queries/query-rules.js';
import { QueryService } from '../src/queries/query-service.js';
import { INSPECTION_CHECKS } from '../src/config/defaults.js';
import { MemoryStore } from '../src/store/index.js';
import { serveOnSocket } from './admin-standin.js';
import { FAKE_CLIENT, FAKE_SECRET, startFakeUpstream, type FakeUpstream } from './helpers/fake-upstream.js';

const API_KEY = `ak_${randomBytes(24).toString('base64url')}`;
const CPF = '529.982.247-25';
const CPF_DIGITS = '52998224725';
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

/** Records requests in a store of its own; its schedule is not started (tests/query-requests.test.ts drives it). */
function requests(upstream: UpstreamClient): QueryService {
  return new QueryService({
    store: new MemoryStore(),
    consult: (key) => upstream.query('SERVICE_DIGITAL_DOCUMENTOSCOPY_CONSULT' as never, { key } as never),
    logger: silentLogger,
    checks: INSPECTION_CHECKS,
    retentionMs: 60_000,
    maxAgeMs: 120_000,
  });
}

function host(upstream: UpstreamClient, imageMaxBytes = DEFAULT_IMAGE_MAX_BYTES, over: Partial<QueryRoutesDeps> = {}): Hono<CompanionEnv> {
  const app = new Hono<CompanionEnv>();
  app.onError(companionErrorHandler({ logger: silentLogger, environment: 'test' }));
  app.notFound(notFoundHandler);
  app.route(
    '/v1/queries',
    queryRoutes({
      upstream,
      auth: requireApiKey(ApiKeyring.from([API_KEY])),
      environment: 'test',
      imageMaxBytes,
      // A documentation address (public by the rules): no test asks a real resolver.
      resolveHost: async () => ['203.0.113.10'],
      requests: requests(upstream),
      ...over,
    }),
  );
  return app;
}

let stack: Stack;
let up: FakeUpstream;
/** The sandbox's clock: it stands still (timers stay real) until a test moves it. */
let sandboxNow = Date.now();
let app: Hono<CompanionEnv>;
let socket: { url: string; close(): Promise<void> };
before(async () => {
  stack = await startStack({
    sandbox: {
      processingMs: 300,
      clock: { now: () => sandboxNow, setTimeout: (fn, ms) => setTimeout(fn, ms), clearTimeout: (h) => clearTimeout(h as never) },
    },
  });
  up = await startFakeUpstream();
  app = host(createUpstreamClient({ baseUrl: stack.sandboxUrl, client: IT_CLIENT, secret: IT_SECRET, retryDelayMs: 5 }));
  socket = await serveOnSocket(app);
});
after(async () => {
  await socket.close();
  await stack.close();
  await up.close();
});

type Send = (path: string, init?: RequestInit & { key?: string | null }) => Promise<Response>;
const withKey = ({ key, ...init }: RequestInit & { key?: string | null } = {}): RequestInit => {
  const headers = new Headers(init.headers);
  if (key !== null) headers.set('authorization', `Bearer ${key ?? API_KEY}`);
  return { ...init, headers };
};
const modes: Record<string, Send> = {
  'app.request()': (path, init) => Promise.resolve(app.request(`/v1/queries${path}`, withKey(init))),
  'real socket': (path, init) => fetch(`${socket.url}/v1/queries${path}`, withKey(init)),
};
const post = (send: Send, body: unknown, init: RequestInit & { key?: string | null } = {}) =>
  send('', {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: typeof body === 'string' ? body : JSON.stringify(body),
    ...init,
  });

const serviceCalls = () => stack.upstreamCalls.filter((c) => c.path === '/api/service-api');
const lastSent = () => serviceCalls().at(-1)!.body as Record<string, string>;

async function answer(res: Response): Promise<QueryAnswer> {
  const text = await res.text();
  assert.equal(res.status, 200, text);
  assert.equal(res.headers.get('cache-control'), 'no-store');
  return JSON.parse(text) as QueryAnswer;
}

async function expectError(res: Response, status: number, code: string, field?: string): Promise<Record<string, unknown>> {
  const text = await res.text();
  assert.equal(res.status, status, text);
  for (const secret of [API_KEY, IT_SECRET, FAKE_SECRET]) assert.ok(!text.includes(secret), `error body leaks a secret: ${text}`);
  const body = JSON.parse(text) as { error: Record<string, unknown> };
  assert.deepEqual(Object.keys(body), ['error']);
  assert.equal(body.error.code, code, text);
  if (field !== undefined) assert.equal(body.error.field, field, text);
  return body.error;
}

/** Upstream service calls made while `run` ran. */
async function sentDuring(run: () => Promise<void>): Promise<number> {
  const before = serviceCalls().length;
  await run();
  return serviceCalls().length - before;
}

for (const [mode, send] of Object.entries(modes)) {
  describe(`POST /v1/queries via ${mode}`, () => {
    test('a catalog query answers the classified, stripped outcome; the CPF goes as digits', async () => {
      const n = await sentDuring(async () => {
        const pep = await answer(await post(send, { service: 'SERVICE_PEP', cpf: CPF }));
        assert.equal(pep.kind, 'success');
        assert.equal(pep.ok, true);
        assert.equal(pep.retryable, false);
        assert.deepEqual(pep.result, { cpf: CPF_DIGITS, isPep: false, positions: [] });
      });
      assert.equal(n, 1);
      assert.deepEqual(lastSent(), { service: 'SERVICE_PEP', cpf: CPF_DIGITS });
    });

    test('refusals, "no data" and a service the product lacks are answers: 200, classified, each sent once', async () => {
      const n = await sentDuring(async () => {
        const noBalance = await answer(await post(send, { service: 'SERVICE_PEP', cpf: TEST_IDENTITIES.cpfNoBalance }));
        assert.equal(noBalance.kind, 'no-data');
        assert.deepEqual(noBalance.result, {});
        assert.equal(typeof noBalance.message, 'string');
        const refused = await answer(
          await post(send, { service: 'SERVICE_FACE_MATCH', image1: SAMPLE_PNG_BASE64.slice(0, 8), image2: NO_FACE_PNG_BASE64 }),
        );
        assert.equal(refused.kind, 'refused');
        assert.equal(refused.ok, false);
        const faceless = await answer(await post(send, { service: 'SERVICE_FACE_INDEX', image1: NO_FACE_PNG_BASE64 }));
        assert.equal(faceless.kind, 'face-not-found');
      });
      assert.equal(n, 3, 'never retried');
    });

    test('a service id the catalog does not know is sent exactly as given, with its fields as given', async () => {
      const n = await sentDuring(async () => {
        const outcome = await answer(await post(send, { service: 'SERVICE_EMAIL_VALIDATION1', email: 'maria@example.com', cpf: CPF }));
        assert.equal(outcome.kind, 'no-access', JSON.stringify(outcome));
      });
      assert.equal(n, 1);
      assert.deepEqual(lastSent(), { service: 'SERVICE_EMAIL_VALIDATION1', email: 'maria@example.com', cpf: CPF });
    });

    test('missing or invalid fields of a catalog service are 400 naming the field, and nothing goes upstream', async () => {
      const n = await sentDuring(async () => {
        await expectError(await post(send, { service: 'SERVICE_CRIMINAL_RECORD_CIVIL', cpf: CPF, uf: 'SP' }), 400, 'missing_field', 'rg');
        await expectError(
          await post(send, { service: 'SERVICE_CRIMINAL_RECORD_CIVIL', cpf: CPF, rg: '', uf: 'SP' }),
          400,
          'missing_field',
          'rg',
        );
        await expectError(await post(send, { service: 'SERVICE_PEP' }), 400, 'missing_field', 'cpf');
        await expectError(await post(send, { cpf: CPF }), 400, 'missing_field', 'service');
        await expectError(await post(send, { service: 42 }), 400, 'invalid_field', 'service');
        await expectError(await post(send, { service: 'SERVICE PEP', cpf: CPF }), 400, 'invalid_field', 'service');
        await expectError(await post(send, { service: 'SERVICE_PEP', cpf: 52998224725 }), 400, 'invalid_field', 'cpf');
        await expectError(await post(send, { service: 'SERVICE_PEP', cpf: '529.982.247-26' }), 400, 'invalid_cpf', 'cpf');
        await expectError(await post(send, { service: 'SERVICE_RFB_PJ', cnpj: '11.222.333/0001-80' }), 400, 'invalid_cnpj', 'cnpj');
        await expectError(await post(send, { service: 'SERVICE_PEP', cpf: CPF, email: 'x@example.com' }), 400, 'invalid_field', 'email');
        await expectError(
          await post(send, { service: 'SERVICE_PF_FINANCIAL_AND_ADDRESS', cpf: CPF, birthDate: '20/01/1990' }),
          400,
          'invalid_field',
          'birthDate',
        );
        await expectError(
          await post(send, { service: 'SERVICE_DIGITAL_DOCUMENTOSCOPY_CONSULT', key: 'not-a-uuid' }),
          400,
          'invalid_field',
          'key',
        );
        await expectError(await post(send, { service: 'SERVICE_OCR', documentType: 'CNH' }), 400, 'missing_field', 'image1');
        await expectError(await post(send, { service: 'SERVICE_UNKNOWN_X', 'bad name': 'x' }), 400, 'invalid_field');
        await expectError(await post(send, ['SERVICE_PEP']), 400, 'invalid_request');
        await expectError(await post(send, '{"service":'), 400, 'invalid_json');
        await expectError(
          await send('', { method: 'POST', body: JSON.stringify({ service: 'SERVICE_PEP', cpf: CPF }) }),
          415,
          'unsupported_media_type',
        );
      });
      assert.equal(n, 0);
    });

    test('images go as pure base64 whether sent so or as a data URI; a non-base64 image is 400', async () => {
      const outcome = await answer(
        await post(send, {
          service: 'SERVICE_FACE_MATCH',
          image1: `data:image/png;base64,${SAMPLE_PNG_BASE64}`,
          image2: SAMPLE_PNG_BASE64,
        }),
      );
      assert.equal(outcome.kind, 'success', JSON.stringify(outcome));
      assert.equal(lastSent().image1, SAMPLE_PNG_BASE64);
      assert.equal(lastSent().image2, SAMPLE_PNG_BASE64);
      const n = await sentDuring(async () => {
        await expectError(
          await post(send, { service: 'SERVICE_FACE_MATCH', image1: 'not base64!', image2: SAMPLE_PNG_BASE64 }),
          400,
          'invalid_image',
          'image1',
        );
        await expectError(
          await post(send, { service: 'SERVICE_FACE_INDEX', image1: 'data:image/png;base64,' }),
          400,
          'invalid_image',
          'image1',
        );
      });
      assert.equal(n, 0);
    });

    test('image1Url/image2Url stand in for image1/image2 as https URLs; never for the selfie, never with the image itself', async () => {
      const url = 'https://images.example.com/cnh-front.jpg';
      const n = await sentDuring(async () => {
        const outcome = await answer(await post(send, { service: 'SERVICE_OCR', documentType: 'CNH', image1Url: url }));
        // The sandbox cannot fetch it: the upstream's refusal is still an answer.
        assert.ok(['refused', 'success'].includes(outcome.kind), JSON.stringify(outcome));
      });
      assert.equal(n, 1);
      assert.deepEqual(lastSent(), { service: 'SERVICE_OCR', documentType: 'CNH', image1Url: url });
      const none = await sentDuring(async () => {
        await expectError(
          await post(send, { service: 'SERVICE_OCR', documentType: 'CNH', image1Url: 'http://images.example.com/a.jpg' }),
          400,
          'invalid_field',
          'image1Url',
        );
        await expectError(
          await post(send, { service: 'SERVICE_OCR', documentType: 'CNH', image1Url: 'https://user:pw@images.example.com/a.jpg' }),
          400,
          'invalid_field',
          'image1Url',
        );
        await expectError(
          await post(send, { service: 'SERVICE_OCR', documentType: 'CNH', image1Url: 'images/a.jpg' }),
          400,
          'invalid_field',
          'image1Url',
        );
        await expectError(
          await post(send, { service: 'SERVICE_OCR', documentType: 'CNH', image1: SAMPLE_PNG_BASE64, image1Url: url }),
          400,
          'invalid_field',
          'image1Url',
        );
        await expectError(
          await post(send, { service: 'SERVICE_FACE_INDEX', image1Url: `https://images.example.com/${'a'.repeat(2100)}` }),
          400,
          'invalid_field',
          'image1Url',
        );
        // The selfie has no URL form, and a service without a second image takes no image2Url.
        await expectError(
          await post(send, {
            service: 'SERVICE_DIGITAL_DOCUMENTOSCOPY',
            image1: SAMPLE_PNG_BASE64,
            image2: SAMPLE_PNG_BASE64,
            selfie1Url: url,
          }),
          400,
          'invalid_field',
          'selfie1Url',
        );
        await expectError(
          await post(send, { service: 'SERVICE_FACE_INDEX', image1: SAMPLE_PNG_BASE64, image2Url: url }),
          400,
          'invalid_field',
          'image2Url',
        );
      });
      assert.equal(none, 0);
    });

    test('the asynchronous inspection answers its key (made here when not given); GET /:key consults it', async () => {
      const submitted = await answer(
        await post(send, {
          service: 'SERVICE_DIGITAL_DOCUMENTOSCOPY',
          image1: SAMPLE_PNG_BASE64,
          image2: SAMPLE_PNG_BASE64,
          selfie1: SAMPLE_PNG_BASE64,
        }),
      );
      assert.equal(submitted.kind, 'success', JSON.stringify(submitted));
      assert.match(submitted.key ?? '', UUID);
      assert.equal(lastSent().key, submitted.key, 'the key sent upstream is the one answered');
      assert.equal((submitted.result as { key?: string }).key, submitted.key);

      const mine = '3f1c9a1e-1111-4222-8333-944455556666';
      const chosen = await answer(
        await post(send, {
          service: 'SERVICE_DIGITAL_DOCUMENTOSCOPY',
          key: mine,
          image1: SAMPLE_PNG_BASE64,
          image2: SAMPLE_PNG_BASE64,
          selfie1: SAMPLE_PNG_BASE64,
        }),
      );
      assert.equal(chosen.key, mine, "the caller's own key is kept");

      const inspecting = await answer(await send(`/${submitted.key}`));
      assert.equal((inspecting.result as { status?: string }).status, 'IN_PROCESS', 'the upstream is still inspecting');
      // The sandbox's inspection takes processingMs of its clock.
      sandboxNow += 300;
      const consulted = await answer(await send(`/${submitted.key}`));
      assert.equal(consulted.kind, 'success', JSON.stringify(consulted));
      assert.equal(consulted.key, submitted.key);
      assert.equal((consulted.result as { status?: string }).status, 'APPROVED');
      assert.deepEqual(lastSent(), { service: 'SERVICE_DIGITAL_DOCUMENTOSCOPY_CONSULT', key: submitted.key });

      const n = await sentDuring(async () => {
        await expectError(await send('/not-a-key'), 400, 'invalid_field', 'key');
      });
      assert.equal(n, 0);
    });

    test('an in-body technical failure is 502 upstream_error with the externalId, never retried', async () => {
      stack.sandbox.setFaults({ errorRate: 1 });
      try {
        const n = await sentDuring(async () => {
          const error = await expectError(await post(send, { service: 'SERVICE_PEP', cpf: CPF }), 502, 'upstream_error');
          assert.match(String(error.externalId), UUID);
          assert.match(String(error.message), new RegExp(String(error.externalId)));
        });
        assert.equal(n, 1);
      } finally {
        stack.sandbox.resetFaults();
      }
    });

    test('no key, a wrong key or a page access key is 401 and nothing goes upstream', async () => {
      const n = await sentDuring(async () => {
        for (const key of [null, 'x'.repeat(40), newAccessKey()]) {
          const res = await post(send, { service: 'SERVICE_PEP', cpf: CPF }, { key });
          assert.equal(res.headers.get('www-authenticate'), 'Bearer realm="onboarding-backend"');
          await expectError(res, 401, 'unauthorized');
        }
        await expectError(await send(`/3f1c9a1e-1111-4222-8333-944455556666`, { key: null }), 401, 'unauthorized');
      });
      assert.equal(n, 0);
    });
  });
}

test('the body limit follows imageMaxBytes: an image over it is 413 image_too_large, a body over the limit 413 payload_too_large', async () => {
  const small = host(createUpstreamClient({ baseUrl: stack.sandboxUrl, client: IT_CLIENT, secret: IT_SECRET }), 2048);
  const req = (body: unknown) =>
    Promise.resolve(
      small.request('/v1/queries', {
        method: 'POST',
        headers: { 'content-type': 'application/json', authorization: `Bearer ${API_KEY}` },
        body: JSON.stringify(body),
      }),
    );
  const image = Buffer.alloc(2049, 7).toString('base64');
  await expectError(await req({ service: 'SERVICE_FACE_INDEX', image1: image }), 413, 'image_too_large', 'image1');
  await expectError(await req({ service: 'SERVICE_FACE_INDEX', image1: 'A'.repeat(maxQueryBodyBytes(2048)) }), 413, 'payload_too_large');
  // Three images at the limit fit.
  const full = Buffer.alloc(2048, 7).toString('base64');
  const res = await req({ service: 'SERVICE_DIGITAL_DOCUMENTOSCOPY', image1: full, image2: full, selfie1: full });
  assert.equal(res.status, 200, await res.text());
});

test('an upstream that does not answer in time is 504, one that cannot be reached 503', async () => {
  up.override('/api/service-api', () => ({
    delayMs: 2_000,
    json: { status: { code: 200, message: 'Success' }, result: { cpf: CPF_DIGITS } },
  }));
  try {
    const slow = host(createUpstreamClient({ baseUrl: up.url, client: FAKE_CLIENT, secret: FAKE_SECRET, timeoutMs: 300, retryDelayMs: 5 }));
    const res = await slow.request('/v1/queries', {
      method: 'POST',
      headers: { 'content-type': 'application/json', authorization: `Bearer ${API_KEY}` },
      body: JSON.stringify({ service: 'SERVICE_PEP', cpf: CPF }),
    });
    await expectError(res, 504, 'upstream_timeout');
    assert.equal(up.count('/api/service-api'), 1, 'a query is never repeated');
  } finally {
    up.override('/api/service-api', undefined);
  }
  const down = host(createUpstreamClient({ baseUrl: 'http://127.0.0.1:9', client: FAKE_CLIENT, secret: FAKE_SECRET, retries: 0 }));
  const res = await down.request('/v1/queries', {
    method: 'POST',
    headers: { 'content-type': 'application/json', authorization: `Bearer ${API_KEY}` },
    body: JSON.stringify({ service: 'SERVICE_PEP', cpf: CPF }),
  });
  await expectError(res, 503, 'upstream_unavailable');
  assert.equal(res.headers.get('retry-after'), '5');
});

test('queryRoutes refuses to be built without auth', () => {
  assert.throws(
    () =>
      queryRoutes({
        upstream: createUpstreamClient({ baseUrl: up.url, client: 'a', secret: 'b' }),
        environment: 'test',
        imageMaxBytes: 4096,
      } as never),
    /auth/,
  );
});

test('every answered query is recorded under the id it answers; GET /v1/queries/{id} reads it back, refusals included', async () => {
  const upstream = createUpstreamClient({ baseUrl: stack.sandboxUrl, client: IT_CLIENT, secret: IT_SECRET });
  const recorded = host(upstream);
  const call = (method: string, path: string, body?: unknown) =>
    Promise.resolve(
      recorded.request(path, {
        method,
        headers: { 'content-type': 'application/json', authorization: `Bearer ${API_KEY}` },
        ...(body !== undefined && { body: JSON.stringify(body) }),
      }),
    );
  const pep = await answer(await call('POST', '/v1/queries', { service: 'SERVICE_PEP', cpf: CPF }));
  assert.match(pep.id!, /^qry_[0-9a-f]{32}$/);
  const read = (await (await call('GET', `/v1/queries/${pep.id}`)).json()) as Record<string, unknown>;
  const { id: _id, ...outcome } = pep;
  assert.deepEqual(read, {
    id: pep.id,
    service: 'SERVICE_PEP',
    status: 'completed',
    createdAt: read.createdAt,
    completedAt: read.createdAt,
    result: outcome,
  });
  const refused = await answer(
    await call('POST', '/v1/queries', {
      service: 'SERVICE_DIGITAL_DOCUMENTOSCOPY',
      image1: SAMPLE_PNG_BASE64.slice(0, 8),
      image2: SAMPLE_PNG_BASE64,
      selfie1: SAMPLE_PNG_BASE64,
    }),
  );
  assert.notEqual(refused.id, pep.id);
  assert.equal(((await (await call('GET', `/v1/queries/${refused.id}`)).json()) as { status: string }).status, 'completed');
  await expectError(await call('GET', `/v1/queries/qry_${'0'.repeat(32)}`), 404, 'not_found');
  await expectError(await call('GET', '/v1/queries/qry_nope'), 404, 'not_found');
  await expectError(await call('POST', '/v1/queries', { service: 'SERVICE_PEP', cpf: CPF, notify: 'yes' }), 400, 'invalid_field');
});
