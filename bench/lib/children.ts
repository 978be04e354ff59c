/**
 * Starts bench/servers/child.ts (a sandbox or a companion) in its own process and samples its
 * resident memory from /proc while a load runs.
 */
import { fork, spawn, type ChildProcess } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { REPO_ROOT } from './paths.js';

const CHILD = fileURLToPath(new URL('../servers/child.ts', import.meta.url));

/** Every child the bench started and has not seen exit: killed if the bench itself ends early. */
const running = new Set<ChildProcess>();
process.once('exit', () => {
  for (const child of running) child.kill('SIGKILL');
});

export function track(child: ChildProcess): void {
  running.add(child);
  child.once('exit', () => running.delete(child));
}

/** What a child answers over IPC (bench/servers/child.ts). */
type ChildQuestion = 'stats' | 'rss' | 'heap' | 'gc';

export interface ServerChild {
  url: string;
  pid: number;
  /** Asks the child (IPC) and waits for its answer of the same type. */
  ask<T = Record<string, unknown>>(type: ChildQuestion): Promise<T>;
  /** Resident set size now, from /proc (bytes); NaN where /proc is not there. */
  rss(): number;
  /** Samples rss() every `everyMs` until stopped; returns the peak. */
  sampleRss(everyMs?: number): { stop(): number };
  /** Last lines the child wrote to stderr. */
  stderr(): string;
  close(): Promise<void>;
}

function rssOf(pid: number): number {
  try {
    const status = readFileSync(`/proc/${pid}/status`, 'utf8');
    const m = /VmRSS:\s+(\d+)\s+kB/.exec(status);
    return m ? Number(m[1]) * 1024 : Number.NaN;
  } catch {
    return Number.NaN;
  }
}

/** Open files (sockets) limit of a process, from /proc; NaN where /proc is not there. */
export function openFilesLimit(pid: number | 'self'): number {
  try {
    const m = /Max open files\s+(\d+|unlimited)/.exec(readFileSync(`/proc/${pid}/limits`, 'utf8'));
    return m ? (m[1] === 'unlimited' ? Infinity : Number(m[1])) : Number.NaN;
  } catch {
    return Number.NaN;
  }
}

/**
 * `openFiles`: start the child through `sh -c 'ulimit -n ...; exec node ...'` with its soft limit
 * of open files raised to that many (or to the hard limit when that is lower), for thousands of
 * open sockets; the IPC channel passes through the exec.
 */
export async function startServer(
  role: 'sandbox' | 'companion' | 'proxy',
  options: Record<string, unknown>,
  launch: { openFiles?: number } = {},
): Promise<ServerChild> {
  // The packages load from their built output (dist/, what an integrator installs and runs; the
  // bench builds it first when stale): the TypeScript sources through the loader cost more per
  // request (its helpers, its import hooks), which no deployment pays. tsx only loads child.ts.
  // BENCH_CPU_PROF=<dir>: the companion children write a V8 CPU profile there when they exit.
  const execArgv = [
    '--import',
    'tsx',
    '--expose-gc',
    ...(role === 'companion' && process.env.BENCH_CPU_PROF ? ['--cpu-prof', `--cpu-prof-dir=${process.env.BENCH_CPU_PROF}`] : []),
  ];
  const childOptions = {
    cwd: REPO_ROOT,
    env: { ...process.env, BENCH_SERVER_OPTIONS: JSON.stringify(options) },
    stdio: ['ignore', 'ignore', 'pipe', 'ipc'] as ('ignore' | 'pipe' | 'ipc')[],
  };
  const n = launch.openFiles;
  const child: ChildProcess = n
    ? spawn(
        'sh',
        ['-c', `ulimit -n ${n} 2>/dev/null || ulimit -n "$(ulimit -Hn)"; exec "$0" "$@"`, process.execPath, ...execArgv, CHILD, role],
        childOptions,
      )
    : fork(CHILD, [role], { ...childOptions, execArgv });
  track(child);
  let errText = '';
  child.stderr?.setEncoding('utf8').on('data', (d: string) => {
    errText = (errText + d).slice(-4000);
  });
  const waiters = new Map<string, ((m: Record<string, unknown>) => void)[]>();
  child.on('message', (m: Record<string, unknown>) => {
    const list = waiters.get(String(m.type));
    const next = list?.shift();
    next?.(m);
  });
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  const wait = (type: string, ms: number) =>
    new Promise<Record<string, unknown>>((resolve, reject) => {
      const timer = setTimeout(
        () => reject(new Error(`${role} child: no "${type}" within ${ms} ms; stderr: ${errText.trim().split('\n').slice(-3).join(' / ')}`)),
        ms,
      );
      const list = waiters.get(type) ?? [];
      list.push((m) => {
        clearTimeout(timer);
        resolve(m);
      });
      waiters.set(type, list);
      void exited.then(() => {
        clearTimeout(timer);
        reject(new Error(`${role} child exited; stderr: ${errText.trim().split('\n').slice(-3).join(' / ')}`));
      });
    });
  let ready: Record<string, unknown>;
  try {
    ready = await wait('ready', 30_000);
  } catch (error) {
    child.kill('SIGKILL');
    throw error;
  }
  const pid = child.pid!;
  return {
    url: String(ready.url),
    pid,
    ask: async <T>(type: ChildQuestion) => {
      const answer = wait(type, 60_000);
      child.send({ type });
      return (await answer) as T;
    },
    rss: () => rssOf(pid),
    sampleRss(everyMs = 50) {
      let peak = rssOf(pid);
      const timer = setInterval(() => {
        const v = rssOf(pid);
        if (v > peak || Number.isNaN(peak)) peak = v;
      }, everyMs);
      return {
        stop() {
          clearInterval(timer);
          const v = rssOf(pid);
          return v > peak ? v : peak;
        },
      };
    },
    stderr: () => errText,
    async close() {
      if (child.exitCode !== null || child.signalCode !== null) return;
      child.send({ type: 'close' });
      const timer = setTimeout(() => child.kill('SIGKILL'), 8_000);
      await exited;
      clearTimeout(timer);
    },
  };
}
