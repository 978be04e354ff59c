/**
 * buildEvidenceArchive on its own: what it puts in the archive, how it treats a source that is not
 * a PDF or breaks off, passwords, cancellation. Archives are opened with zip.js and `unzip`.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import {
  assertEvidencePassword,
  buildEvidenceArchive,
  measuringStream,
  peekPdf,
  type EvidenceInput,
  type EvidenceManifest,
} from '../src/evidence/index.js';
import { CompanionError } from '../src/http/companion-error.js';
import { minimalPdf, generatedPdfChunks } from './admin-standin.js';
import { readWithZipJs, sha256, unzipTest, withArchiveFile } from './admin-archive-tools.js';
import { eventually } from '@onboarding-kit/testing/deadline';

const PASSWORD = 'sixteen chars, and then some';

/** A source stream over chunks that records whether it was cancelled and can fail after `failAfter` chunks. */
function source(chunks: Iterable<Uint8Array>, failAfter = Infinity) {
  const state = { cancelled: false, pulled: 0 };
  const iterator = chunks[Symbol.iterator]();
  const stream = new ReadableStream<Uint8Array>(
    {
      pull(controller) {
        if (state.pulled++ >= failAfter) return controller.error(new Error('upstream connection reset'));
        const next = iterator.next();
        if (next.done) controller.close();
        else controller.enqueue(next.value);
      },
      cancel() {
        state.cancelled = true;
      },
    },
    { highWaterMark: 0 },
  );
  return { stream, state };
}

function input(overrides: Partial<EvidenceInput> = {}): EvidenceInput {
  return {
    tokenOnboarding: 'tok-1',
    environment: 'production',
    createdAt: '2026-11-20T10:00:00.000Z',
    kitVersion: '1.2.3',
    report: { tokenOnboarding: 'tok-1', status: 'APPROVED', fields: { name: 'Ana', nickname: null, fieldsOutput: [] }, nextStep: 'x' },
    pdf: source([minimalPdf()]).stream,
    history: [
      { status: 'IN_PROCESS', at: '2026-11-20T10:00:00.000Z', source: 'creation' },
      { status: 'APPROVED', at: '2026-11-20T10:00:04.000Z', source: 'poll' },
    ],
    status: 'APPROVED',
    ...overrides,
  };
}

async function collect(stream: ReadableStream<Uint8Array>): Promise<Uint8Array> {
  return new Uint8Array(await new Response(stream).arrayBuffer());
}

const ANIMALS = '🐱🐶🦊🐻🐼🐨🐯🦁🐮🐷🐸🐵🐔🐧🐦🐤';

test('passwords: empty, short, weak and non-string are refused at once with the companion error (400 invalid_password)', () => {
  // Fifteen animals are 30 UTF-16 units but 15 characters: counted as code points, too short.
  for (const password of [
    '',
    'a',
    '12345678901',
    '😀'.repeat(11),
    'twelve chars ok',
    [...ANIMALS].slice(0, 15).join(''),
    '😀'.repeat(16),
  ]) {
    assert.throws(
      () => buildEvidenceArchive(input(), { password }),
      (e: unknown) => {
        assert.ok(e instanceof CompanionError);
        assert.equal(e.status, 400);
        assert.equal(e.code, 'invalid_password');
        assert.equal(e.field, 'password');
        if (password.length > 4) assert.ok(!e.message.includes(password), 'the message never repeats the password');
        return true;
      },
    );
  }
  assert.throws(() => assertEvidencePassword(123), CompanionError);
  assert.throws(() => assertEvidencePassword('x'.repeat(1025)), CompanionError);
  assert.doesNotThrow(() => assertEvidencePassword(PASSWORD));
  assert.doesNotThrow(() => assertEvidencePassword(ANIMALS));
});

test('layout: report stripped, PDF, history in order, manifest last with matching hashes', async () => {
  const now = new Date('2026-11-21T09:30:00.000Z');
  const zip = await collect(buildEvidenceArchive(input(), { now }));
  const { files, names } = await readWithZipJs(zip);
  assert.deepEqual(names, ['report.json', 'report.pdf', 'status-history.json', 'manifest.json']);
  assert.deepEqual(JSON.parse(new TextDecoder().decode(files.get('report.json'))), {
    tokenOnboarding: 'tok-1',
    status: 'APPROVED',
    fields: { name: 'Ana' },
  });
  assert.deepEqual(files.get('report.pdf'), minimalPdf());
  assert.deepEqual(JSON.parse(new TextDecoder().decode(files.get('status-history.json'))), input().history);
  const manifest = JSON.parse(new TextDecoder().decode(files.get('manifest.json'))) as EvidenceManifest;
  assert.equal(manifest.archivedAt, now.toISOString());
  assert.equal(manifest.environment, 'production');
  assert.deepEqual(
    manifest.files,
    ['report.json', 'report.pdf', 'status-history.json'].map((name) => ({
      name,
      size: files.get(name)!.byteLength,
      sha256: sha256(files.get(name)!),
    })),
  );
  await withArchiveFile(zip, async (file) => assert.match(await unzipTest(file), /No errors detected/));
});

test('a source that does not start with %PDF is left out, cancelled, and recorded as a gap', async () => {
  const html = source([new TextEncoder().encode('<ht'), new TextEncoder().encode('ml>maintenance</html>')]);
  const { files } = await readWithZipJs(await collect(buildEvidenceArchive(input({ pdf: html.stream }))));
  assert.ok(!files.has('report.pdf'));
  assert.equal(html.state.cancelled, true);
  const manifest = JSON.parse(new TextDecoder().decode(files.get('manifest.json'))) as EvidenceManifest;
  assert.deepEqual(manifest.gaps, [{ name: 'report.pdf', reason: 'the upstream answer does not start with %PDF' }]);
});

test('a %PDF signature split across chunks is recognised', async () => {
  const pdf = minimalPdf();
  const split = source([pdf.subarray(0, 2), pdf.subarray(2, 4), pdf.subarray(4)]);
  const { files } = await readWithZipJs(await collect(buildEvidenceArchive(input({ pdf: split.stream }))));
  assert.deepEqual(files.get('report.pdf'), pdf);
});

test('missing report and PDF are gaps with the reasons given; ERROR without externalId notes it', async () => {
  const zip = await collect(
    buildEvidenceArchive(
      input({
        report: undefined,
        reportError: 'report unavailable upstream: timeout',
        pdf: undefined,
        pdfError: 'PDF unavailable upstream: HTTP 403',
        status: 'ERROR',
      }),
    ),
  );
  const { files, names } = await readWithZipJs(zip);
  assert.deepEqual(names, ['status-history.json', 'support.json', 'manifest.json']);
  const manifest = JSON.parse(new TextDecoder().decode(files.get('manifest.json'))) as EvidenceManifest;
  assert.deepEqual(manifest.gaps, [
    { name: 'report.json', reason: 'report unavailable upstream: timeout' },
    { name: 'report.pdf', reason: 'PDF unavailable upstream: HTTP 403' },
    { name: 'support.json', reason: 'the upstream gave no externalId for this ERROR' },
  ]);
  const support = JSON.parse(new TextDecoder().decode(files.get('support.json'))) as Record<string, unknown>;
  assert.equal(support.externalId, undefined);
  assert.equal(support.environment, 'production');
});

test('a PDF source that breaks off mid-stream errors the archive stream (no half-written evidence)', async () => {
  const broken = source(generatedPdfChunks(4 * 1024 * 1024), 10);
  const stream = buildEvidenceArchive(input({ pdf: broken.stream }));
  await assert.rejects(collect(stream), /upstream connection reset/);
});

test('aborting the signal stops the archive and cancels the PDF source', async () => {
  const big = source(generatedPdfChunks(64 * 1024 * 1024));
  const abort = new AbortController();
  const reader = buildEvidenceArchive(input({ pdf: big.stream }), { signal: abort.signal }).getReader();
  await reader.read();
  await reader.read();
  abort.abort(new Error('client went away'));
  await assert.rejects(async () => {
    for (;;) if ((await reader.read()).done) break;
  });
  assert.equal(big.state.cancelled, true);
  assert.ok(big.state.pulled < 200, `read ${big.state.pulled} chunks of 1024 after the abort`);
});

test('a signal aborted before the start yields an errored stream and a cancelled source', async () => {
  const pdf = source([minimalPdf()]);
  await assert.rejects(collect(buildEvidenceArchive(input({ pdf: pdf.stream }), { signal: AbortSignal.abort(new Error('too late')) })));
  assert.equal(pdf.state.cancelled, true);
});

test('cancelling the output stream (client gone) cancels the PDF source', async () => {
  const big = source(generatedPdfChunks(64 * 1024 * 1024));
  const reader = buildEvidenceArchive(input({ pdf: big.stream })).getReader();
  await reader.read();
  await reader.cancel();
  await eventually(() => big.state.cancelled, 'the PDF source was never cancelled');
  assert.ok(big.state.pulled < 200);
});

test('with a password zip.js needs it for every entry; the manifest says AES-256', async () => {
  const zip = await collect(buildEvidenceArchive(input(), { password: PASSWORD }));
  await assert.rejects(readWithZipJs(zip, 'twelve chars NO'));
  const { files, encrypted } = await readWithZipJs(zip, PASSWORD);
  assert.deepEqual(encrypted, [true, true, true, true]);
  assert.equal((JSON.parse(new TextDecoder().decode(files.get('manifest.json'))) as EvidenceManifest).encryption, 'AES-256');
});

test('peekPdf replays the bytes it read; measuringStream hashes what passes', async () => {
  const pdf = minimalPdf('peek');
  const peek = await peekPdf(source([pdf.subarray(0, 3), pdf.subarray(3)]).stream);
  assert.ok(peek.ok);
  const measure = measuringStream();
  const out = await collect(peek.stream.pipeThrough(measure.stream));
  assert.deepEqual(out, pdf);
  assert.deepEqual(measure.result(), { size: pdf.byteLength, sha256: sha256(pdf) });
  assert.deepEqual(await peekPdf(source([]).stream), { ok: false, reason: 'empty' });
  assert.deepEqual(await peekPdf(source([new TextEncoder().encode('%PD')]).stream), { ok: false, reason: 'not-pdf' });
  assert.deepEqual(await peekPdf(source([], 0).stream), { ok: false, reason: 'unreadable' });
});

test('integrators get the same builder and error class from the package entry', async () => {
  const entry = await import('@onboarding-kit/server');
  const evidence = await import('../src/evidence/index.js');
  assert.equal(entry.buildEvidenceArchive, evidence.buildEvidenceArchive);
  assert.equal(entry.CompanionError, CompanionError);
});
