/**
 * The instant checks' rules as case tables: what a session asks for, a result applied only over a
 * pending check, completion, what a redaction keeps, each check's query and the state an upstream
 * answer gives it.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { classify, type CheckResult, type Outcome, type ServiceEnvelope } from '@onboarding-kit/contract';
import type { SessionRecord } from '../src/store/backend-state.js';
import {
  applyCheckResult,
  checksComplete,
  completedBy,
  effectiveChecks,
  INTERRUPTED_MESSAGE,
  isPending,
  pendingChecks,
  redactedChecks,
  requestedChecks,
  withSubmittedChecks,
} from '../src/store/rules/checks.js';
import { toSessionView } from '../src/sessions/session-view.js';
import { checkQuery, checkResult, failedCheck, inspectionEnded, retryable, type CheckInput } from '../src/checks/check-rules.js';

const T0 = '2030-01-01T00:00:00.000Z';
const T1 = '2030-01-01T00:00:05.000Z';
const T2 = '2030-01-01T00:00:09.000Z';

const session = (over: Partial<SessionRecord> = {}): SessionRecord => ({
  id: 'ses_checks',
  version: 3,
  reference: 'r',
  status: 'submitted',
  createdAt: T0,
  expiresAt: T2,
  documentTypes: [],
  locale: 'pt-BR',
  metadata: {},
  ...over,
});

const done = (check: CheckResult['check'], at = T1): CheckResult => ({
  check,
  service: 'S',
  state: 'done',
  outcome: 'success',
  result: { ok: true },
  externalId: 'ext-1',
  requestedAt: at,
  completedAt: at,
});

test('what a session asks for: its checks in order, then the proof of address its step brings', () => {
  const cases: [Parameters<typeof requestedChecks>, string[]][] = [
    [[undefined, undefined], []],
    [
      [['face_match', 'ocr'], undefined],
      ['face_match', 'ocr'],
    ],
    [[undefined, ['proof-of-address']], ['proof_of_address']],
    [
      [['ocr'], ['proof-of-address']],
      ['ocr', 'proof_of_address'],
    ],
  ];
  for (const [args, expected] of cases) assert.deepEqual(requestedChecks(...args), expected, JSON.stringify(args));
});

test('submission: each asked check pending from then, the reading kept; a second submission changes neither', () => {
  const asked = session({ checks: { requested: ['ocr', 'proof_of_address'], results: [] } });
  const reading = { documentFront: { documentKind: 'CNH' as const } };
  const submitted = withSubmittedChecks(asked, T1, reading);
  assert.deepEqual(submitted.checks, pendingChecks(['ocr', 'proof_of_address'], T1));
  assert.deepEqual(
    submitted.checks!.results.map((r) => [r.check, r.service, r.state, r.requestedAt]),
    [
      ['ocr', 'SERVICE_OCR', 'pending', T1],
      ['proof_of_address', 'SERVICE_OCR_PROOF_OF_ADDRESS', 'pending', T1],
    ],
  );
  assert.deepEqual(submitted.documentReading, reading);
  assert.deepEqual(withSubmittedChecks(submitted, T2, undefined).checks, submitted.checks);
  assert.equal(withSubmittedChecks(session(), T1, undefined).checks, undefined, 'no checks asked: none appear');
});

test('a result lands only over its pending check; the last one completes the checks at its time', () => {
  const s = withSubmittedChecks(session({ checks: { requested: ['ocr', 'face_match'], results: [] } }), T0, undefined);
  assert.equal(checksComplete(s.checks!), false);
  const one = applyCheckResult(s, done('ocr', T1))!;
  assert.equal(one.checks!.results[0]!.state, 'done');
  assert.equal(one.checks!.results[0]!.requestedAt, T0, 'requestedAt stays the submission time');
  assert.equal(one.checks!.completedAt, undefined);
  assert.equal(completedBy(s, one), false);
  assert.equal(applyCheckResult(one, done('ocr', T2)), null, 'a repeat changes nothing');
  assert.equal(applyCheckResult(one, { ...done('face_match'), state: 'pending' }), null, 'a pending result is no result');
  assert.equal(applyCheckResult(one, done('document_inspection')), null, 'a check never asked for');
  const both = applyCheckResult(one, { ...done('face_match', T2), state: 'failed' })!;
  assert.equal(both.checks!.completedAt, T2);
  assert.equal(checksComplete(both.checks!), true);
  assert.equal(completedBy(one, both), true);
  assert.equal(both.checks!.results.some(isPending), false);
  assert.equal(applyCheckResult(session(), done('ocr')), null, 'a session without checks');
  assert.equal(applyCheckResult({ ...s, redactedAt: T1 }, done('ocr')), null, 'a redacted session takes no result');
  assert.equal(checksComplete({ requested: ['ocr'], results: [] }), false, 'asked but not yet submitted is not complete');
});

test('a redaction keeps where each check stood, never its result, message or externalId', () => {
  const checks = { requested: ['ocr' as const], results: [{ ...done('ocr'), message: 'CPF 529.982.247-25 lido' }], completedAt: T1 };
  assert.deepEqual(redactedChecks(checks), {
    requested: ['ocr'],
    results: [{ check: 'ocr', service: 'S', state: 'done', requestedAt: T1, completedAt: T1 }],
    completedAt: T1,
  });
});

const input: CheckInput = {
  cpf: '52998224725',
  documentType: 'CNH',
  documentFront: 'F',
  documentBack: 'B',
  selfie: 'S',
  proofOfAddress: 'P',
};

test("each check's query: its service, the session CPF, and the photos in the fields the service names", () => {
  assert.deepEqual(checkQuery('ocr', input), {
    service: 'SERVICE_OCR',
    fields: { cpf: '52998224725', documentType: 'CNH', image1: 'F', image2: 'B' },
  });
  assert.deepEqual(checkQuery('face_match', input), {
    service: 'SERVICE_FACE_MATCH',
    fields: { cpf: '52998224725', image1: 'S', image2: 'F' },
  });
  assert.deepEqual(checkQuery('cnh_validation', input), { service: 'SERVICE_VALIDATION_CNH', fields: { cpf: '52998224725', image1: 'S' } });
  assert.deepEqual(checkQuery('document_inspection', input, 'k-1'), {
    service: 'SERVICE_DIGITAL_DOCUMENTOSCOPY',
    fields: { cpf: '52998224725', key: 'k-1', image1: 'F', image2: 'B', selfie1: 'S' },
  });
  assert.deepEqual(checkQuery('proof_of_address', input), {
    service: 'SERVICE_OCR_PROOF_OF_ADDRESS',
    fields: { cpf: '52998224725', image1: 'P' },
  });
  const bare: CheckInput = { documentFront: 'F', selfie: 'S' };
  assert.deepEqual(checkQuery('ocr', bare), { missing: 'documentType' });
  assert.deepEqual(checkQuery('cnh_validation', bare), { missing: 'cpf' });
  assert.deepEqual(checkQuery('document_inspection', bare, 'k'), { missing: 'images.documentBack' });
  assert.deepEqual(checkQuery('proof_of_address', bare), { missing: 'proofOfAddress' });
  assert.deepEqual(checkQuery('ocr', { ...bare, documentType: 'RG' }), {
    service: 'SERVICE_OCR',
    fields: { documentType: 'RG', image1: 'F' },
  });
});

const answer = (envelope: ServiceEnvelope, http = 200): Outcome => classify(envelope, http);

test('the state an answer gives: processed is done, an answer about the data is refused, a technical failure is failed', () => {
  const cases: [ServiceEnvelope, CheckResult['state'], Outcome['kind'], boolean][] = [
    [{ status: { code: 200, message: 'ok' }, result: { match: false, similarity: 20 }, externalId: 'e' }, 'done', 'success', false],
    [{ status: { code: 200, message: 'Sem dados' }, result: {}, externalId: 'e' }, 'done', 'no-data', false],
    [{ status: { code: 200, message: 'Documento ilegível' }, onboardingStatus: 'REFUSED', externalId: 'e' }, 'refused', 'refused', false],
    [{ status: { code: 400, message: 'Face nao encontrada na base' }, externalId: 'e' }, 'refused', 'face-not-found', false],
    [{ status: { code: 400, message: 'Imagem obrigatória não encontrada' } }, 'refused', 'missing-image', false],
    [{ status: { code: 500, message: 'Falha ao realizar consulta' }, onboardingStatus: 'ERROR', externalId: 'e' }, 'failed', 'error', true],
    [{ status: { code: 400, message: "Don't have access to the service" } }, 'failed', 'no-access', false],
  ] as never;
  for (const [envelope, state, kind, again] of cases) {
    const outcome = answer(envelope);
    const r = checkResult('face_match', outcome, T1);
    assert.deepEqual([r.state, r.outcome, retryable(outcome)], [state, kind, again], JSON.stringify(envelope));
    assert.equal(r.service, 'SERVICE_FACE_MATCH');
    assert.equal(r.externalId, envelope.externalId);
    assert.equal('result' in r, state === 'done');
  }
});

test("a check's message is masked as every upstream message the companion shows", () => {
  const outcome = answer({ status: { code: 200, message: 'CPF 529.982.247-25 ilegível' }, onboardingStatus: 'REFUSED' } as never);
  const r = checkResult('ocr', outcome, T1);
  assert.equal(r.message?.includes('529.982.247-25'), false);
  assert.match(r.message ?? '', /ilegível/);
  assert.deepEqual(failedCheck('ocr', 'Not sent.', T1), {
    check: 'ocr',
    service: 'SERVICE_OCR',
    state: 'failed',
    message: 'Not sent.',
    requestedAt: T1,
    completedAt: T1,
  });
});

test('an inspection ends with a status other than IN_PROCESS, or a refusal; running and technical answers keep it pending', () => {
  const ok = (result: Record<string, unknown>) => answer({ status: { code: 200, message: 'ok' }, result } as never);
  assert.equal(inspectionEnded(ok({ key: 'k', status: 'IN_PROCESS' })), false);
  assert.equal(inspectionEnded(ok({ key: 'k', status: 'APPROVED' })), true);
  assert.equal(inspectionEnded(answer({ status: { code: 200, message: 'x' }, onboardingStatus: 'REFUSED' } as never)), true);
  assert.equal(inspectionEnded(answer({ status: { code: 500, message: 'x' }, onboardingStatus: 'ERROR' } as never)), false);
});

test('a check left pending past its bound reads as failed, interrupted; the inspection gets its longer bound', () => {
  const bounds = { interruptedAfterMs: 600_000, inspectionAfterMs: 3_600_000 };
  const at = Date.parse(T0);
  const c = pendingChecks(['ocr', 'document_inspection'], T0);
  // Within the bound: unchanged.
  assert.deepEqual(effectiveChecks(c, at + 599_999, bounds), c);
  // Past it: the OCR failed at its bound, the inspection still pending, so not complete.
  const later = effectiveChecks(c, at + 600_000, bounds);
  assert.deepEqual(
    later.results.map((r) => [r.check, r.state, r.completedAt]),
    [
      ['ocr', 'failed', '2030-01-01T00:10:00.000Z'],
      ['document_inspection', 'pending', undefined],
    ],
  );
  assert.equal(later.results[0]!.message, INTERRUPTED_MESSAGE);
  assert.equal(later.completedAt, undefined);
  // Past the inspection's bound too: complete, at the last bound reached.
  const end = effectiveChecks(c, at + 3_600_000, bounds);
  assert.ok(!end.results.some(isPending));
  assert.equal(end.completedAt, '2030-01-01T01:00:00.000Z');
  // A final result is never touched, and checks completed keep their own time.
  const applied = applyCheckResult(applyCheckResult(session({ checks: c }), done('ocr'))!, done('document_inspection', T2))!.checks!;
  assert.deepEqual(effectiveChecks(applied, at + 10 * 3_600_000, bounds), applied);
});

test("the session view reads a check its companion left pending 10 minutes ago as failed, and the others' results as they are", () => {
  const c = applyCheckResult(session({ checks: pendingChecks(['ocr', 'face_match'], T0) }), done('face_match'))!;
  const at = Date.parse(T0);
  const soon = toSessionView(c, null, at + 9 * 60_000).checks!;
  assert.deepEqual(
    soon.results.map((r) => r.state),
    ['pending', 'done'],
  );
  const late = toSessionView(c, null, at + 10 * 60_000).checks!;
  assert.deepEqual(
    late.results.map((r) => r.state),
    ['failed', 'done'],
  );
  assert.equal(late.completedAt, '2030-01-01T00:10:00.000Z');
  assert.equal(c.checks!.results[0]!.state, 'pending', 'the record itself is not rewritten');
});
