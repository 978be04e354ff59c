/**
 * The rules of what an upstream failure says (src/upstream/upstream-error.ts, src/errors/from-upstream.ts;
 * docs/page-api.md#upstream-failures): its type from what the answer shows, the upstream's message
 * made safe, and how much each audience sees.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { stripReport, UPSTREAM_FAILURE_TYPES } from '@onboarding-kit/contract';
import {
  failureType,
  outcomeFailureType,
  safeUpstreamMessage,
  UpstreamError,
  UPSTREAM_MESSAGE_MAX,
} from '../src/upstream/upstream-error.js';
import { fromUpstream, upstreamFailureOf } from '../src/errors/from-upstream.js';

test('the type: token endpoint refusals are credentials, 403 permission, in-body 401 product, no answer and 5xx unavailable', () => {
  assert.equal(failureType('unauthorized', 'POST /api/token-generate', 401), 'credentials');
  assert.equal(failureType('unauthorized', 'POST /api/token-generate', 403), 'credentials');
  assert.equal(failureType('unauthorized', 'GET /api/customer', 401), 'credentials');
  assert.equal(failureType('unauthorized', 'GET /api/customer', 403), 'permission');
  assert.equal(failureType('unauthorized', 'POST /api/token-history-onboarding', 200, 401), 'product');
  for (const status of [408, 429, 500, 502, 503]) assert.equal(failureType('failed', 'GET /api/customer', status), 'unavailable');
  assert.equal(failureType('failed', 'POST /api/service-api X', 200, 500), 'unavailable');
  assert.equal(failureType('timeout', 'GET /api/customer'), 'unavailable');
  assert.equal(failureType('unavailable', 'GET /api/customer'), 'unavailable');
  assert.equal(failureType('refused', 'POST /api/token-history-onboarding', 400, 400), 'unknown');
  assert.equal(failureType('invalid_response', 'GET /api/customer', 200), 'unknown');
  assert.equal(outcomeFailureType({ kind: 'no-access', code: 400, retryable: false }, 'op'), 'product');
  assert.equal(outcomeFailureType({ kind: 'unauthorized', code: 401, retryable: false }, 'op'), 'product');
  assert.equal(outcomeFailureType({ kind: 'error', retryable: true }, 'op'), 'unavailable');
  assert.equal(outcomeFailureType({ kind: 'error', code: 200, retryable: true }, 'op'), 'unknown');
  assert.deepEqual([...UPSTREAM_FAILURE_TYPES], ['credentials', 'product', 'permission', 'unavailable', 'unknown']);
});

test("the upstream's message: personal data, tokens and control characters masked, bounded", () => {
  const jwt = 'eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiJjbGllbnQifQ.c2lnbmF0dXJlLXZhbHVlLWhlcmU';
  const text = `Falha\u0000 para 529.982.247-25 / 52998224725 / 11.222.333/0001-81 maria@example.com Bearer abc ${jwt} tel 11 98765 4321 ok`;
  const safe = safeUpstreamMessage(text);
  for (const leaked of ['529.982.247-25', '52998224725', '11.222.333/0001-81', 'maria@example.com', 'abc', jwt, '98765', '\u0000'])
    assert.ok(!safe.includes(leaked), `${leaked} in ${safe}`);
  assert.match(safe, /^Falha para \[masked\]/);
  assert.match(safe, /ok$/);
  assert.equal(safeUpstreamMessage('Produto inativo ou não encontrado'), 'Produto inativo ou não encontrado');
  assert.equal(safeUpstreamMessage('Campo obrigatório não informado: cpf'), 'Campo obrigatório não informado: cpf');
  const long = safeUpstreamMessage('palavra '.repeat(200));
  assert.equal(long.length, UPSTREAM_MESSAGE_MAX);
  assert.ok(long.endsWith('…'));
});

test('credentials the upstream echoed are masked; a page sees the type alone, a backend everything safe', () => {
  const e = new UpstreamError('unauthorized', 'POST /api/token-generate', 'The upstream refused the companion credentials.', {
    httpStatus: 401,
    code: 401,
    upstreamMessage: 'Unauthorized client my-client secret s3cr3t-value',
  }).maskCredentials(['my-client', 's3cr3t-value']);
  assert.equal(e.type, 'credentials');
  assert.deepEqual(upstreamFailureOf(e, 'backend'), {
    type: 'credentials',
    status: 401,
    code: '401',
    message: 'Unauthorized client [masked] secret [masked]',
  });
  assert.deepEqual(upstreamFailureOf(e, 'page'), { type: 'credentials' });
  const page = fromUpstream(e, 'test');
  assert.equal(page.code, 'upstream_error');
  assert.deepEqual(page.upstream, { type: 'credentials' });
  assert.ok(!JSON.stringify(page.getResponse()).includes('s3cr3t'));
  const backend = fromUpstream(e, 'test', 'backend');
  assert.equal(backend.upstream?.message, 'Unauthorized client [masked] secret [masked]');
});

test('the report keeps its own services member as sent, and loses the other non-contract members and nulls', () => {
  const services = [{ service: 'SERVICE_OCR', enabled: true, nextStep: null }];
  const report = {
    tokenOnboarding: 't',
    status: 'REFUSED',
    fields: { name: 'M', valid: true, x: null },
    services,
    nextStep: 'END',
    extra: null,
  };
  assert.deepEqual(stripReport(report), { tokenOnboarding: 't', status: 'REFUSED', fields: { name: 'M' }, services });
  assert.deepEqual(stripReport({ tokenOnboarding: 't', status: 'APPROVED', services: null }), { tokenOnboarding: 't', status: 'APPROVED' });
  assert.deepEqual(stripReport({ result: { services: 1 } }), { result: {} }, 'only the top-level member is the report’s own');
});
