/**
 * The operator surface end to end: createAdminRoutes mounted at /v1/admin, its upstream a REAL
 * HTTP stand-in on 127.0.0.1, driven through app.request() and over a real socket, the archives
 * opened with zip.js, `unzip` and `7z`.
 */
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import type { Hono } from 'hono';
import type { AdminDeps, AdminOnboardingRecord } from '../src/admin/admin-routes.js';
import { isUpstreamTimeout, upstreamHttpStatus } from '../src/admin/upstream-failure.js';
import type { CompanionEnv } from '../src/http/env.js';
import { createJsonLogger } from '../src/logger.js';
import { HISTORY_ABSENT, type EvidenceManifest, type SupportRequest } from '../src/evidence/index.js';
import {
  ADMIN_KEY,
  STANDIN_ACCESS_TOKEN,
  hostApp,
  memoryStore,
  minimalPdf,
  serveOnSocket,
  standInUpstream,
  startStandIn,
  type StandIn,
  type StandInOnboarding,
} from './admin-standin.js';
import { readWithZipJs, sevenZipExtract, sha256, unzipEntry, unzipTest, withArchiveFile } from './admin-archive-tools.js';
import { eventually } from '@onboarding-kit/testing/deadline';

const T = {
  approved: '6f1d0c2e-1b7a-4c4e-9a51-000000000001',
  error: '6f1d0c2e-1b7a-4c4e-9a51-000000000002',
  report500: '6f1d0c2e-1b7a-4c4e-9a51-000000000003',
  pdfHtml: '6f1d0c2e-1b7a-4c4e-9a51-000000000004',
  pdf403: '6f1d0c2e-1b7a-4c4e-9a51-000000000005',
  bothDown: '6f1d0c2e-1b7a-4c4e-9a51-000000000006',
  slow: '6f1d0c2e-1b7a-4c4e-9a51-000000000007',
  storeUnknown: '6f1d0c2e-1b7a-4c4e-9a51-000000000008',
  lagging: '6f1d0c2e-1b7a-4c4e-9a51-000000000009',
  huge: '6f1d0c2e-1b7a-4c4e-9a51-00000000000a',
  hugePdf: '6f1d0c2e-1b7a-4c4e-9a51-00000000000b',
  // Neither in the store: created by another companion, or forgotten after retention.
  forgottenError: '6f1d0c2e-1b7a-4c4e-9a51-00000000000c',
  forgotten500: '6f1d0c2e-1b7a-4c4e-9a51-00000000000d',
  // Known to nobody, the upstream included.
  nowhere: '6f1d0c2e-1b7a-4c4e-9a51-0000000000ff',
} as const;

/** A report as the upstream sends it: contract members plus internal metadata and nulls. */
function upstreamReport(token: string, status: string, extra: Record<string, unknown> = {}): Record<string, unknown> {
  return {
    tokenOnboarding: token,
    status,
    fields: {
      name: 'Maria Silva',
      cpf: '52998224725',
      motherName: null,
      fieldsOutput: ['name'],
      valid: true,
      documents: [{ type: 'CNH', number: null }],
    },
    services: [{ service: 'SERVICE_OCR', enabled: true }],
    nextStep: 'FINISHED',
    callService: false,
    ...extra,
  };
}

const standInOnboardings: Record<string, StandInOnboarding> = {
  [T.approved]: { report: upstreamReport(T.approved, 'APPROVED'), pdf: { kind: 'tiny' } },
  [T.error]: { report: upstreamReport(T.error, 'ERROR', { externalId: 'ext-err-42' }), pdf: { kind: 'tiny' } },
  [T.report500]: { report: 500, pdf: { kind: 'tiny' } },
  [T.pdfHtml]: { report: upstreamReport(T.pdfHtml, 'REFUSED'), pdf: { kind: 'html' } },
  [T.pdf403]: { report: upstreamReport(T.pdf403, 'REFUSED'), pdf: { kind: 'status', status: 403 } },
  [T.bothDown]: { report: 500, pdf: { kind: 'status', status: 500 } },
  [T.slow]: { report: 'hang', pdf: { kind: 'hang' } },
  [T.storeUnknown]: { report: upstreamReport(T.storeUnknown, 'APPROVED'), pdf: { kind: 'tiny' } },
  [T.lagging]: { report: upstreamReport(T.lagging, 'ERROR', { externalId: 'ext-lag-7' }), pdf: { kind: 'tiny' } },
  [T.huge]: { report: upstreamReport(T.huge, 'APPROVED'), pdf: { kind: 'generated', size: 256 * 1024 * 1024 } },
  [T.hugePdf]: { report: upstreamReport(T.hugePdf, 'APPROVED'), pdf: { kind: 'generated', size: 256 * 1024 * 1024 } },
  [T.forgottenError]: { report: upstreamReport(T.forgottenError, 'ERROR', { externalId: 'ext-gone-9' }), pdf: { kind: 'tiny' } },
  [T.forgotten500]: { report: 500, pdf: { kind: 'tiny' } },
};

const customers: Record<string, Record<string, unknown>[] | 500> = {
  // 111.444.777-35: the customer lookup fails upstream.
  '11144477735': 500,
  '52998224725': [
    {
      tokenCustomer: 'c7a3e0f2-0000-4000-8000-0000000000aa',
      type: 'PF',
      documentKey: '52998224725',
      name: 'Maria Silva',
      addInformation: null,
      active: true,
      imageUrl: null,
      fieldsOutput: ['x'],
      valid: true,
    },
  ],
};

function record(token: string, status: string, history: AdminOnboardingRecord['history'], externalId?: string): AdminOnboardingRecord {
  return {
    tokenOnboarding: token,
    status,
    createdAt: history[0]!.at,
    updatedAt: history.at(-1)!.at,
    history,
    ...(externalId && { externalId }),
  };
}
const h = (status: string, at: string, source: 'creation' | 'webhook' | 'poll') => ({ status, at, source });
const records: AdminOnboardingRecord[] = [
  record(T.approved, 'APPROVED', [
    h('IN_PROCESS', '2026-11-20T10:00:00.000Z', 'creation'),
    h('APPROVED', '2026-11-20T10:00:03.100Z', 'webhook'),
  ]),
  record(
    T.error,
    'ERROR',
    [
      h('IN_PROCESS', '2026-11-20T11:00:00.000Z', 'creation'),
      h('IN_PROCESS', '2026-11-20T11:00:05.000Z', 'poll'),
      h('ERROR', '2026-11-20T11:00:09.500Z', 'poll'),
    ],
    'ext-err-42',
  ),
  record(T.report500, 'APPROVED', [
    h('IN_PROCESS', '2026-11-20T12:00:00.000Z', 'creation'),
    h('APPROVED', '2026-11-20T12:00:04.000Z', 'webhook'),
  ]),
  record(T.pdfHtml, 'REFUSED', [
    h('IN_PROCESS', '2026-11-20T13:00:00.000Z', 'creation'),
    h('REFUSED', '2026-11-20T13:00:04.000Z', 'webhook'),
  ]),
  record(T.pdf403, 'REFUSED', [
    h('IN_PROCESS', '2026-11-20T13:10:00.000Z', 'creation'),
    h('REFUSED', '2026-11-20T13:10:04.000Z', 'webhook'),
  ]),
  record(T.bothDown, 'APPROVED', [
    h('IN_PROCESS', '2026-11-20T14:00:00.000Z', 'creation'),
    h('APPROVED', '2026-11-20T14:00:04.000Z', 'webhook'),
  ]),
  record(T.slow, 'APPROVED', [
    h('IN_PROCESS', '2026-11-20T15:00:00.000Z', 'creation'),
    h('APPROVED', '2026-11-20T15:00:04.000Z', 'webhook'),
  ]),
  record(T.lagging, 'IN_PROCESS', [h('IN_PROCESS', '2026-11-20T16:00:00.000Z', 'creation')]),
  record(T.huge, 'APPROVED', [
    h('IN_PROCESS', '2026-11-20T17:00:00.000Z', 'creation'),
    h('APPROVED', '2026-11-20T17:00:04.000Z', 'webhook'),
  ]),
  record(T.hugePdf, 'APPROVED', [
    h('IN_PROCESS', '2026-11-20T17:00:00.000Z', 'creation'),
    h('APPROVED', '2026-11-20T17:00:04.000Z', 'webhook'),
  ]),
];

const PASSWORD = 'correct horse battery staple';
/** The archive in the clear, as an operator may still ask for it. */
const PLAIN = { encrypt: false };
const PAGE_ACCESS_KEY = randomBytes(32).toString('base64url');

let standIn: StandIn;
let deps: AdminDeps;
let app: Hono<CompanionEnv>;
let socket: { url: string; close(): Promise<void> };
/** Same routes with a short upstream timeout, for the 504 cases; the main app's is generous so a busy machine never times out. */
let impatientApp: Hono<CompanionEnv>;
let impatientSocket: { url: string; close(): Promise<void> };

before(async () => {
  standIn = await startStandIn(standInOnboardings, customers);
  deps = {
    adminKey: ADMIN_KEY,
    environment: 'test',
    kitVersion: '0.1.0-test',
    // Generous: the main app's calls never race it, and only a disconnect can end a transfer early.
    upstream: standInUpstream(standIn.url, 120_000),
    store: memoryStore(records),
  };
  app = hostApp(deps);
  socket = await serveOnSocket(app);
  impatientApp = hostApp({ ...deps, upstream: standInUpstream(standIn.url, 300) });
  impatientSocket = await serveOnSocket(impatientApp);
});
after(async () => {
  await socket.close();
  await impatientSocket.close();
  await standIn.close();
});

type Call = (path: string, init?: RequestInit & { key?: string | null }) => Promise<Response>;
const withKey = (init: RequestInit & { key?: string | null } = {}): RequestInit => {
  const headers = new Headers(init.headers);
  const key = init.key === undefined ? ADMIN_KEY : init.key;
  if (key !== null) headers.set('authorization', `Bearer ${key}`);
  const { key: _key, ...rest } = init;
  return { ...rest, headers };
};
const modes: Record<string, { call: Call; impatient: Call }> = {
  'app.request()': {
    call: (path, init) => Promise.resolve(app.request(`/v1/admin${path}`, withKey(init))),
    impatient: (path, init) => Promise.resolve(impatientApp.request(`/v1/admin${path}`, withKey(init))),
  },
  'real socket': {
    call: (path, init) => fetch(`${socket.url}/v1/admin${path}`, withKey(init)),
    impatient: (path, init) => fetch(`${impatientSocket.url}/v1/admin${path}`, withKey(init)),
  },
};

/** Upstream requests made while `run` ran. */
async function upstreamCalls(run: () => Promise<void>): Promise<string[]> {
  const before = standIn.requests.length;
  await run();
  return standIn.requests.slice(before);
}

async function expectError(res: Response, status: number, code: string): Promise<Record<string, unknown>> {
  assert.equal(res.status, status);
  assert.match(res.headers.get('content-type') ?? '', /application\/json/);
  assert.equal(res.headers.get('cache-control'), 'no-store');
  const text = await res.text();
  for (const secret of [ADMIN_KEY, STANDIN_ACCESS_TOKEN, PAGE_ACCESS_KEY, PASSWORD, standIn.url]) {
    assert.ok(!text.includes(secret), `error body leaks a secret or the upstream address: ${text}`);
  }
  const body = JSON.parse(text) as { error: Record<string, unknown> };
  assert.equal(body.error.code, code);
  assert.equal(typeof body.error.message, 'string');
  assert.deepEqual(Object.keys(body).sort(), ['error']);
  for (const key of Object.keys(body.error))
    assert.ok(['code', 'message', 'field', 'externalId', 'upstream'].includes(key), `unexpected error member ${key}`);
  if (body.error.upstream !== undefined) {
    assert.match(code, /^upstream_/, 'only upstream failures carry `upstream`');
    for (const key of Object.keys(body.error.upstream as object))
      assert.ok(['type', 'status', 'code', 'message'].includes(key), `unexpected upstream member ${key}`);
  }
  return body.error;
}

const postEvidence = (call: Call, token: string, body?: unknown, init: { key?: string | null; raw?: string } = {}) =>
  call(`/onboardings/${token}/evidence`, {
    method: 'POST',
    ...(init.key !== undefined && { key: init.key }),
    ...((body !== undefined || init.raw !== undefined) && {
      headers: { 'content-type': 'application/json' },
      body: init.raw ?? JSON.stringify(body),
    }),
  });

const bytesOf = async (res: Response) => new Uint8Array(await res.arrayBuffer());
const text = (bytes: Uint8Array | undefined) => new TextDecoder().decode(bytes);
const jsonOf = <T>(bytes: Uint8Array | undefined): T => JSON.parse(text(bytes)) as T;

/** Every hash and size in the manifest matches the entry, and every entry but the manifest is listed. */
function assertManifestMatches(files: Map<string, Uint8Array>): EvidenceManifest {
  const manifest = jsonOf<EvidenceManifest>(files.get('manifest.json'));
  assert.deepEqual(manifest.files.map((f) => f.name).sort(), [...files.keys()].filter((n) => n !== 'manifest.json').sort());
  for (const file of manifest.files) {
    const bytes = files.get(file.name);
    assert.ok(bytes, `${file.name} listed but absent`);
    assert.equal(file.size, bytes.byteLength, `${file.name} size`);
    assert.match(file.sha256, /^[0-9a-f]{64}$/);
    assert.equal(file.sha256, sha256(bytes), `${file.name} sha256`);
  }
  return manifest;
}

test('createAdminRoutes refuses to build without an admin key or API keys', () => {
  assert.throws(() => hostApp({ ...deps, adminKey: '' }), /adminKey or apiKeys/);
});

for (const [mode, { call, impatient }] of Object.entries(modes)) {
  describe(`admin routes via ${mode}`, () => {
    test('missing, wrong, malformed and page keys are 401 with the error shape, and nothing goes upstream', async () => {
      const calls = await upstreamCalls(async () => {
        for (const key of [null, 'wrong-key', PAGE_ACCESS_KEY, '', `${ADMIN_KEY}x`, ADMIN_KEY.slice(0, -1)]) {
          const res = await call(`/onboardings/${T.approved}`, { key });
          const error = await expectError(res, 401, 'unauthorized');
          assert.equal(error.field, undefined);
          assert.match(res.headers.get('www-authenticate') ?? '', /^Bearer/);
        }
        // Right key in the wrong scheme, and an unknown admin path without a key.
        await expectError(
          await call(`/onboardings/${T.approved}`, { key: null, headers: { authorization: `Basic ${ADMIN_KEY}` } }),
          401,
          'unauthorized',
        );
        await expectError(await call('/no-such-route', { key: null }), 401, 'unauthorized');
        await expectError(await call(`/onboardings/${T.approved}/report.pdf`, { key: PAGE_ACCESS_KEY }), 401, 'unauthorized');
        await expectError(await postEvidence(call, T.approved, {}, { key: PAGE_ACCESS_KEY }), 401, 'unauthorized');
        await expectError(await call('/customers?documentKey=52998224725', { key: PAGE_ACCESS_KEY }), 401, 'unauthorized');
      });
      assert.deepEqual(calls, []);
    });

    test('GET /onboardings/:token answers the upstream report without non-contract fields or nulls, its services member as sent', async () => {
      const res = await call(`/onboardings/${T.approved}`);
      assert.equal(res.status, 200);
      assert.equal(res.headers.get('cache-control'), 'no-store');
      assert.deepEqual(await res.json(), {
        tokenOnboarding: T.approved,
        status: 'APPROVED',
        fields: { name: 'Maria Silva', cpf: '52998224725', documents: [{ type: 'CNH' }] },
        services: [{ service: 'SERVICE_OCR', enabled: true }],
      });
    });

    test('a token the store does not know is served from the upstream, its status history marked absent', async () => {
      const report = await call(`/onboardings/${T.storeUnknown}`);
      assert.equal(report.status, 200);
      assert.deepEqual(await report.json(), {
        tokenOnboarding: T.storeUnknown,
        status: 'APPROVED',
        fields: { name: 'Maria Silva', cpf: '52998224725', documents: [{ type: 'CNH' }] },
        services: [{ service: 'SERVICE_OCR', enabled: true }],
      });
      const pdf = await call(`/onboardings/${T.storeUnknown}/report.pdf`);
      assert.equal(pdf.status, 200);
      assert.deepEqual(await bytesOf(pdf), minimalPdf(`Report ${T.storeUnknown}`));

      const res = await postEvidence(call, T.storeUnknown, PLAIN);
      assert.equal(res.status, 200);
      const { files, names } = await readWithZipJs(await bytesOf(res));
      assert.deepEqual(names, ['report.json', 'report.pdf', 'manifest.json']);
      const manifest = assertManifestMatches(files);
      assert.equal(manifest.status, 'APPROVED', "the status is the upstream report's");
      assert.equal(manifest.createdAt, undefined, 'no creation time is made up');
      assert.deepEqual(manifest.gaps, [{ name: 'status-history.json', reason: HISTORY_ABSENT }]);
    });

    test('a forgotten ERROR gets support.json with the upstream externalId and the archive time', async () => {
      const { files } = await readWithZipJs(await bytesOf(await postEvidence(call, T.forgottenError, PLAIN)));
      const manifest = assertManifestMatches(files);
      assert.equal(manifest.status, 'ERROR');
      assert.equal(manifest.externalId, 'ext-gone-9');
      const support = jsonOf<SupportRequest>(files.get('support.json'));
      assert.equal(support.externalId, 'ext-gone-9');
      assert.equal(support.time, manifest.archivedAt);
      assert.ok(!files.has('status-history.json'));
    });

    test('a token neither the store nor the upstream knows is 404 not_found; one that cannot be a token never goes upstream', async () => {
      await expectError(await call(`/onboardings/${T.nowhere}`), 404, 'not_found');
      await expectError(await call(`/onboardings/${T.nowhere}/report.pdf`), 404, 'not_found');
      await expectError(await postEvidence(call, T.nowhere, {}), 404, 'not_found');
      const calls = await upstreamCalls(async () => {
        await expectError(await call(`/onboardings/${'a'.repeat(129)}`), 404, 'not_found');
        await expectError(await call('/onboardings/a%20b/report.pdf'), 404, 'not_found');
        await expectError(await postEvidence(call, 'a%2Fb', {}), 404, 'not_found');
      });
      assert.deepEqual(calls, []);
    });

    test('a forgotten token whose report fails upstream is 502/504, never an archive without a status', async () => {
      await expectError(await call(`/onboardings/${T.forgotten500}`), 502, 'upstream_error');
      await expectError(await postEvidence(call, T.forgotten500, {}), 502, 'upstream_error');
      // The PDF alone needs no status: it is served.
      assert.equal((await call(`/onboardings/${T.forgotten500}/report.pdf`)).status, 200);
    });

    test('upstream failures are 502 upstream_error and 504 upstream_timeout, with the upstream status but nothing of its body', async () => {
      const e502 = await expectError(await call(`/onboardings/${T.report500}`), 502, 'upstream_error');
      assert.match(String(e502.message), /HTTP 500/);
      assert.equal((e502.upstream as { type: string; status: number }).type, 'unavailable');
      assert.equal((e502.upstream as { type: string; status: number }).status, 500);
      await expectError(await impatient(`/onboardings/${T.slow}`), 504, 'upstream_timeout');
      await expectError(await impatient(`/onboardings/${T.slow}/report.pdf`), 504, 'upstream_timeout');
    });

    test('GET /onboardings/:token/report.pdf streams the upstream PDF', async () => {
      const res = await call(`/onboardings/${T.approved}/report.pdf`);
      assert.equal(res.status, 200);
      assert.equal(res.headers.get('content-type'), 'application/pdf');
      const bytes = await bytesOf(res);
      assert.deepEqual(bytes, minimalPdf(`Report ${T.approved}`));
      assert.equal(text(bytes.subarray(0, 5)), '%PDF-');
    });

    test('report.pdf that is not a PDF, or refused upstream, is 502', async () => {
      const notPdf = await expectError(await call(`/onboardings/${T.pdfHtml}/report.pdf`), 502, 'upstream_error');
      assert.match(String(notPdf.message), /%PDF/);
      assert.deepEqual(notPdf.upstream, { type: 'unknown' }, 'every upstream_* answer says why, as far as it knows');
      await expectError(await call(`/onboardings/${T.pdf403}/report.pdf`), 502, 'upstream_error');
    });

    test('GET /customers checks the documentKey, asks the upstream by its digits and strips the answer', async () => {
      const calls = await upstreamCalls(async () => {
        const res = await call('/customers?documentKey=529.982.247-25');
        assert.equal(res.status, 200);
        assert.deepEqual(await res.json(), [
          {
            tokenCustomer: 'c7a3e0f2-0000-4000-8000-0000000000aa',
            type: 'PF',
            documentKey: '52998224725',
            name: 'Maria Silva',
            active: true,
          },
        ]);
      });
      assert.deepEqual(calls, ['/api/customer?documentKey=52998224725']);
      const none = await call('/customers?documentKey=11.222.333/0001-81');
      assert.deepEqual(await none.json(), []);
      const failed = await expectError(await call('/customers?documentKey=111.444.777-35'), 502, 'upstream_error');
      assert.match(String(failed.message), /customer lookup: HTTP 500/);
    });

    test('GET /customers with a missing or invalid documentKey is 400 and nothing goes upstream', async () => {
      const calls = await upstreamCalls(async () => {
        for (const query of [
          '',
          '?documentKey=',
          '?documentKey=529.982.247-24',
          '?documentKey=11111111111',
          '?documentKey=abc',
          '?documentKey=11.222.333/0001-80',
        ]) {
          const error = await expectError(await call(`/customers${query}`), 400, query.length > 13 ? 'invalid_field' : 'missing_tax_id');
          assert.equal(error.field, 'documentKey');
        }
      });
      assert.deepEqual(calls, []);
    });

    test('POST evidence with "encrypt": false: a plain archive that zip.js, unzip -t and unzip -p open, hashes matching', async () => {
      const res = await postEvidence(call, T.approved, PLAIN);
      assert.equal(res.status, 200);
      assert.equal(res.headers.get('content-type'), 'application/zip');
      assert.equal(res.headers.get('content-disposition'), `attachment; filename="evidence-${T.approved}.zip"`);
      const zip = await bytesOf(res);

      const { files, names, encrypted } = await readWithZipJs(zip);
      assert.deepEqual(names, ['report.json', 'report.pdf', 'status-history.json', 'manifest.json']);
      assert.ok(encrypted.every((e) => !e));
      const manifest = assertManifestMatches(files);
      assert.equal(manifest.format, 'onboarding-kit-evidence/1');
      assert.equal(manifest.tokenOnboarding, T.approved);
      assert.equal(manifest.environment, 'test');
      assert.equal(manifest.kitVersion, '0.1.0-test');
      assert.equal(manifest.status, 'APPROVED');
      assert.equal(manifest.createdAt, '2026-11-20T10:00:00.000Z');
      assert.ok(!Number.isNaN(Date.parse(manifest.archivedAt)));
      assert.equal(manifest.encryption, 'none');
      assert.deepEqual(manifest.gaps, []);
      assert.equal(manifest.externalId, undefined);
      assert.deepEqual(files.get('report.pdf'), minimalPdf(`Report ${T.approved}`));
      assert.deepEqual(jsonOf(files.get('report.json')), {
        tokenOnboarding: T.approved,
        status: 'APPROVED',
        fields: { name: 'Maria Silva', cpf: '52998224725', documents: [{ type: 'CNH' }] },
        services: [{ service: 'SERVICE_OCR', enabled: true }],
      });
      assert.deepEqual(jsonOf(files.get('status-history.json')), records[0]!.history);

      await withArchiveFile(zip, async (file) => {
        assert.match(await unzipTest(file), /No errors detected/);
        for (const name of names) assert.deepEqual(await unzipEntry(file, name), files.get(name), `unzip -p ${name}`);
      });
    });

    test('POST evidence without a body, or with {}: AES-256 with a generated passphrase, sent once in Evidence-Password', async () => {
      const seen = new Set<string>();
      for (const body of [undefined, {}]) {
        const res = await postEvidence(call, T.approved, body);
        assert.equal(res.status, 200);
        const password = res.headers.get('evidence-password');
        assert.ok(password && /^[a-km-np-z2-9]{24}$/.test(password), String(password));
        seen.add(password);
        const zip = await bytesOf(res);
        const { files, encrypted } = await readWithZipJs(zip, password);
        assert.ok(encrypted.every(Boolean));
        assert.equal(assertManifestMatches(files).encryption, 'AES-256');
        await assert.rejects(readWithZipJs(zip));
      }
      assert.equal(seen.size, 2, 'a new passphrase for each archive');
      // A chosen passphrase is the caller's own: it is never sent back.
      assert.equal((await postEvidence(call, T.approved, { password: PASSWORD })).headers.get('evidence-password'), null);
    });

    test('POST evidence with a password: AES-256 entries that 7z opens, a wrong password fails in 7z and zip.js', async () => {
      const res = await postEvidence(call, T.error, { password: PASSWORD });
      assert.equal(res.status, 200);
      const zip = await bytesOf(res);

      const { files, names, encrypted } = await readWithZipJs(zip, PASSWORD);
      assert.deepEqual(names, ['report.json', 'report.pdf', 'status-history.json', 'support.json', 'manifest.json']);
      assert.ok(encrypted.every(Boolean), 'every entry is encrypted, the manifest included');
      const manifest = assertManifestMatches(files);
      assert.equal(manifest.encryption, 'AES-256');
      assert.equal(manifest.externalId, 'ext-err-42');
      // Nothing readable in the clear: not the report, not the PDF header.
      assert.ok(!Buffer.from(zip).includes('Maria Silva') && !Buffer.from(zip).includes('%PDF'));

      await assert.rejects(readWithZipJs(zip, 'not the right password'));
      await assert.rejects(readWithZipJs(zip));

      await withArchiveFile(zip, async (file, dir) => {
        const extracted = await sevenZipExtract(file, dir, PASSWORD, names);
        for (const name of names) assert.deepEqual(extracted.get(name), files.get(name), `7z ${name}`);
        await assert.rejects(sevenZipExtract(file, dir, 'wrong password 123', names));
      });
    });

    test('POST evidence for ERROR adds support.json with externalId, time, environment, service, token', async () => {
      const zip = await bytesOf(await postEvidence(call, T.error, PLAIN));
      const { files } = await readWithZipJs(zip);
      assertManifestMatches(files);
      const support = jsonOf<SupportRequest>(files.get('support.json'));
      assert.equal(support.tokenOnboarding, T.error);
      assert.equal(support.externalId, 'ext-err-42');
      assert.equal(support.time, '2026-11-20T11:00:09.500Z');
      assert.equal(support.environment, 'test');
      assert.equal(support.service, 'onboarding');
      assert.equal(support.status, 'ERROR');
      assert.deepEqual(jsonOf(files.get('status-history.json')), records[1]!.history);
    });

    test('POST evidence while the store lags behind the upstream takes the upstream decision and externalId', async () => {
      const { files } = await readWithZipJs(await bytesOf(await postEvidence(call, T.lagging, PLAIN)));
      const manifest = assertManifestMatches(files);
      assert.equal(manifest.status, 'ERROR');
      assert.equal(manifest.externalId, 'ext-lag-7');
      assert.equal(jsonOf<SupportRequest>(files.get('support.json')).externalId, 'ext-lag-7');
    });

    test('POST evidence when the upstream report 500s: the archive is still made, the gap recorded', async () => {
      const res = await postEvidence(call, T.report500, PLAIN);
      assert.equal(res.status, 200);
      const zip = await bytesOf(res);
      const { files } = await readWithZipJs(zip);
      assert.ok(!files.has('report.json'));
      const manifest = assertManifestMatches(files);
      assert.deepEqual(manifest.gaps, [{ name: 'report.json', reason: 'report unavailable upstream: HTTP 500' }]);
      assert.deepEqual(files.get('report.pdf'), minimalPdf(`Report ${T.report500}`));
      await withArchiveFile(zip, async (file) => assert.match(await unzipTest(file), /No errors detected/));
    });

    test('POST evidence when the PDF is not a PDF or refused: archive without it, the gap recorded', async () => {
      for (const [token, reason] of [
        [T.pdfHtml, 'the upstream answer does not start with %PDF'],
        [T.pdf403, 'PDF unavailable upstream: HTTP 403'],
      ] as const) {
        const { files } = await readWithZipJs(await bytesOf(await postEvidence(call, token, PLAIN)));
        assert.ok(!files.has('report.pdf'));
        assert.ok(files.has('report.json'));
        assert.deepEqual(assertManifestMatches(files).gaps, [{ name: 'report.pdf', reason }]);
      }
    });

    test('POST evidence with neither report nor PDF upstream is 502 (or 504 when both time out)', async () => {
      await expectError(await postEvidence(call, T.bothDown), 502, 'upstream_error');
      await expectError(await postEvidence(impatient, T.slow), 504, 'upstream_timeout');
    });

    test('POST evidence refuses bad bodies and short passwords with 400 before anything goes upstream', async () => {
      const calls = await upstreamCalls(async () => {
        for (const password of ['', 'short', '12345678901', 'twelve chars ok', 'Administrator!2024', 'aaaaaaaaaaaaaaaaaaaa', 42, null]) {
          const error = await expectError(await postEvidence(call, T.approved, { password }), 400, 'invalid_password');
          assert.equal(error.field, 'password');
        }
        await expectError(await postEvidence(call, T.approved, undefined, { raw: '{"password": ' }), 400, 'invalid_json');
        await expectError(await postEvidence(call, T.approved, undefined, { raw: '["x"]' }), 400, 'invalid_request');
        await expectError(await postEvidence(call, T.approved, { encrypt: 'no' }), 400, 'invalid_request');
        await expectError(await postEvidence(call, T.approved, { encrypt: false, password: PASSWORD }), 400, 'invalid_request');
        await expectError(
          await postEvidence(call, T.approved, undefined, { raw: JSON.stringify({ password: 'x'.repeat(9000) }) }),
          413,
          'payload_too_large',
        );
        // The password check comes before the store: an unknown token with a short password is 400.
        await expectError(await postEvidence(call, T.storeUnknown, { password: 'short' }), 400, 'invalid_password');
      });
      assert.deepEqual(calls, []);
    });
  });
}

for (const [what, token, method, path] of [
  ['evidence archive', T.huge, 'POST', `/onboardings/${T.huge}/evidence`],
  ['PDF', T.hugePdf, 'GET', `/onboardings/${T.hugePdf}/report.pdf`],
] as const) {
  test(`an operator who abandons the ${what} download over a real socket stops the upstream PDF transfer too`, async () => {
    const abort = new AbortController();
    const res = await fetch(`${socket.url}/v1/admin${path}`, {
      method,
      headers: { authorization: `Bearer ${ADMIN_KEY}` },
      signal: abort.signal,
    });
    assert.equal(res.status, 200);
    const reader = res.body!.getReader();
    let received = 0;
    while (received < 1024 * 1024) received += (await reader.read()).value?.byteLength ?? 0;
    abort.abort();
    await reader.cancel().catch(() => {});
    // The main app's upstream limit is 2 min: within this minute only the disconnect can end the transfer.
    await eventually(() => standIn.pdfAbandoned.has(token), 'the upstream PDF download was never abandoned', { ms: 60_000 });
    assert.ok(!standIn.pdfSent.has(token), 'the 256 MiB PDF was not read to the end');
  });
}

test('a failing store is 500 internal_error, and what it threw never reaches the body', async () => {
  const leaky = hostApp({
    ...deps,
    store: {
      get: async () => {
        throw new Error('connect ECONNREFUSED redis://admin:hunter2-store-password@10.0.0.5:6379');
      },
    },
  });
  const res = await leaky.request(`/v1/admin/onboardings/${T.approved}`, { headers: { authorization: `Bearer ${ADMIN_KEY}` } });
  const error = await expectError(res, 500, 'internal_error');
  assert.ok(!JSON.stringify(error).includes('hunter2') && !JSON.stringify(error).includes('redis'));

  // The cause goes to the companion's (redacting) log, never to the body.
  const lines: string[] = [];
  const logged = hostApp(
    {
      ...deps,
      store: {
        get: async () => {
          throw new Error('store down');
        },
      },
    },
    createJsonLogger({ sink: (l) => lines.push(l) }),
  );
  await expectError(
    await logged.request(`/v1/admin/onboardings/${T.approved}`, { headers: { authorization: `Bearer ${ADMIN_KEY}` } }),
    500,
    'internal_error',
  );
  assert.equal(lines.length, 1);
  assert.match(lines[0]!, /unexpected error/);
  assert.match(lines[0]!, /store down/);
});

test('upstream failures are recognised by shape: timeouts (fetch, undici, the companion client) and HTTP statuses', () => {
  const companionTimeout = Object.assign(new Error('no answer'), {
    name: 'UpstreamError',
    kind: 'timeout',
    operation: 'GET /api/onboarding/report/{token}',
  });
  const companionFailed = Object.assign(new Error('failed'), { name: 'UpstreamError', kind: 'failed', httpStatus: 500, code: 500 });
  assert.equal(isUpstreamTimeout(companionTimeout), true);
  assert.equal(isUpstreamTimeout(new DOMException('late', 'TimeoutError')), true);
  assert.equal(
    isUpstreamTimeout(new Error('fetch failed', { cause: Object.assign(new Error('x'), { code: 'UND_ERR_HEADERS_TIMEOUT' }) })),
    true,
  );
  assert.equal(isUpstreamTimeout(Object.assign(new Error('gw'), { status: 504 })), true);
  assert.equal(isUpstreamTimeout(companionFailed), false);
  assert.equal(isUpstreamTimeout(new Error('ECONNRESET')), false);
  assert.equal(upstreamHttpStatus(companionFailed), 500);
  assert.equal(upstreamHttpStatus(new Error('x', { cause: { response: { status: 403 } } })), 403);
  assert.equal(upstreamHttpStatus(new Error('x')), undefined);
});
