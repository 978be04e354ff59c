/**
 * Runs the docs' samples (test/node/doc-samples.test.ts) as an integrator would: each in its own
 * directory, as its own process, with the variables the docs name pointing at a real companion on
 * loopback. A directory inside the repository's node_modules, so that a sample's bare imports
 * (`@onboarding-kit/server/verify`, `@onboarding-kit/node`) resolve to the workspace packages as
 * they resolve for someone who installed them.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

export const REPO_ROOT = fileURLToPath(new URL('../../../', import.meta.url));
const NPM_CHECK = fileURLToPath(new URL('../../../scripts/doc-sample-npm.mjs', import.meta.url));
const SAMPLES_DIR = join(REPO_ROOT, 'node_modules', '.cache', 'doc-samples');
const RUN_TIMEOUT_MS = 30_000;
/** No input: a command that would ask (an overwrite prompt) reads an end of file instead of waiting. */
const STDIO: ['ignore', 'pipe', 'pipe'] = ['ignore', 'pipe', 'pipe'];

interface RunResult {
  code: number | null;
  stdout: string;
  stderr: string;
}

/** A fresh directory for one sample (or for the shell samples of one document), removed by `cleanup`. */
export function sampleDir(): { dir: string; cleanup(): void } {
  mkdirSync(SAMPLES_DIR, { recursive: true });
  const dir = mkdtempSync(join(SAMPLES_DIR, 'sample-'));
  return { dir, cleanup: () => rmSync(dir, { recursive: true, force: true }) };
}

/** A free loopback port for a sample's server. */
export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as { port: number };
      server.close(() => resolve(port));
    });
  });
}

function collect(child: ChildProcess, timeoutMs: number): Promise<RunResult> {
  return new Promise((resolve) => {
    let stdout = '';
    let stderr = '';
    child.stdout?.on('data', (c: Buffer) => (stdout += c.toString()));
    child.stderr?.on('data', (c: Buffer) => (stderr += c.toString()));
    const timer = setTimeout(() => {
      stderr += `\n(killed after ${timeoutMs / 1000} s)`;
      kill(child);
    }, timeoutMs);
    child.on('close', (code) => {
      clearTimeout(timer);
      resolve({ code, stdout, stderr });
    });
  });
}

function kill(child: ChildProcess): void {
  try {
    process.kill(-child.pid!, 'SIGKILL');
  } catch {
    // Already gone.
  }
}

/**
 * The shell around a shell sample: strict mode, `curl` failing on an HTTP error (a sample's
 * `curl -s` alone exits 0 on a 404), `npm` checked rather than run (scripts/doc-sample-npm.mjs), and
 * the `ONBOARDING_*` variables the sample leaves written to `$VARS_OUT` for the caller to check.
 */
function shellScript(code: string): string {
  return [
    'set -euo pipefail',
    'curl() { command curl --silent --show-error --fail-with-body --max-time 20 "$@"; printf "\\n"; }',
    `npm() { node ${JSON.stringify(NPM_CHECK)} "$@"; }`,
    code,
    'for v in $(compgen -v ONBOARDING_); do printf "%s=%s\\0" "$v" "${!v}"; done > "$VARS_OUT"',
    '',
  ].join('\n');
}

/**
 * Runs a shell sample in `cwd`, where the shell samples before it in its document ran (a document
 * is followed in one terminal: a block may read the file an earlier one saved); `vars` are the
 * `ONBOARDING_*` variables it ended with.
 */
export async function runShell(
  code: string,
  env: Record<string, string>,
  cwd: string,
): Promise<RunResult & { vars: Record<string, string> }> {
  const { dir, cleanup } = sampleDir();
  try {
    const file = join(dir, 'sample.sh');
    const varsOut = join(dir, 'vars');
    writeFileSync(file, shellScript(code));
    const child = spawn('bash', [file], {
      cwd,
      env: { ...env, VARS_OUT: varsOut, DOC_REPO_ROOT: REPO_ROOT },
      detached: true,
      stdio: STDIO,
    });
    const result = await collect(child, RUN_TIMEOUT_MS);
    const vars: Record<string, string> = {};
    if (result.code === 0) {
      for (const pair of readFileSync(varsOut, 'utf8').split('\0').filter(Boolean)) {
        const at = pair.indexOf('=');
        vars[pair.slice(0, at)] = pair.slice(at + 1);
      }
    }
    return { ...result, vars };
  } finally {
    cleanup();
  }
}

const extension = (lang: 'js' | 'ts' | 'sh') => ({ js: 'mjs', ts: 'mts', sh: 'sh' })[lang];

function nodeArgs(file: string): string[] {
  return ['--conditions=source', '--import', 'tsx', file];
}

/** Runs a script sample to its end. */
export async function runScript(code: string, lang: 'js' | 'ts', env: Record<string, string>): Promise<RunResult> {
  const { dir, cleanup } = sampleDir();
  try {
    const file = join(dir, `sample.${extension(lang)}`);
    writeFileSync(file, code);
    return await collect(spawn(process.execPath, nodeArgs(file), { cwd: dir, env, detached: true, stdio: STDIO }), RUN_TIMEOUT_MS);
  } finally {
    cleanup();
  }
}

export interface RunningSample {
  url: string;
  /** Whether the process is still running. */
  alive(): boolean;
  output(): string;
  stop(): Promise<void>;
}

/**
 * Starts a server sample on `port`: the sample itself when it listens, or, for a module whose
 * default export has `fetch` (Workers, Bun, Deno), that handler on @hono/node-server. Resolves
 * once the port answers HTTP.
 */
export async function startServer(
  code: string,
  lang: 'js' | 'ts' | 'sh',
  port: number,
  env: Record<string, string>,
  readyPath = '/',
): Promise<RunningSample> {
  const { dir, cleanup } = sampleDir();
  const file = join(dir, `sample.${extension(lang)}`);
  writeFileSync(file, code);
  let entry = file;
  if (/^export default\b/m.test(code)) {
    entry = join(dir, 'serve.mjs');
    writeFileSync(
      entry,
      [
        "import { serve } from '@hono/node-server';",
        `const { default: handler } = await import(${JSON.stringify(`./sample.${extension(lang)}`)});`,
        `serve({ fetch: (request) => handler.fetch(request), port: ${port}, hostname: '127.0.0.1' });`,
        '',
      ].join('\n'),
    );
  }
  if (lang === 'sh') writeFileSync(file, `set -euo pipefail\n${code}\n`);
  const command = lang === 'sh' ? (['bash', [file]] as const) : ([process.execPath, nodeArgs(entry)] as const);
  const child = spawn(command[0], command[1], { cwd: dir, env: { ...env, PORT: String(port) }, detached: true, stdio: STDIO });
  let out = '';
  child.stdout.on('data', (c: Buffer) => (out += c.toString()));
  child.stderr.on('data', (c: Buffer) => (out += c.toString()));
  let exited = false;
  const closed = new Promise<void>((resolve) => child.on('close', () => ((exited = true), resolve())));
  const url = `http://127.0.0.1:${port}`;
  const running: RunningSample = {
    url,
    alive: () => !exited,
    output: () => out,
    async stop() {
      kill(child);
      await closed;
      cleanup();
    },
  };
  const deadline = Date.now() + RUN_TIMEOUT_MS;
  for (;;) {
    if (exited) {
      await running.stop();
      throw new Error(`the sample exited before it listened on ${port}:\n${out}`);
    }
    try {
      await fetch(url + readyPath, { redirect: 'manual', signal: AbortSignal.timeout(5_000) });
      return running;
    } catch {
      if (Date.now() > deadline) {
        await running.stop();
        throw new Error(`the sample did not listen on ${port} within ${RUN_TIMEOUT_MS / 1000} s:\n${out}`);
      }
      await new Promise((r) => setTimeout(r, 100));
    }
  }
}
