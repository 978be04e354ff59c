/**
 * The evidence archive streams: a 96 MiB PDF costs no more memory than a 16 MiB one. Each size
 * runs in a child process of its own (clean baseline, no other test's garbage): a real upstream
 * stand-in generates the PDF on the fly, the admin route serves the archive over a real socket,
 * and the client writes it to disk chunk by chunk while the child samples its RSS and heap.
 * The archive is then checked with `unzip` against the hash the stand-in computed as it sent.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { createWriteStream } from 'node:fs';
import { mkdtemp, rm, stat } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { EvidenceManifest } from '../src/evidence/index.js';
import { ADMIN_KEY, hostApp, memoryStore, serveOnSocket, standInUpstream, startStandIn } from './admin-standin.js';
import { unzipEntry, unzipTest } from './admin-archive-tools.js';

const MiB = 1024 * 1024;
const CHILD_ENV = 'EVIDENCE_MEMORY_CHILD_MIB';

interface RunResult {
  mib: number;
  rssGrowth: number;
  heapGrowth: number;
  zipBytes: number;
  pdfSize: number;
  pdfSha256: string;
  manifestPdf: { size: number; sha256: string } | undefined;
  unzipOk: boolean;
}

async function childRun(mib: number): Promise<RunResult> {
  const warm = 'tok-warm-up';
  const big = `tok-${mib}-mib`;
  const standIn = await startStandIn({
    [warm]: { report: { tokenOnboarding: warm, status: 'APPROVED' }, pdf: { kind: 'generated', size: 1 * MiB } },
    [big]: { report: { tokenOnboarding: big, status: 'APPROVED', fields: { note: null } }, pdf: { kind: 'generated', size: mib * MiB } },
  });
  const at = '2026-11-20T10:00:00.000Z';
  const store = memoryStore(
    [warm, big].map((tokenOnboarding) => ({
      tokenOnboarding,
      status: 'APPROVED',
      createdAt: at,
      updatedAt: at,
      history: [{ status: 'APPROVED', at, source: 'webhook' as const }],
    })),
  );
  const server = await serveOnSocket(
    hostApp({ adminKey: ADMIN_KEY, environment: 'test', kitVersion: 'memory', upstream: standInUpstream(standIn.url, 60_000), store }),
  );
  const dir = await mkdtemp(join(tmpdir(), 'evidence-memory-'));
  const gc = (globalThis as { gc?: () => void }).gc;

  let peakRss = 0;
  let peakHeap = 0;
  const sample = () => {
    const m = process.memoryUsage();
    peakRss = Math.max(peakRss, m.rss);
    peakHeap = Math.max(peakHeap, m.heapUsed);
  };
  /** Downloads the archive of `token` to disk, reading the response one chunk at a time. */
  const download = async (token: string, file: string) => {
    const res = await fetch(`${server.url}/v1/admin/onboardings/${token}/evidence`, {
      method: 'POST',
      // In the clear, so unzip can test it (encryption by default is covered in admin-routes.test.ts).
      headers: { authorization: `Bearer ${ADMIN_KEY}`, 'content-type': 'application/json' },
      body: JSON.stringify({ encrypt: false }),
    });
    if (res.status !== 200 || !res.body) throw new Error(`evidence answered ${res.status}`);
    const out = createWriteStream(file);
    const reader = res.body.getReader();
    let sinceGc = 0;
    for (let next = await reader.read(); !next.done; next = await reader.read()) {
      sample();
      // Collect now and then so the peak measures what is held, not garbage a busy machine
      // has not collected yet (the cause of rare failures under a loaded CI).
      sinceGc += next.value.byteLength;
      if (gc && sinceGc > 8 * MiB) {
        sinceGc = 0;
        gc();
      }
      if (!out.write(next.value)) await once(out, 'drain');
    }
    out.end();
    await once(out, 'finish');
  };

  try {
    // Warm up: load zip.js, compression and the HTTP paths, so the baseline holds them already.
    await download(warm, join(dir, 'warm.zip'));
    gc?.();
    await new Promise((r) => setTimeout(r, 50));
    const base = process.memoryUsage();
    peakRss = base.rss;
    peakHeap = base.heapUsed;
    const timer = setInterval(sample, 5);
    const file = join(dir, 'evidence.zip');
    try {
      await download(big, file);
    } finally {
      clearInterval(timer);
    }
    sample();

    const unzipOk = /No errors detected/.test(await unzipTest(file));
    const manifest = JSON.parse(new TextDecoder().decode(await unzipEntry(file, 'manifest.json'))) as EvidenceManifest;
    const pdf = manifest.files.find((f) => f.name === 'report.pdf');
    const sent = standIn.pdfSent.get(big);
    return {
      mib,
      rssGrowth: peakRss - base.rss,
      heapGrowth: peakHeap - base.heapUsed,
      zipBytes: (await stat(file)).size,
      pdfSize: sent?.size ?? -1,
      pdfSha256: sent?.sha256 ?? '',
      manifestPdf: pdf && { size: pdf.size, sha256: pdf.sha256 },
      unzipOk,
    };
  } finally {
    await rm(dir, { recursive: true, force: true });
    await server.close();
    await standIn.close();
  }
}

/** Runs one size in a fresh Node process and reads its result line. */
async function inChild(mib: number): Promise<RunResult> {
  const child = spawn(process.execPath, ['--conditions=source', '--import', 'tsx', '--expose-gc', fileURLToPath(import.meta.url)], {
    env: { ...process.env, [CHILD_ENV]: String(mib) },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (d: Buffer) => (stdout += d.toString()));
  child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
  const killer = setTimeout(() => child.kill('SIGKILL'), 120_000);
  const [code] = (await once(child, 'exit')) as [number | null];
  clearTimeout(killer);
  const line = stdout.split('\n').find((l) => l.startsWith('{"mib"'));
  if (code !== 0 || !line) throw new Error(`memory child (${mib} MiB) failed with ${code}: ${stderr.slice(-2000)}`);
  return JSON.parse(line) as RunResult;
}

if (process.env[CHILD_ENV]) {
  // Child mode: one measured run, result on stdout.
  const result = await childRun(Number(process.env[CHILD_ENV]));
  process.stdout.write(`${JSON.stringify(result)}\n`);
} else {
  test('a 96 MiB PDF streams through the evidence route with no more memory than a 16 MiB one', { timeout: 300_000 }, async (t) => {
    const small = await inChild(16);
    const large = await inChild(96);
    const fmt = (r: RunResult) =>
      `${r.mib} MiB PDF: RSS +${(r.rssGrowth / MiB).toFixed(1)} MiB, heap +${(r.heapGrowth / MiB).toFixed(1)} MiB, zip ${(r.zipBytes / MiB).toFixed(1)} MiB`;
    t.diagnostic(fmt(small));
    t.diagnostic(fmt(large));

    for (const run of [small, large]) {
      // The archive is whole and right: the manifest hash is the one the upstream sent.
      assert.equal(run.unzipOk, true);
      assert.equal(run.pdfSize, run.mib * MiB);
      assert.deepEqual(run.manifestPdf, { size: run.pdfSize, sha256: run.pdfSha256 });
      // The PDF is incompressible: the bytes really crossed the socket.
      assert.ok(run.zipBytes > run.pdfSize, `${run.mib} MiB run produced only ${run.zipBytes} bytes`);
    }
    // Flat: six times the data, not six times the memory (a buffered PDF alone would add 80 MiB
    // more in the large run, so an additive margin well under that still catches buffering).
    assert.ok(large.rssGrowth <= small.rssGrowth + 48 * MiB, `RSS grew with the PDF: ${fmt(small)} / ${fmt(large)}`);
    assert.ok(large.heapGrowth <= 1.5 * small.heapGrowth + 32 * MiB, `heap grew with the PDF: ${fmt(small)} / ${fmt(large)}`);
  });
}
