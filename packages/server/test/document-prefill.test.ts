/**
 * `POST /v1/session/document-prefill` against the sandbox over HTTP (docs/page-api.md#document-prefill):
 * behind a page secret, only on a session that offers it, a few per session; what the OCR reads
 * is offered only when it holds (a CPF's check digits, a person's name); an unreadable document
 * and a technical failure answer their own codes; the creation's `ocr` check reuses the prefill's
 * reading when its front photo is the same bytes.
 */
import { test, after, before } from 'node:test';
import assert from 'node:assert/strict';
import { companionOn, IMAGE, NO_FACE_PNG_BASE64, startStack, type Stack } from '@onboarding-kit/testing/stack';
import type { CompanionApp } from '@onboarding-kit/server';
import type { ApiErrorBody, CreateSessionResponse, DocumentPrefill } from '@onboarding-kit/contract';
import { CHECKS_API_KEY, FAST_INSPECTIONS, checksDone, openSession, submit } from './helpers/check-sessions.js';

let stack: Stack;
let app: CompanionApp;
before(async () => {
  stack = await startStack();
  app = companionOn(stack, { apiKeys: [CHECKS_API_KEY], inspectionChecks: FAST_INSPECTIONS }).app;
});
after(async () => {
  await app.close();
  await stack.close();
});

const ocrCalls = () => stack.upstreamCalls.filter((c) => (c.body as Record<string, unknown> | undefined)?.service === 'SERVICE_OCR').length;

const prefill = (
  secret: string | undefined,
  payload: unknown = { documentType: 'CNH', images: { documentFront: IMAGE, documentBack: IMAGE } },
) =>
  app.request('/v1/session/document-prefill', {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...(secret && { authorization: `Bearer ${secret}` }) },
    body: JSON.stringify(payload),
  });

const errorOf = async (res: Response) => ((await res.json()) as ApiErrorBody).error;

const offering = (cpf: string, reference = `prefill-${cpf}`): Promise<CreateSessionResponse> =>
  openSession(app, { reference, cpf, checks: ['ocr'], prefillFromDocument: true });

test('the OCR reads the CPF and the name, offered to the person to confirm', async () => {
  const s = await offering('529.982.247-25');
  const res = await prefill(s.clientSecret);
  assert.equal(res.status, 200);
  assert.equal(res.headers.get('cache-control'), 'no-store');
  const answer = (await res.json()) as DocumentPrefill;
  assert.equal(answer.cpf, '52998224725');
  assert.match(answer.name ?? '', /^\p{L}/u);
  assert.deepEqual(Object.keys(answer).sort(), ['cpf', 'name']);
});

test('a page secret is required; an API key or a made-up secret is not one', async () => {
  for (const secret of [undefined, CHECKS_API_KEY, 'ses_00000000000000000000000000000000_secret_nope']) {
    const res = await prefill(secret);
    assert.equal(res.status, 401, String(secret));
    assert.equal((await errorOf(res)).code, 'unauthorized');
  }
});

test('a session that did not ask for it: 409 prefill_unavailable, before anything goes upstream', async () => {
  const s = await openSession(app, { reference: 'no-prefill', cpf: '529.982.247-25', checks: ['ocr'] });
  const before = ocrCalls();
  const res = await prefill(s.clientSecret);
  assert.equal(res.status, 409);
  assert.equal((await errorOf(res)).code, 'prefill_unavailable');
  assert.equal(ocrCalls(), before);
});

test('at most three per session, then 429', async () => {
  const s = await offering('529.982.247-25', 'prefill-limit');
  for (let i = 0; i < 3; i++) assert.equal((await prefill(s.clientSecret)).status, 200, `prefill ${i + 1}`);
  const before = ocrCalls();
  const res = await prefill(s.clientSecret);
  assert.equal(res.status, 429);
  const error = await errorOf(res);
  assert.equal(error.code, 'rate_limited');
  assert.match(error.message, /3 document prefills/);
  assert.equal(ocrCalls(), before, 'nothing sent upstream past the limit');
});

test('an unreadable document: 422 document_unreadable, said in words; a technical failure: an upstream_* code', async () => {
  const unreadable = await prefill((await offering('536.291.470-70')).clientSecret);
  assert.equal(unreadable.status, 422);
  const error = await errorOf(unreadable);
  assert.equal(error.code, 'document_unreadable');
  assert.match(error.message, /could not be read/);
  const failed = await prefill((await offering('645.302.580-92')).clientSecret);
  assert.equal(failed.status, 502);
  const failure = await errorOf(failed);
  assert.equal(failure.code, 'upstream_error');
  assert.equal(failure.upstream?.message, undefined, 'a page learns the failure type only');
});

test('bad bodies are refused naming their member', async () => {
  const s = await offering('529.982.247-25', 'prefill-bodies');
  const cases: [unknown, number, string, string | undefined][] = [
    [{ images: { documentFront: IMAGE } }, 400, 'invalid_field', 'documentType'],
    [{ documentType: 'CNH' }, 400, 'missing_image', 'images'],
    [{ documentType: 'CNH', images: { selfie: IMAGE, documentFront: IMAGE } }, 400, 'invalid_field', 'images.selfie'],
    [{ documentType: 'CNH', images: { documentFront: `data:image/png;base64,${IMAGE}` } }, 400, 'invalid_image', 'images.documentFront'],
    [{ documentType: 'CNH', images: { documentFront: IMAGE }, cpf: '1' }, 400, 'invalid_field', 'cpf'],
  ];
  for (const [payload, status, code, field] of cases) {
    const res = await prefill(s.clientSecret, payload);
    assert.equal(res.status, status, JSON.stringify(payload).slice(0, 80));
    const e = await errorOf(res);
    assert.deepEqual([e.code, e.field], [code, field]);
  }
});

test("the creation's ocr check reuses the prefill's reading on the same front photo, and asks again on another", async () => {
  const cpf = '529.982.247-25';
  const same = await offering(cpf, 'prefill-reuse');
  assert.equal((await prefill(same.clientSecret)).status, 200);
  const before = ocrCalls();
  await submit(app, same, cpf);
  const reused = (await checksDone(app, same.id)).checks!.results[0]!;
  assert.equal(ocrCalls(), before, 'the upstream was not asked twice');
  assert.equal(reused.state, 'done');
  assert.equal(reused.result?.cpf, '52998224725');

  const other = await offering(cpf, 'prefill-other-front');
  assert.equal((await prefill(other.clientSecret, { documentType: 'CNH', images: { documentFront: NO_FACE_PNG_BASE64 } })).status, 200);
  const before2 = ocrCalls();
  await submit(app, other, cpf);
  await checksDone(app, other.id);
  assert.equal(ocrCalls(), before2 + 1, 'another front photo: the check asks the OCR itself');
});
