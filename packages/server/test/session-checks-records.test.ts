/**
 * Where a session's checks and document reading are reported (docs/backend-api.md#checks): the
 * session view and list, never the page's view; the evidence archive's `checks.json` and
 * `document-reading.json`, listed in its manifest; erased by a redaction. A reading is a record:
 * one naming another person changes nothing the companion sends or decides.
 */
import { test, after, before } from 'node:test';
import assert from 'node:assert/strict';
import { body, companionOn, startStack, type Stack } from '@onboarding-kit/testing/stack';
import type { CompanionApp } from '@onboarding-kit/server';
import type { DocumentReading, PageSession, SessionList, SessionView } from '@onboarding-kit/contract';
import { readWithZipJs, sha256 } from './admin-archive-tools.js';
import { ALL_CHECKS, CHECKS_API_KEY, FAST_INSPECTIONS, checksDone, openSession, submit, viewOf } from './helpers/check-sessions.js';

const CPF = '529.982.247-25';
const OTHER_CPF = '75441369060';
const QR = Buffer.from(`CNH|${OTHER_CPF}|OUTRA PESSOA`).toString('base64');
const reading: DocumentReading = {
  documentFront: { qr: { payloadBase64: QR }, documentKind: 'CNH' },
  documentBack: {
    mrz: {
      format: 'TD1',
      lines: ['I<BRA754413690<6<<<<<<<<<<<<<<', '9001011M3001012BRA<<<<<<<<<<<8', 'PESSOA<<OUTRA<<<<<<<<<<<<<<<<<'],
      fields: { documentNumber: '754413690', cpf: OTHER_CPF, lastName: 'PESSOA', firstName: 'OUTRA' },
      checks: [{ field: 'documentNumber', valid: true }],
      valid: true,
    },
    documentKind: 'CIN',
  },
};

let stack: Stack;
let app: CompanionApp;
before(async () => {
  stack = await startStack({ sandbox: { processingMs: 200 } });
  app = companionOn(stack, { apiKeys: [CHECKS_API_KEY], inspectionChecks: FAST_INSPECTIONS }).app;
});
after(async () => {
  await app.close();
  await stack.close();
});

const backend = (path: string, init: RequestInit = {}) =>
  app.request(path, { ...init, headers: { authorization: `Bearer ${CHECKS_API_KEY}`, 'content-type': 'application/json' } });

test('the session view and the list show the checks and the reading; the page sees the flow, never a result', async () => {
  const s = await openSession(app, {
    reference: 'records-view',
    cpf: CPF,
    checks: ['ocr'],
    prefillFromDocument: true,
    steps: ['proof-of-address'],
  });
  const page = (await (await app.request('/v1/session', { headers: { authorization: `Bearer ${s.clientSecret}` } })).json()) as PageSession;
  assert.equal(page.prefillFromDocument, true);
  assert.deepEqual(page.steps, ['proof-of-address']);
  const before = await viewOf(app, s.id);
  assert.deepEqual(before.checks, { requested: ['ocr', 'proof_of_address'], results: [] }, 'asked, nothing run before the photos');
  await submit(app, s, CPF, { documentReading: reading });
  const view = await checksDone(app, s.id);
  assert.deepEqual(view.documentReading, reading);
  assert.equal(view.checks!.results.find((r) => r.check === 'proof_of_address')!.state, 'failed', 'no proof sent: failed, saying so');
  const listed = (await (await backend('/v1/sessions?reference=records-view')).json()) as SessionList;
  assert.deepEqual(listed.data[0]!.checks, view.checks);
  assert.deepEqual(listed.data[0]!.documentReading, reading);
  const pageAfter = await (await app.request('/v1/session', { headers: { authorization: `Bearer ${s.clientSecret}` } })).text();
  assert.equal(pageAfter.includes('"checks"'), false);
  assert.equal(pageAfter.includes(QR), false);
});

test('a reading naming another person changes nothing the companion sends or decides', async () => {
  const creations = () => stack.upstreamCalls.filter((c) => c.path.startsWith('/api/token-history-onboarding'));
  const checkCalls = () => stack.upstreamCalls.filter((c) => c.path.startsWith('/api/service-api'));
  const run = async (extra: Record<string, unknown>) => {
    const [c0, q0] = [creations().length, checkCalls().length];
    const s = await openSession(app, {
      reference: `records-reading-${Object.keys(extra).length}`,
      cpf: CPF,
      checks: ['ocr', 'face_match'],
    });
    await submit(app, s, CPF, extra);
    const view = await checksDone(app, s.id);
    const sent = creations()
      .slice(c0)
      .map((c) => c.body);
    const queries = checkCalls()
      .slice(q0)
      .map((c) => c.body as Record<string, string>)
      .sort((x, y) => x.service!.localeCompare(y.service!));
    return { view, sent, queries };
  };
  const plain = await run({});
  const read = await run({ documentReading: reading });
  assert.deepEqual(read.sent, plain.sent, 'the upstream creation is the same body');
  assert.deepEqual(read.queries, plain.queries, 'the checks send the same queries');
  assert.equal(JSON.stringify(read.sent).includes(OTHER_CPF), false);
  const states = (v: SessionView) => v.checks!.results.map((r) => [r.check, r.state, r.result]);
  assert.deepEqual(states(read.view), states(plain.view));
  assert.equal(read.view.status, plain.view.status);
  assert.equal(read.view.onboarding?.status, plain.view.onboarding?.status);
});

test('the evidence archive holds checks.json and document-reading.json, each listed in its manifest', async () => {
  const s = await openSession(app, { reference: 'records-evidence', cpf: CPF, checks: ALL_CHECKS });
  const { tokenOnboarding } = await submit(app, s, CPF, { documentReading: reading });
  const view = await checksDone(app, s.id);
  const res = await backend(`/v1/admin/onboardings/${tokenOnboarding}/evidence`, {
    method: 'POST',
    body: JSON.stringify({ encrypt: false }),
  });
  assert.equal(res.status, 200, await res.clone().text());
  const { files } = await readWithZipJs(new Uint8Array(await res.arrayBuffer()));
  const text = (name: string) => new TextDecoder().decode(files.get(name));
  assert.deepEqual(JSON.parse(text('checks.json')), view.checks);
  assert.deepEqual(JSON.parse(text('document-reading.json')), reading);
  const manifest = JSON.parse(text('manifest.json')) as { files: { name: string; sha256: string; bytes: number }[] };
  for (const name of ['checks.json', 'document-reading.json']) {
    const listed = manifest.files.find((f) => f.name === name);
    assert.ok(listed, `${name} listed`);
    assert.equal(listed.sha256, sha256(files.get(name)!));
  }
});

test('a redaction erases the reading and the results; where each check stood remains', async () => {
  const s = await openSession(app, { reference: 'records-redact', cpf: CPF, checks: ['ocr', 'face_match'] });
  await submit(app, s, CPF, { documentReading: reading });
  const before = await checksDone(app, s.id);
  assert.ok(before.checks!.results.every((r) => r.externalId));
  assert.equal((await backend(`/v1/sessions/${s.id}/redact`, { method: 'POST' })).status, 200);
  const view = await viewOf(app, s.id);
  assert.equal(view.documentReading, undefined);
  assert.deepEqual(
    view.checks!.results.map((r) => [r.check, r.state, r.result, r.message, r.externalId, r.outcome]),
    before.checks!.results.map((r) => [r.check, r.state, undefined, undefined, undefined, undefined]),
  );
  const stored = JSON.stringify(await app.store.getSession(s.id));
  for (const value of [QR, OTHER_CPF, '52998224725', before.checks!.results[0]!.externalId!]) assert.equal(stored.includes(value), false);
});

test('a replay is told apart by its reading and proof of address: the same body replays, another is a conflict', async () => {
  const s = await openSession(app, { reference: 'records-replay', cpf: CPF, steps: ['proof-of-address'] });
  const proof = Buffer.from('%PDF-1.4\n%%EOF\n').toString('base64');
  const send = (extra: Record<string, unknown>) =>
    app.request('/v1/onboardings', {
      method: 'POST',
      headers: { authorization: `Bearer ${s.clientSecret}`, 'content-type': 'application/json', 'idempotency-key': 'records-replay-1' },
      body: JSON.stringify(body({ cpf: CPF }, extra)),
    });
  assert.equal((await send({ documentReading: reading, proofOfAddress: proof })).status, 201);
  assert.equal((await send({ documentReading: reading, proofOfAddress: proof })).status, 200);
  const otherReading = await send({ documentReading: { documentFront: { documentKind: 'CNH' } }, proofOfAddress: proof });
  assert.equal(otherReading.status, 409);
  assert.equal(((await otherReading.json()) as { error: { code: string } }).error.code, 'idempotency_conflict');
  const otherProof = await send({ documentReading: reading, proofOfAddress: Buffer.from('%PDF-1.5\n%%EOF\n').toString('base64') });
  assert.equal(otherProof.status, 409);
});
