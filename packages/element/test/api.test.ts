import test from 'node:test';
import assert from 'node:assert/strict';
import { SseParser } from '../src/api/sse.js';
import { normalizeEndpoint } from '../src/api/endpoint.js';
import { CompanionError, type CompanionErrorCode } from '../src/api/errors.js';
import { HANDOFF_PROGRESS_STEPS } from '@onboarding-kit/contract';
import {
  FIRST_STEP,
  ONBOARDING_STEPS,
  flowShapeOf,
  parseDocumentTypes,
  progressStages,
  stageOf,
  stepSequence,
  documentHasBack,
  rolesFor,
} from '../src/onboarding-flow/steps.js';

test('normalizeEndpoint accepts the base with or without /v1 and trailing slashes', () => {
  assert.equal(normalizeEndpoint('https://api.example.com'), 'https://api.example.com/v1');
  assert.equal(normalizeEndpoint('https://api.example.com/'), 'https://api.example.com/v1');
  assert.equal(normalizeEndpoint('https://api.example.com/v1'), 'https://api.example.com/v1');
  assert.equal(normalizeEndpoint('https://api.example.com/v1//'), 'https://api.example.com/v1');
  assert.equal(normalizeEndpoint('/kyc'), '/kyc/v1');
  assert.equal(normalizeEndpoint(''), '/v1');
});

test('SseParser handles comments, retry, multi-line data and any chunking', () => {
  const text =
    ': hello\nretry: 2000\n\nevent: status\ndata: {"a":1}\n\r\nevent: status\r\ndata: line1\r\ndata:line2\r\n\r\ndata: plain\n\n';
  const expected = [
    { event: 'status', data: '{"a":1}' },
    { event: 'status', data: 'line1\nline2' },
    { event: 'message', data: 'plain' },
  ];
  assert.deepEqual(new SseParser().push(text), expected);
  // Every split point, including between \r and \n.
  for (let i = 1; i < text.length; i++) {
    const p = new SseParser();
    assert.deepEqual([...p.push(text.slice(0, i)), ...p.push(text.slice(i))], expected, `split at ${i}`);
  }
});

test('SseParser keeps the id and ignores events without data', () => {
  const p = new SseParser();
  assert.deepEqual(p.push('event: status\n\nid: 7\nevent: status\ndata: x\n\n'), [{ event: 'status', data: 'x', id: '7' }]);
});

test('CompanionError.retryable: network, timeouts, 429 and 5xx only', () => {
  const e = (code: CompanionErrorCode, status: number) => new CompanionError({ code, message: 'm', status });
  assert.equal(e('network', 0).retryable, true);
  assert.equal(e('timeout', 0).retryable, true);
  assert.equal(e('aborted', 0).retryable, false);
  assert.equal(e('rate_limited', 429).retryable, true);
  assert.equal(e('upstream_unavailable', 503).retryable, true);
  assert.equal(e('invalid_cpf', 400).retryable, false);
  assert.equal(e('not_found', 404).retryable, false);
});

test('document types: parsing, back sides and step sequence', () => {
  assert.deepEqual(parseDocumentTypes(undefined), ['CNH', 'RG']);
  assert.deepEqual(parseDocumentTypes(' cnh, RG,,rg ,<b>'), ['CNH', 'RG']);
  assert.deepEqual(parseDocumentTypes('CNH,RG,RNE,PASSPORT'), ['CNH', 'RG', 'RNE', 'PASSPORT']);
  assert.equal(documentHasBack('CNH'), true);
  assert.equal(documentHasBack('RG'), true);
  assert.equal(documentHasBack('PASSPORT'), false);
  assert.ok(stepSequence('CNH').includes('document-back'));
  assert.ok(!stepSequence('PASSPORT').includes('document-back'));
  assert.deepEqual(rolesFor('PASSPORT'), ['documentFront', 'selfie']);
});

test("the flow starts at the intro, and the steps a hand-off progress report may name are the flow's, in order", () => {
  assert.equal(FIRST_STEP, 'intro');
  assert.equal(stepSequence('CNH')[0], 'intro');
  assert.deepEqual([...HANDOFF_PROGRESS_STEPS], [...ONBOARDING_STEPS]);
});

test('a session reshapes the flow: the CPF after the document it is read from, the proof of address after the selfie', () => {
  const order = (shape: Parameters<typeof stepSequence>[2]) => stepSequence('CNH', false, shape).slice(0, 9);
  assert.deepEqual(order({}), [
    'intro',
    'consent',
    'cpf',
    'document-type',
    'document-front',
    'document-back',
    'selfie',
    'review',
    'upload',
  ]);
  assert.deepEqual(order({ cpfAfterDocument: true }), [
    'intro',
    'consent',
    'document-type',
    'document-front',
    'document-back',
    'cpf',
    'selfie',
    'review',
    'upload',
  ]);
  assert.deepEqual(stepSequence('PASSPORT', true, { cpfAfterDocument: true, proofOfAddress: true }).slice(0, 5), [
    'document-front',
    'cpf',
    'selfie',
    'proof-of-address',
    'review',
  ]);
  assert.deepEqual(progressStages({}), ['consent', 'data', 'document', 'selfie', 'review']);
  assert.deepEqual(progressStages({ cpfAfterDocument: true, proofOfAddress: true }), [
    'consent',
    'document',
    'data',
    'selfie',
    'address',
    'review',
  ]);
  assert.equal(stageOf('document-type', { cpfAfterDocument: true }), 'document');
  assert.equal(stageOf('document-type'), 'data');
  assert.deepEqual(flowShapeOf({ prefill: {}, prefillFromDocument: true, steps: ['proof-of-address'] }), {
    cpfAfterDocument: true,
    proofOfAddress: true,
  });
  // A tax id the service provider gave leaves nothing to read.
  assert.deepEqual(flowShapeOf({ prefill: { cpf: '***.982.247-**' }, prefillFromDocument: true }), {});
  assert.deepEqual(flowShapeOf(null), {});
});
