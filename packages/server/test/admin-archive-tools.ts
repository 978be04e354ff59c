/**
 * Test support (not a test file): opens evidence archives the ways an operator would, with zip.js
 * and with Debian's `unzip` and `7z`, to prove the archive is a standard zip.
 */
import { execFile } from 'node:child_process';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createHash } from 'node:crypto';
import { promisify } from 'node:util';
import { Uint8ArrayReader, Uint8ArrayWriter, ZipReader } from '@zip.js/zip.js';

const exec = promisify(execFile);

export const sha256 = (bytes: Uint8Array): string => createHash('sha256').update(bytes).digest('hex');

/** Every entry of the archive, by name, read with zip.js (rejects on a wrong or missing password). */
export async function readWithZipJs(
  zip: Uint8Array,
  password?: string,
): Promise<{ files: Map<string, Uint8Array>; encrypted: boolean[]; names: string[] }> {
  const reader = new ZipReader(new Uint8ArrayReader(zip), { useWebWorkers: false });
  try {
    const entries = await reader.getEntries();
    const files = new Map<string, Uint8Array>();
    for (const entry of entries) {
      if (entry.directory) continue;
      files.set(
        entry.filename,
        await entry.getData(new Uint8ArrayWriter(), { useWebWorkers: false, ...(password !== undefined && { password }) }),
      );
    }
    return { files, encrypted: entries.map((e) => e.encrypted), names: entries.map((e) => e.filename) };
  } finally {
    await reader.close();
  }
}

/** Writes the archive into a fresh temporary directory and runs `use` on its path; cleans up after. */
export async function withArchiveFile<T>(zip: Uint8Array, use: (file: string, dir: string) => Promise<T>): Promise<T> {
  const dir = await mkdtemp(join(tmpdir(), 'evidence-test-'));
  try {
    const file = join(dir, 'evidence.zip');
    await writeFile(file, zip);
    return await use(file, dir);
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}

/** `unzip -t` (exit code 0 and "No errors detected") on a plain archive. */
export async function unzipTest(file: string): Promise<string> {
  const { stdout } = await exec('/usr/bin/unzip', ['-t', file]);
  return stdout;
}

/** `unzip -p file entry`: the entry's bytes. */
export async function unzipEntry(file: string, entry: string): Promise<Uint8Array> {
  const { stdout } = await exec('/usr/bin/unzip', ['-p', file, entry], { encoding: 'buffer', maxBuffer: 64 * 1024 * 1024 });
  return new Uint8Array(stdout);
}

/** `7z x -p<password>` into `dir/out`; resolves the extracted files, rejects when 7z fails. */
export async function sevenZipExtract(
  file: string,
  dir: string,
  password: string,
  names: readonly string[],
): Promise<Map<string, Uint8Array>> {
  const out = join(dir, 'out');
  await exec('/usr/bin/7z', ['x', `-p${password}`, `-o${out}`, '-y', '-bd', file]);
  const files = new Map<string, Uint8Array>();
  for (const name of names) files.set(name, new Uint8Array(await readFile(join(out, name))));
  return files;
}
