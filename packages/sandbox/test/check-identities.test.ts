/**
 * The answers of the image services a session's instant checks call, for each check test identity
 * (README "Test identities"): over a real socket, as the companion calls them.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { classify, normalizeCpf, type ServiceId } from '@onboarding-kit/contract';
import { CHECK_TEST_IDENTITIES } from '../src/index.js';
import { requestFor } from './fixtures.js';
import { getToken, harness, query } from './helpers.js';

const PDF = Buffer.from('%PDF-1.4\n1 0 obj\n<<>>\nendobj\ntrailer\n<<>>\n%%EOF\n').toString('base64');

const CHECKS: ServiceId[] = [
  'SERVICE_OCR',
  'SERVICE_FACE_MATCH',
  'SERVICE_VALIDATION_CNH',
  'SERVICE_DIGITAL_DOCUMENTOSCOPY',
  'SERVICE_OCR_PROOF_OF_ADDRESS',
];

async function answers(cpf: string): Promise<Record<string, Record<string, unknown>>> {
  const h = await harness('socket');
  try {
    const token = await getToken(h.fetch);
    const out: Record<string, Record<string, unknown>> = {};
    for (const id of CHECKS) out[id] = await query(h.fetch, token, requestFor(id, { cpf: normalizeCpf(cpf)! }));
    return out;
  } finally {
    await h.close();
  }
}

const resultOf = (envelope: Record<string, unknown>) => classify(envelope as never).result as Record<string, unknown>;

test('the checks-pass identity: the document is this person, the faces match, the CNH validates', async () => {
  const a = await answers(CHECK_TEST_IDENTITIES.cpfChecksPass);
  assert.equal(resultOf(a.SERVICE_OCR!).cpf, '52998224725');
  assert.equal(resultOf(a.SERVICE_FACE_MATCH!).match, true);
  assert.ok((resultOf(a.SERVICE_FACE_MATCH!).similarity as number) >= 85);
  assert.equal(resultOf(a.SERVICE_VALIDATION_CNH!).validated, true);
  assert.equal((resultOf(a.SERVICE_DIGITAL_DOCUMENTOSCOPY!).documentData as { cpf: string }).cpf, '52998224725');
  assert.equal(classify(a.SERVICE_OCR_PROOF_OF_ADDRESS as never).kind, 'no-data', 'proof of address: members not shown, nothing invented');
  // The same query answers the same twice.
  const again = await answers(CHECK_TEST_IDENTITIES.cpfChecksPass);
  assert.equal(resultOf(again.SERVICE_FACE_MATCH!).similarity, resultOf(a.SERVICE_FACE_MATCH!).similarity);
});

test('the face-mismatch identity: face match false, CNH not validated; the document still reads', async () => {
  const a = await answers(CHECK_TEST_IDENTITIES.cpfFaceMismatch);
  assert.deepEqual([resultOf(a.SERVICE_FACE_MATCH!).match, resultOf(a.SERVICE_FACE_MATCH!).status], [false, 'NO_MATCH']);
  assert.ok((resultOf(a.SERVICE_FACE_MATCH!).similarity as number) < 80);
  assert.equal(resultOf(a.SERVICE_VALIDATION_CNH!).validated, false);
  assert.equal(resultOf(a.SERVICE_OCR!).cpf, '31827465026');
});

test('the no-face identity: every face service answers in-body 400 Face nao encontrada na base; OCR reads', async () => {
  const a = await answers(CHECK_TEST_IDENTITIES.cpfNoFace);
  for (const id of ['SERVICE_FACE_MATCH', 'SERVICE_VALIDATION_CNH', 'SERVICE_DIGITAL_DOCUMENTOSCOPY'])
    assert.equal(classify(a[id] as never).kind, 'face-not-found', id);
  assert.equal(classify(a.SERVICE_OCR as never).kind, 'success');
});

test('the unreadable-document identity: OCR, proof of address and inspection are REFUSED with a message; faces match', async () => {
  const a = await answers(CHECK_TEST_IDENTITIES.cpfUnreadableDocument);
  for (const id of ['SERVICE_OCR', 'SERVICE_OCR_PROOF_OF_ADDRESS', 'SERVICE_DIGITAL_DOCUMENTOSCOPY']) {
    const outcome = classify(a[id] as never);
    assert.equal(outcome.kind, 'refused', id);
    assert.match(outcome.message ?? '', /ilegível/);
    assert.ok(outcome.externalId, 'a refusal carries its externalId');
  }
  assert.equal(resultOf(a.SERVICE_FACE_MATCH!).match, true);
});

test('the checks-fail identity: every check service answers the technical failure, in-body 500 with ERROR', async () => {
  const a = await answers(CHECK_TEST_IDENTITIES.cpfChecksFail);
  for (const id of CHECKS) {
    const outcome = classify(a[id] as never);
    assert.deepEqual([outcome.kind, outcome.code, outcome.retryable], ['error', 500, true], id);
    assert.ok(outcome.externalId);
  }
});

test("the other-person identity: OCR and inspection read someone else's document, the faces do not match", async () => {
  const a = await answers(CHECK_TEST_IDENTITIES.cpfOtherPersonDocument);
  const read = resultOf(a.SERVICE_OCR!);
  assert.notEqual(read.cpf, '75441369060');
  assert.equal((resultOf(a.SERVICE_DIGITAL_DOCUMENTOSCOPY!).documentData as { cpf: string }).cpf, read.cpf);
  assert.equal(resultOf(a.SERVICE_FACE_MATCH!).match, false);
});

test('proof of address takes a PDF as image1; a damaged PDF is refused; other services still refuse a PDF', async () => {
  const h = await harness('socket');
  try {
    const token = await getToken(h.fetch);
    assert.equal(
      classify((await query(h.fetch, token, requestFor('SERVICE_OCR_PROOF_OF_ADDRESS', { image1: PDF }))) as never).kind,
      'no-data',
    );
    const cut = Buffer.from('%PDF-1.4\n1 0 obj\n<<>>').toString('base64');
    assert.equal(
      classify((await query(h.fetch, token, requestFor('SERVICE_OCR_PROOF_OF_ADDRESS', { image1: cut }))) as never).kind,
      'refused',
    );
    assert.equal(classify((await query(h.fetch, token, requestFor('SERVICE_OCR', { image1: PDF }))) as never).kind, 'refused');
  } finally {
    await h.close();
  }
});
