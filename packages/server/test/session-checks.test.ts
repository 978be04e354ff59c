/**
 * A session's instant checks against the sandbox over HTTP (docs/backend-api.md#checks): for each
 * of the sandbox's check identities, every check asked ends in the state the upstream's answer
 * gives, its outcome and externalId kept; the inspection goes pending, then final by its consult.
 */
import { test, after, before } from 'node:test';
import assert from 'node:assert/strict';
import { body, companionOn, startStack, type Stack } from '@onboarding-kit/testing/stack';
import type { CompanionApp } from '@onboarding-kit/server';
import type { CheckResult, SessionView } from '@onboarding-kit/contract';
import {
  ALL_CHECKS,
  CHECKS_API_KEY,
  FAST_INSPECTIONS,
  PROOF_PDF,
  checksDone,
  openSession,
  submit,
  viewOf,
} from './helpers/check-sessions.js';

let stack: Stack;
let app: CompanionApp;

before(async () => {
  stack = await startStack({ sandbox: { processingMs: 400 } });
  app = companionOn(stack, { apiKeys: [CHECKS_API_KEY], inspectionChecks: FAST_INSPECTIONS }).app;
});
after(async () => {
  await app.close();
  await stack.close();
});

/** Opens a session asking for every check and the proof of address, used by a page with this CPF; its view once the checks ended. */
async function runChecks(cpf: string): Promise<{ view: SessionView; results: Record<string, CheckResult> }> {
  const s = await openSession(app, { reference: `checks-${cpf}`, cpf, checks: ALL_CHECKS, steps: ['proof-of-address'] });
  await submit(app, s, cpf, { proofOfAddress: PROOF_PDF });
  const view = await checksDone(app, s.id);
  const results = Object.fromEntries(view.checks!.results.map((r) => [r.check, r]));
  return { view, results };
}

const serviceCalls = (service: string) =>
  stack.upstreamCalls.filter((c) => (c.body as Record<string, unknown> | undefined)?.service === service);

test('every check passes: OCR reads the CPF, faces match, the CNH is validated, the inspection ends APPROVED', async () => {
  const before = serviceCalls('SERVICE_DIGITAL_DOCUMENTOSCOPY_CONSULT').length;
  const { view, results } = await runChecks('529.982.247-25');
  assert.deepEqual(view.checks!.requested, [...ALL_CHECKS, 'proof_of_address']);
  assert.equal(results.ocr!.state, 'done');
  assert.equal(results.ocr!.outcome, 'success');
  assert.equal(results.ocr!.result?.cpf, '52998224725');
  assert.equal(results.ocr!.service, 'SERVICE_OCR');
  assert.equal(results.face_match!.result?.match, true);
  assert.equal(results.cnh_validation!.result?.validated, true);
  assert.equal(results.document_inspection!.state, 'done');
  assert.equal(results.document_inspection!.result?.status, 'APPROVED');
  assert.ok(serviceCalls('SERVICE_DIGITAL_DOCUMENTOSCOPY_CONSULT').length > before, 'the inspection was consulted by its key until final');
  assert.equal(results.proof_of_address!.state, 'done');
  assert.equal(results.proof_of_address!.outcome, 'no-data', 'the proof of address read, no data invented');
  for (const r of Object.values(results)) {
    assert.match(r.externalId ?? '', /^[0-9a-f-]{36}$/, `${r.check} keeps the upstream's externalId`);
    assert.ok(r.completedAt && r.requestedAt <= r.completedAt);
  }
  assert.ok(view.checks!.completedAt);
});

test('a face mismatch: the face match and the CNH validation are done, and say no', async () => {
  const { results } = await runChecks('318.274.650-26');
  assert.equal(results.face_match!.state, 'done');
  assert.equal(results.face_match!.result?.match, false);
  assert.equal(results.cnh_validation!.state, 'done');
  assert.equal(results.cnh_validation!.result?.validated, false);
  assert.equal(results.ocr!.state, 'done');
});

test('no face: the face services refuse (face-not-found), never retried; the OCR still reads', async () => {
  const { results } = await runChecks('427.183.960-40');
  for (const check of ['face_match', 'cnh_validation', 'document_inspection']) {
    assert.equal(results[check]!.state, 'refused', check);
    assert.equal(results[check]!.outcome, 'face-not-found', check);
    assert.match(results[check]!.message ?? '', /Face nao encontrada/);
    assert.equal(results[check]!.result, undefined);
  }
  assert.equal(results.ocr!.state, 'done');
});

test('an unreadable document: OCR, proof of address and inspection are refused with the upstream message', async () => {
  const { results } = await runChecks('536.291.470-70');
  for (const check of ['ocr', 'proof_of_address', 'document_inspection']) {
    assert.equal(results[check]!.state, 'refused', check);
    assert.equal(results[check]!.outcome, 'refused', check);
    assert.match(results[check]!.message ?? '', /ilegível/);
  }
  assert.equal(results.face_match!.state, 'done');
});

test('a technical failure: every check is failed after its bounded retries, its externalId kept for support', async () => {
  const ocrBefore = serviceCalls('SERVICE_OCR').length;
  const { results } = await runChecks('645.302.580-92');
  for (const r of Object.values(results)) {
    assert.equal(r.state, 'failed', r.check);
    assert.equal(r.outcome, 'error', r.check);
    assert.match(r.externalId ?? '', /^[0-9a-f-]{36}$/, r.check);
  }
  assert.equal(serviceCalls('SERVICE_OCR').length - ocrBefore, 3, 'three tries in all, then failed');
});

test("another person's document: the OCR reads someone else, the faces do not match; the session is decided as any other", async () => {
  const cpf = '754.413.690-60';
  const { view, results } = await runChecks(cpf);
  assert.equal(results.ocr!.state, 'done');
  assert.notEqual(results.ocr!.result?.cpf, '75441369060');
  assert.equal(results.face_match!.result?.match, false);
  assert.equal(view.status === 'submitted' || view.status === 'completed', true);
});

test('the checks go out with the session CPF, and none is sent twice once it has a final answer', async () => {
  const cpf = '318.274.650-26';
  const s = await openSession(app, { reference: 'checks-cpf', cpf, checks: ['face_match'] });
  const before = serviceCalls('SERVICE_FACE_MATCH').length;
  await submit(app, s, cpf);
  const view = await checksDone(app, s.id);
  const calls = serviceCalls('SERVICE_FACE_MATCH').slice(before);
  assert.equal(calls.length, 1);
  assert.equal((calls[0]!.body as Record<string, string>).cpf, '31827465026');
  assert.equal(view.checks!.results.length, 1);
  assert.deepEqual(await viewOf(app, s.id), view);
});

test('a session without checks reports none, and a page cannot send a proof of address without the step', async () => {
  const s = await openSession(app, { reference: 'no-checks', cpf: '529.982.247-25' });
  const sent = await app.request('/v1/onboardings', {
    method: 'POST',
    headers: { authorization: `Bearer ${s.clientSecret}`, 'content-type': 'application/json' },
    body: JSON.stringify(body({ cpf: '529.982.247-25' }, { proofOfAddress: PROOF_PDF })),
  });
  assert.equal(sent.status, 400);
  const error = ((await sent.json()) as { error: { code: string; field: string } }).error;
  assert.deepEqual([error.code, error.field], ['session_mismatch', 'proofOfAddress']);
  await submit(app, s, '529.982.247-25');
  assert.equal((await viewOf(app, s.id)).checks, undefined);
});
