/**
 * A session's instant checks and document reading in a store (docs/backend-api.md#checks): kept
 * with the session and read back whole from any instance, applied by compare-and-set so racing
 * instances apply a result once, sealed at rest with the session's other personal data, gone with
 * a redaction; a session's inspection is a query request that names its session.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { CheckResult, DocumentReading } from '@onboarding-kit/contract';
import type { SessionRecord } from '../../src/store/backend-state.js';
import { applyCheckResult, pendingChecks } from '../../src/store/rules/checks.js';
import { redactedSession } from '../../src/store/rules/redaction.js';
import { START, iso, secretsOf, session, type Harness } from './harness.js';

const OCR_CPF = '31827465026';
const OCR_NAME = 'Benedita Quitéria Albuquerque';
const MRZ_LINE = 'I<BRA987654321<0<<<<<<<<<<<<<<';
const QR = Buffer.from(`CNH|${OCR_CPF}|${OCR_NAME}`).toString('base64');
const KEY = '0b1c2d3e-4f5a-4b6c-8d7e-9f0a1b2c3d4e';
const keyText = (id: string, fill: number) => `${id}:${Buffer.alloc(32, fill).toString('base64')}`;

const reading: DocumentReading = {
  documentFront: { qr: { payloadBase64: QR }, documentKind: 'CNH' },
  documentBack: {
    mrz: {
      format: 'TD1',
      lines: [MRZ_LINE, '9001011M3001012BRA<<<<<<<<<<<8', 'ALBUQUERQUE<<BENEDITA<<<<<<<<<'],
      fields: { documentNumber: '987654321', cpf: OCR_CPF },
      checks: [{ field: 'documentNumber', valid: true }],
      valid: true,
    },
  },
};
const ocrDone: CheckResult = {
  check: 'ocr',
  service: 'SERVICE_OCR',
  state: 'done',
  outcome: 'success',
  result: { cpf: OCR_CPF, name: OCR_NAME },
  externalId: 'a1b2c3d4-0000-4000-8000-000000000001',
  requestedAt: iso(START),
  completedAt: iso(START + 1_000),
};

const checked = (id: string): SessionRecord =>
  session(id, {
    status: 'submitted',
    tokenOnboarding: `tok-${id}`,
    steps: ['proof-of-address'],
    prefillFromDocument: true,
    checks: pendingChecks(['ocr', 'face_match'], iso(START)),
    documentReading: reading,
    documentPrefill: { attempts: 1, ocr: { frontSha256: 'ab'.repeat(32), result: ocrDone } },
  });

export function describeSessionChecks({ withBackend }: Harness): void {
  test('checks: a session keeps its checks, steps, prefill and reading, read back whole from another instance', async () => {
    await withBackend(async (a, { peer }) => {
      const b = await peer();
      const s = checked('ses_checks_1');
      await a.createSession(structuredClone(s), secretsOf(s.id));
      assert.deepEqual(await b.getSession(s.id), s);
      const next = { ...applyCheckResult(s, ocrDone)!, version: 2 };
      assert.equal(await b.replaceSession(structuredClone(next), 1), true);
      assert.deepEqual(await a.getSession(s.id), next);
      assert.deepEqual(await a.listSessions({ limit: 10 }), [next]);
    });
  });

  test('checks: two instances applying results to one session by compare-and-set: one wins each version, none is lost', async () => {
    await withBackend(async (a, { peer }) => {
      const b = await peer();
      const s = checked('ses_checks_race');
      await a.createSession(structuredClone(s), secretsOf(s.id));
      const face: CheckResult = { ...ocrDone, check: 'face_match', service: 'SERVICE_FACE_MATCH', result: { match: true } };
      const write = async (store: typeof a, result: CheckResult) => {
        for (;;) {
          const current = (await store.getSession(s.id))!;
          const next = applyCheckResult(current, result);
          if (!next) return;
          if (await store.replaceSession({ ...next, version: current.version + 1 }, current.version)) return;
        }
      };
      await Promise.all([write(a, ocrDone), write(b, face)]);
      const stored = (await a.getSession(s.id))!;
      assert.deepEqual(
        stored.checks!.results.map((r) => r.state),
        ['done', 'done'],
      );
      assert.equal(stored.version, 3);
      assert.ok(stored.checks!.completedAt);
    });
  });

  test('checks: with a data key, the results, the reading and the prefill are sealed in the stored state', async () => {
    await withBackend(
      async (a, { rawState, peer }) => {
        const s = { ...checked('ses_checks_sealed'), checks: { ...pendingChecks(['ocr'], iso(START)), results: [ocrDone] } };
        await a.createSession(structuredClone(s), secretsOf(s.id));
        const raw = await rawState();
        for (const [what, value] of [
          ['OCR CPF', OCR_CPF],
          ['OCR name', OCR_NAME],
          ['MRZ line', MRZ_LINE],
          ['QR payload', QR],
          ['externalId', ocrDone.externalId!],
        ] as const)
          assert.equal(raw.includes(value), false, `the ${what} is not in the stored state in plain text`);
        assert.deepEqual(await (await peer({ dataKey: keyText('k1', 1) })).getSession(s.id), s);
      },
      { dataKey: keyText('k1', 1) },
    );
  });

  test('checks: a redaction leaves where each check stood, never a result, the reading or the prefill', async () => {
    await withBackend(async (a, { rawState }) => {
      const s = applyCheckResult(checked('ses_checks_redact'), ocrDone)!;
      await a.createSession(structuredClone(s), secretsOf(s.id));
      assert.equal(await a.replaceSession({ ...redactedSession(s, iso(START + 5_000)), version: 2 }, 1), true);
      // As a redaction does: then whatever the rewrite left in the store's files is cleaned away.
      await a.revokeSessionAccess(s.id);
      const stored = (await a.getSession(s.id))!;
      assert.equal(stored.documentReading, undefined);
      assert.equal(stored.documentPrefill, undefined);
      assert.deepEqual(stored.steps, ['proof-of-address']);
      assert.deepEqual(
        stored.checks!.results.map((r) => [r.check, r.state, r.result, r.externalId]),
        [
          ['ocr', 'done', undefined, undefined],
          ['face_match', 'pending', undefined, undefined],
        ],
      );
      const raw = await rawState();
      for (const value of [OCR_CPF, OCR_NAME, MRZ_LINE, QR]) assert.equal(raw.includes(value), false, `${value} erased`);
    });
  });

  test("checks: a session's inspection is a query request naming its session, due and ended like any other", async () => {
    await withBackend(async (a, { peer }) => {
      const b = await peer();
      const request = {
        id: 'qry_00000000000000000000000000000c01',
        service: 'SERVICE_DIGITAL_DOCUMENTOSCOPY',
        status: 'pending' as const,
        createdAt: iso(START),
        key: KEY,
        sessionId: 'ses_checks_1',
        nextCheckMs: START + 100,
        checks: 0,
      };
      assert.equal(await a.insertQueryRequest(structuredClone(request)), true);
      assert.deepEqual(await b.dueQueryRequests(START + 100, 10), [request]);
      assert.deepEqual(await b.findQueryRequestByKey(KEY), request);
      assert.equal(await b.finishQueryRequest(request.id, { status: 'completed', completedAt: iso(START + 200) }), true);
      const { nextCheckMs: _n, ...rest } = request;
      assert.deepEqual(await a.getQueryRequest(request.id), { ...rest, status: 'completed', completedAt: iso(START + 200) });
    });
  });
}
