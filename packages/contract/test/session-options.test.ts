/** `checks`, `prefillFromDocument` and `steps` of `POST /v1/sessions`: what is kept, what is refused and why. */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { validateCreateSession } from '@onboarding-kit/contract';

const base = { reference: 'r-1', cpf: '529.982.247-25' };

function refused(extra: Record<string, unknown>) {
  const v = validateCreateSession({ ...base, ...extra });
  assert.equal(v.ok, false, `accepted ${JSON.stringify(extra)}`);
  if (v.ok) throw new Error('unreachable');
  assert.equal(v.status, 400);
  return v.error;
}

test('checks are kept in the order first given, repeats folded', () => {
  const v = validateCreateSession({ ...base, checks: ['face_match', 'ocr', 'face_match', 'document_inspection', 'cnh_validation'] });
  assert.ok(v.ok);
  assert.deepEqual(v.value.checks, ['face_match', 'ocr', 'document_inspection', 'cnh_validation']);
});

test('a session asking for nothing more has no checks, prefill or steps', () => {
  const v = validateCreateSession(base);
  assert.ok(v.ok);
  assert.equal('checks' in v.value, false);
  assert.equal('prefillFromDocument' in v.value, false);
  assert.equal('steps' in v.value, false);
  const off = validateCreateSession({ ...base, prefillFromDocument: false });
  assert.ok(off.ok);
  assert.equal('prefillFromDocument' in off.value, false);
});

test('checks must be a non-empty list of the known checks, each refusal naming the field', () => {
  for (const checks of [[], 'ocr', ['ocr', 'liveness'], [1], null, {}, Array(17).fill('ocr')]) {
    const e = refused({ checks });
    assert.equal(e.code, 'invalid_field', JSON.stringify(checks));
    assert.equal(e.field, 'checks');
    assert.match(e.message, /ocr, face_match, cnh_validation, document_inspection/);
  }
});

test('prefillFromDocument is a boolean, and true needs ocr among the checks', () => {
  const e = refused({ prefillFromDocument: true, checks: ['face_match'] });
  assert.equal(e.field, 'prefillFromDocument');
  assert.match(e.message, /needs "ocr" in checks/);
  assert.equal(refused({ prefillFromDocument: true }).field, 'prefillFromDocument');
  assert.equal(refused({ prefillFromDocument: 'yes', checks: ['ocr'] }).field, 'prefillFromDocument');
  const v = validateCreateSession({ ...base, prefillFromDocument: true, checks: ['ocr'] });
  assert.ok(v.ok);
  assert.equal(v.value.prefillFromDocument, true);
});

test('steps are a non-empty list of the known steps', () => {
  const v = validateCreateSession({ ...base, steps: ['proof-of-address', 'proof-of-address'] });
  assert.ok(v.ok);
  assert.deepEqual(v.value.steps, ['proof-of-address']);
  for (const steps of [[], ['selfie'], 'proof-of-address', [true]]) assert.equal(refused({ steps }).field, 'steps');
});
