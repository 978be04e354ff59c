/**
 * The error catalogue: closed, each code with its statuses and a default message, and the
 * contract's own validations answer each code with the catalogue's status.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import {
  API_ERROR_CODES,
  API_ERRORS,
  isApiErrorCode,
  isApiErrorStatus,
  validateCreateOnboarding,
  validateCreateSession,
  type ApiErrorCode,
  type ApiErrorEntry,
  type ApiErrorStatus,
} from '@onboarding-kit/contract';

test('every code has an error status, further statuses only when they differ, and a sentence for a message', () => {
  assert.ok(API_ERROR_CODES.length >= 30);
  for (const code of API_ERROR_CODES) {
    const entry: ApiErrorEntry = API_ERRORS[code];
    assert.match(code, /^[a-z]+(?:_[a-z]+)*$/);
    for (const status of [entry.status, ...(entry.otherStatuses ?? [])])
      assert.ok(Number.isInteger(status) && status >= 400 && status <= 599, `${code}: ${status}`);
    assert.ok(!entry.otherStatuses?.includes(entry.status), `${code} names its status twice`);
    assert.equal(new Set(entry.otherStatuses).size, entry.otherStatuses?.length ?? 0, `${code} repeats another status`);
    assert.match(entry.message, /^[A-Za-z].*\.$/, code);
  }
});

test('isApiErrorCode and isApiErrorStatus hold to the catalogue, nothing inherited', () => {
  assert.equal(isApiErrorCode('not_found'), true);
  for (const other of ['Not_found', 'not-found', '', 'toString', '__proto__', 'constructor', 42, null, undefined])
    assert.equal(isApiErrorCode(other), false, String(other));
  assert.equal(isApiErrorStatus('unauthorized', 401), true);
  assert.equal(isApiErrorStatus('unauthorized', 403), true);
  assert.equal(isApiErrorStatus('unauthorized', 404), false);
  assert.equal(isApiErrorStatus('not_found', 404), true);
  assert.equal(isApiErrorStatus('not_found', 410), false);
});

test('the type of codes is closed: a code outside the catalogue does not compile', () => {
  // @ts-expect-error not a code of the catalogue
  const wrong: ApiErrorCode = 'not_fuond';
  // @ts-expect-error not a status the catalogue gives this code
  const status: ApiErrorStatus<'not_found'> = 410;
  const other: ApiErrorStatus<'unauthorized'> = 403;
  assert.equal(isApiErrorCode(wrong), false);
  assert.equal(isApiErrorStatus('not_found', status), false);
  assert.equal(isApiErrorStatus('unauthorized', other), true);
});

const jpeg = Buffer.from([0xff, 0xd8, 0xff, 0xe0, 0, 16, 74, 70, 73, 70, 0, 1]).toString('base64');
const pdf = Buffer.from('%PDF-1.4\n%\xe2\xe3').toString('base64');
const CPF = '529.982.247-25';

test("the contract's validations answer each code with the catalogue's status", () => {
  const creations: unknown[] = [
    null,
    [],
    { cpf: CPF, cnpj: '11.222.333/0001-81' },
    { cpf: '123' },
    { cnpj: '1' },
    {},
    { cpf: CPF, name: '<b>' },
    { cpf: CPF },
    { cpf: CPF, images: { passport: jpeg } },
    { cpf: CPF, images: { documentFront: jpeg } },
    { cpf: CPF, images: { documentFront: 'data:x', selfie: jpeg } },
    { cpf: CPF, images: { documentFront: pdf, selfie: jpeg } },
    { cpf: CPF, images: { documentFront: 'A'.repeat(8000), selfie: jpeg } },
  ];
  const sessions: unknown[] = [
    null,
    { reference: 'r', extra: 1 },
    { reference: '' },
    { reference: 'r', cpf: CPF, cnpj: '11.222.333/0001-81' },
    { reference: 'r', cpf: '1' },
    { reference: 'r', cnpj: '1' },
    { reference: 'r', locale: 'xx' },
    { reference: 'r', expiresIn: 1 },
    { reference: 'r', metadata: [] },
  ];
  const answers = [...creations.map((b) => validateCreateOnboarding(b, 4096)), ...sessions.map((b) => validateCreateSession(b))];
  const seen = new Set<string>();
  for (const v of answers) {
    assert.equal(v.ok, false);
    if (v.ok) continue;
    assert.ok(isApiErrorCode(v.error.code), v.error.code);
    assert.equal(v.status, API_ERRORS[v.error.code].status, v.error.code);
    seen.add(v.error.code);
  }
  // Every code the validations can answer was met above.
  assert.deepEqual([...seen].sort(), [
    'image_too_large',
    'invalid_cnpj',
    'invalid_cpf',
    'invalid_field',
    'invalid_image',
    'invalid_request',
    'missing_image',
    'missing_tax_id',
  ]);
});
