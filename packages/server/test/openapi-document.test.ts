/**
 * The OpenAPI document (docs/openapi.json, `GET /v1/openapi.json`): valid OpenAPI 3.1 by a
 * maintained validator, every schema compiles as JSON Schema 2020-12, its errors are the error
 * catalogue's, the committed file is what the module produces, and the companion serves it
 * without a key, cacheable.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { Validator } from '@seriousme/openapi-schema-validator';
import { Ajv2020 } from 'ajv/dist/2020.js';
import addFormats from 'ajv-formats';
import {
  API_ERROR_CODES,
  API_ERRORS,
  isApiErrorCode,
  isApiErrorStatus,
  NOTIFICATION_TYPES,
  ONBOARDING_STATUSES,
  SESSION_STATUSES,
} from '@onboarding-kit/contract';
import { createCompanion } from '@onboarding-kit/server';
import { openApiDocument, openApiText } from '../src/openapi/document.js';
import { FAKE_CLIENT, FAKE_SECRET } from './helpers/fake-upstream.js';
import type { Loose } from './helpers/openapi-answers.js';

type Json = Loose;
const doc = openApiDocument() as Json;
const METHODS = ['get', 'post', 'put', 'patch', 'delete'];

function operations(d: Json = doc): { path: string; method: string; op: Json }[] {
  return Object.entries(d.paths as Json).flatMap(([path, item]) =>
    METHODS.filter((m) => item[m]).map((method) => ({ path, method, op: item[method] as Json })),
  );
}

/** A response object, `$ref`s into components resolved. */
function resolve(d: Json, value: Json): Json {
  if (typeof value.$ref !== 'string') return value;
  const target = (value.$ref as string)
    .slice(2)
    .split('/')
    .reduce((at: Json, key: string) => at?.[key], d);
  assert.ok(target, `${value.$ref} resolves`);
  return resolve(d, target);
}

/** Every error answer of every operation: status, the codes it narrows to. */
function errorAnswers(d: Json = doc): { where: string; status: number; codes: string[] }[] {
  const out: { where: string; status: number; codes: string[] }[] = [];
  for (const { path, method, op } of operations(d)) {
    for (const [status, raw] of Object.entries(op.responses as Json)) {
      const schema = resolve(d, raw).content?.['application/json']?.schema;
      const narrowed = schema?.allOf?.[1]?.properties?.error?.properties?.code?.enum;
      if (schema?.allOf?.[0]?.$ref === '#/components/schemas/ErrorBody')
        out.push({ where: `${method.toUpperCase()} ${path} ${status}`, status: Number(status), codes: narrowed });
    }
  }
  return out;
}

test('the document is valid OpenAPI 3.1 for a maintained validator, which refuses a broken copy', async () => {
  const validator = new Validator();
  const result = await validator.validate(structuredClone(doc));
  assert.equal(validator.version, '3.1');
  assert.ok(result.valid, JSON.stringify(result.errors, null, 2));
  // The validator is not a formality: an answer without its description is refused.
  const broken = structuredClone(doc);
  delete broken.paths['/v1/sessions'].post.responses['201'].description;
  assert.equal((await new Validator().validate(broken)).valid, false);
});

test('every schema compiles as JSON Schema 2020-12, and every $ref resolves', () => {
  const ajv = new Ajv2020({ strict: true, allErrors: true });
  addFormats.default(ajv);
  ajv.addVocabulary(['components', 'x-error-catalogue']);
  ajv.addSchema({ $id: 'openapi.json', components: { schemas: doc.components.schemas } });
  for (const name of Object.keys(doc.components.schemas))
    assert.doesNotThrow(() => ajv.getSchema(`openapi.json#/components/schemas/${name}`), name);
  const refs = [...JSON.stringify(doc).matchAll(/"\$ref":"([^"]+)"/g)].map((m) => m[1]!);
  assert.ok(refs.length > 100);
  for (const ref of new Set(refs)) resolve(doc, { $ref: ref });
});

test('operation ids are unique, and every operation documents its bug answer', () => {
  const ids = operations().map(({ op }) => op.operationId as string);
  assert.equal(new Set(ids).size, ids.length);
  for (const { path, method, op } of operations()) {
    assert.ok(
      Object.keys(op.responses).some((s) => /^2/.test(s)),
      `${method} ${path} has a success answer`,
    );
  }
  for (const { path, method, op } of operations().filter(({ path: p }) => p.startsWith('/v1/')))
    assert.ok(op.responses['500'], `${method.toUpperCase()} ${path} documents 500 internal_error`);
});

test('the error schema is the catalogue: every code, its statuses and message; each answer a status the catalogue allows', () => {
  const schema = doc.components.schemas.ErrorCode;
  assert.deepEqual(schema.enum, API_ERROR_CODES);
  for (const code of API_ERROR_CODES) {
    const entry = schema['x-error-catalogue'][code];
    const own: { status: number; otherStatuses?: readonly number[]; message: string } = API_ERRORS[code];
    assert.equal(entry.status, own.status, code);
    assert.deepEqual(entry.otherStatuses, own.otherStatuses && [...own.otherStatuses], code);
    assert.equal(entry.message, own.message, code);
  }
  assert.deepEqual(Object.keys(schema['x-error-catalogue']), API_ERROR_CODES);
  const answers = errorAnswers();
  assert.ok(answers.length > 100);
  for (const { where, status, codes } of answers) {
    assert.ok(Array.isArray(codes) && codes.length > 0, `${where} narrows its codes`);
    for (const code of codes) {
      assert.ok(isApiErrorCode(code), `${where}: ${code} is a catalogue code`);
      assert.ok(isApiErrorStatus(code, status), `${where}: the catalogue answers ${code} with ${status}`);
    }
  }
  // Every code a client can receive as JSON is answered by at least one operation (the hosted pages answer `page_unavailable` as a page).
  const answered = new Set(answers.flatMap((a) => a.codes));
  const unanswered = API_ERROR_CODES.filter((c) => !answered.has(c) && c !== 'client_closed_request' && c !== 'page_unavailable');
  assert.deepEqual(unanswered, []);
});

test("the contract's enumerations are the document's: statuses, notification types", () => {
  const { schemas } = doc.components;
  assert.deepEqual(schemas.OnboardingStatus.enum, ONBOARDING_STATUSES);
  for (const status of SESSION_STATUSES) assert.ok(schemas.SessionStatus.enum.includes(status), status);
  for (const type of NOTIFICATION_TYPES) assert.ok(doc.webhooks[type]?.post, `the webhook ${type}`);
  assert.deepEqual(Object.keys(doc.webhooks).sort(), [...schemas.NotificationEvent.properties.type.enum].sort());
});

test('docs/openapi.json is what the module produces (npm run openapi)', () => {
  const committed = readFileSync(new URL('../../../docs/openapi.json', import.meta.url), 'utf8');
  assert.ok(committed === openApiText(), 'docs/openapi.json differs from the OpenAPI module: run `npm run openapi` and commit it');
});

test('GET /v1/openapi.json serves the same bytes without a key, cacheable, 304 for its ETag', async () => {
  const app = createCompanion({
    baseUrl: 'http://127.0.0.1:9',
    client: FAKE_CLIENT,
    secret: FAKE_SECRET,
    webhookKey: 'test-webhook-key-0123456789',
    apiKeys: ['sk_test_openapi_0123456789abcdef0123456789'],
    adminKey: 'admin-key-openapi-0123456789',
    resumePolling: false,
  });
  try {
    const res = await app.request('/v1/openapi.json');
    assert.equal(res.status, 200);
    assert.match(res.headers.get('content-type') ?? '', /^application\/json/);
    assert.equal(res.headers.get('cache-control'), 'public, max-age=3600');
    assert.equal(await res.text(), openApiText());
    const etag = res.headers.get('etag');
    assert.match(etag ?? '', /^"[A-Za-z0-9_-]+"$/);
    const again = await app.request('/v1/openapi.json', { headers: { 'if-none-match': `"other", ${etag}` } });
    assert.equal(again.status, 304);
    assert.equal(await again.text(), '');
    assert.equal(again.headers.get('etag'), etag);
    const stale = await app.request('/v1/openapi.json', { headers: { 'if-none-match': '"other"' } });
    assert.equal(stale.status, 200);
    // A key changes nothing: the document is the same for everyone.
    const keyed = await app.request('/v1/openapi.json', { headers: { authorization: 'Bearer wrong' } });
    assert.equal(keyed.status, 200);
  } finally {
    await app.close();
  }
});
