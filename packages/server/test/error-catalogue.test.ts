/**
 * The contract's error catalogue is the whole list of what the companion answers: the one onError
 * answers every code with the catalogue's status and message, a code outside it never reaches a
 * client, and no code literal in the server's source is missing from it.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { basename, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Hono } from 'hono';
import { API_ERROR_CODES, API_ERRORS, isApiErrorCode, type ApiErrorCode, type ApiErrorEntry } from '@onboarding-kit/contract';
import { DomainError } from '../src/errors/domain-error.js';
import type { CompanionEnv } from '../src/http/env.js';
import { companionErrorHandler } from '../src/http/error-handler.js';
import { silentLogger } from '../src/logger.js';
import { typeScriptFiles } from './helpers/import-graph.js';

const SRC = fileURLToPath(new URL('../src/', import.meta.url));

function throwing(error: () => Error) {
  const app = new Hono<CompanionEnv>();
  app.onError(companionErrorHandler({ logger: silentLogger, environment: 'test' }));
  app.get('/', () => {
    throw error();
  });
  return app;
}

test('the one onError answers every code of the catalogue with each of its statuses and its default message', async () => {
  for (const code of API_ERROR_CODES) {
    const entry: ApiErrorEntry = API_ERRORS[code];
    for (const status of [entry.status, ...(entry.otherStatuses ?? [])]) {
      const res = await throwing(() => new DomainError(code, undefined, { status: status as never })).request('/');
      assert.equal(res.status, status, `${code} ${status}`);
      assert.equal(res.headers.get('cache-control'), 'no-store');
      // Every upstream_* answer says why the upstream failed, as far as the thrower knows (docs/page-api.md#upstream-failures).
      const upstream = code.startsWith('upstream_')
        ? { upstream: { type: code === 'upstream_timeout' || code === 'upstream_unavailable' ? 'unavailable' : 'unknown' } }
        : {};
      assert.deepEqual(await res.json(), { error: { code, message: entry.message, ...upstream } });
    }
  }
});

test('the details of a domain error: its field and externalId in the body, its retry and realm hints as headers', async () => {
  const res = await throwing(
    () =>
      new DomainError('rate_limited', 'Too many.', {
        field: 'cpf',
        externalId: 'ext-1',
        retryAfterS: 7,
        realm: 'onboarding-session',
        cause: new Error('secret cause'),
      }),
  ).request('/');
  assert.equal(res.status, 429);
  assert.equal(res.headers.get('retry-after'), '7');
  assert.equal(res.headers.get('www-authenticate'), 'Bearer realm="onboarding-session"');
  const text = await res.text();
  assert.deepEqual(JSON.parse(text), { error: { code: 'rate_limited', message: 'Too many.', field: 'cpf', externalId: 'ext-1' } });
  assert.ok(!text.includes('secret cause'));
});

test("under a host's own error handler (Hono's default), a domain error answers the same as under the companion's", async () => {
  const make = () =>
    new DomainError('unauthorized', 'Only the origin.', { status: 403, field: 'token', retryAfterS: 2, realm: 'onboarding-session' });
  const host = new Hono().get('/', () => {
    throw make();
  });
  const [theirs, ours] = [await host.request('/'), await throwing(make).request('/')];
  assert.equal(theirs.status, 403);
  assert.equal(theirs.status, ours.status);
  assert.deepEqual([...theirs.headers], [...ours.headers]);
  assert.equal(await theirs.text(), await ours.text());
});

test('a code or a status outside the catalogue is refused where it is thrown: the client gets a 500 internal_error, never that code', async () => {
  assert.throws(() => new DomainError('not_fuond' as ApiErrorCode), TypeError);
  assert.throws(() => new DomainError('not_found', 'x', { status: 410 as never }), TypeError);
  const res = await throwing(() => new DomainError('teapot' as ApiErrorCode)).request('/');
  assert.equal(res.status, 500);
  assert.equal(((await res.json()) as { error: { code: string } }).error.code, 'internal_error');
});

/**
 * The error codes a source text names: the first argument of `new DomainError(` and `httpError(`,
 * the code of `new CompanionError(` and of the HTTP layer's own `errorJson(`, and lower-case codes
 * compared with `.code ===` / `.code !==` (Node's and the upstream's codes are upper case or numbers).
 */
export function errorCodeLiterals(text: string): string[] {
  const patterns = [
    /\bnew DomainError\(\s*'([^']*)'/g,
    /\bhttpError\(\s*'([^']*)'/g,
    /\berrorJson\(\s*'([^']*)'/g,
    /\bnew CompanionError\(\s*[^,()]+,\s*'([^']*)'/g,
    /(?<!typeof [\w.?]*)\.code\s*[!=]==\s*'([a-z][^']*)'/g,
  ];
  return patterns.flatMap((p) => [...text.matchAll(p)].map((m) => m[1]!));
}

test('the source walk finds a code that is not in the catalogue', () => {
  const planted =
    "throw new DomainError('no_such_code', 'x');\nthrow httpError('other_code');\nnew CompanionError(418, 'teapot', 'x');\nif (error.code === 'sesion_used') {}\nif (typeof e?.code === 'string' && e.code === 'ECONNRESET') {}";
  assert.deepEqual(
    errorCodeLiterals(planted).filter((c) => !isApiErrorCode(c)),
    ['no_such_code', 'other_code', 'teapot', 'sesion_used'],
  );
});

test("every error code the server's source names is in the catalogue; only the HTTP error's own module builds one from a status", () => {
  const files = typeScriptFiles(SRC);
  const found: string[] = [];
  for (const file of files) {
    const text = readFileSync(file, 'utf8');
    const codes = errorCodeLiterals(text);
    for (const code of codes)
      assert.ok(isApiErrorCode(code), `${relative(SRC, file)} names "${code}", which is not in the error catalogue (API_ERRORS)`);
    found.push(...codes);
    // A status written beside a code would bypass the catalogue: only the mapping itself does that.
    if (!['companion-error.ts', 'error-handler.ts'].includes(basename(file))) {
      assert.doesNotMatch(
        text,
        /\bnew CompanionError\(/,
        `${relative(SRC, file)} builds a CompanionError from a status; throw a DomainError`,
      );
    }
  }
  // The walk still reads the throw sites (a renamed constructor would otherwise leave it checking nothing).
  assert.ok(found.length >= 60, `only ${found.length} code literals found`);
});
