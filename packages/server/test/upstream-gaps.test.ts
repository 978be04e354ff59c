/**
 * What the upstream did not send or the catalog does not list: a service id outside the catalog
 * goes as given (no TypeError from the typed client), and a creation answer without
 * `dateHourProcess` stays without one, up to the page.
 */
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { createUpstreamClient, UpstreamError } from '@onboarding-kit/server';
import { FAKE_CLIENT, FAKE_SECRET, startFakeUpstream, type FakeUpstream } from './helpers/fake-upstream.js';
import { createBody } from './helpers/fixtures.js';
import { postJson, testCompanion } from './helpers/companion.js';

const SERVICE = '/api/service-api';
const CREATE = '/api/token-history-onboarding';

let up: FakeUpstream;
before(async () => {
  up = await startFakeUpstream();
});
after(() => up.close());

const client = () =>
  createUpstreamClient({
    baseUrl: up.url,
    client: FAKE_CLIENT,
    secret: FAKE_SECRET,
    retryDelayMs: 5,
    aliases: { SERVICE_DIGITAL_DOCUMENTOSCOPY: 'SERVICE_DOCUMENTOSCOPY' },
  });
const lastBody = (path: string) => up.calls.filter((c) => c.path === path).at(-1)!.body;

test('query: a service id the catalog does not know is sent exactly as given, fields unchecked, classified as any other', async () => {
  up.override(SERVICE, () => ({
    json: {
      status: { code: 200, message: 'Success' },
      result: { email: 'maria@example.com', valid: true, deliverable: true, fieldsOutput: ['x'] },
    },
  }));
  try {
    const outcome = await client().query('SERVICE_EMAIL_VALIDATION1', { email: 'maria@example.com' });
    assert.equal(outcome.kind, 'success');
    assert.deepEqual(outcome.result, { email: 'maria@example.com', deliverable: true }, 'non-contract members removed');
    assert.deepEqual(lastBody(SERVICE), { service: 'SERVICE_EMAIL_VALIDATION1', email: 'maria@example.com' });
    // An alias given by the caller is not a catalog id either: it goes untouched.
    await client().query('economic_relationships', { cnpj: '11222333000181' });
    assert.deepEqual(lastBody(SERVICE), { service: 'economic_relationships', cnpj: '11222333000181' });
  } finally {
    up.override(SERVICE, undefined);
  }
});

test('query: an image URL counts for its required image; the catalog check still holds for the rest', async () => {
  up.override(SERVICE, () => ({ json: { status: { code: 200, message: 'Success' }, result: { docType: 'CNH' } } }));
  try {
    const c = client();
    const url = 'https://images.example.com/front.jpg';
    await c.query('SERVICE_OCR', { documentType: 'CNH', image1Url: url } as never);
    assert.deepEqual(lastBody(SERVICE), { service: 'SERVICE_OCR', documentType: 'CNH', image1Url: url });
    const before = up.count(SERVICE);
    await assert.rejects(
      c.query('SERVICE_OCR', { image1Url: url } as never),
      (e: unknown) => e instanceof TypeError && /documentType/.test(e.message),
    );
    await assert.rejects(
      c.query('SERVICE_DIGITAL_DOCUMENTOSCOPY', { key: '3f1c9a1e-1111-4222-8333-944455556666', image1: 'AAAA', image2: 'AAAA' } as never),
      /selfie1/,
    );
    assert.equal(up.count(SERVICE), before);
  } finally {
    up.override(SERVICE, undefined);
  }
});

test('createOnboarding: no dateHourProcess from the upstream, none in the answer (an empty one neither)', async () => {
  const c = client();
  for (const json of [
    { tokenOnboarding: 'tok-1' },
    { tokenOnboarding: 'tok-1', dateHourProcess: '' },
    { tokenOnboarding: 'tok-1', dateHourProcess: 17 },
  ]) {
    up.override(CREATE, () => ({ json }));
    try {
      const created = await c.createOnboarding({ cpf: '52998224725' });
      assert.deepEqual(created, { tokenOnboarding: 'tok-1' }, JSON.stringify(json));
    } finally {
      up.override(CREATE, undefined);
    }
  }
  up.override(CREATE, () => ({ json: { tokenOnboarding: 'tok-2', dateHourProcess: '2026-11-20T10:00:00Z' } }));
  try {
    assert.deepEqual(await c.createOnboarding({ cpf: '52998224725' }), {
      tokenOnboarding: 'tok-2',
      dateHourProcess: '2026-11-20T10:00:00Z',
    });
  } finally {
    up.override(CREATE, undefined);
  }
  up.override(CREATE, () => ({ json: {} }));
  try {
    await assert.rejects(
      c.createOnboarding({ cpf: '52998224725' }),
      (e: unknown) => e instanceof UpstreamError && e.kind === 'invalid_response',
    );
  } finally {
    up.override(CREATE, undefined);
  }
});

test('POST /v1/onboardings: the page gets no dateHourProcess the upstream did not send', async () => {
  const { app } = testCompanion(up);
  up.override(CREATE, () => ({ json: { tokenOnboarding: 'a1b2c3d4-0000-4000-8000-000000000001' } }));
  try {
    const res = await postJson(app, '/v1/onboardings', createBody());
    assert.equal(res.status, 201, await res.clone().text());
    const body = (await res.json()) as Record<string, unknown>;
    assert.deepEqual(Object.keys(body).sort(), ['accessKey', 'status', 'tokenOnboarding']);
    assert.equal(body.tokenOnboarding, 'a1b2c3d4-0000-4000-8000-000000000001');
  } finally {
    up.override(CREATE, undefined);
    await app.close();
  }
});
