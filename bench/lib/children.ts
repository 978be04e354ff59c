/**
 * Starts bench/servers/child.ts (a sandbox or a companion) in its own process and samples its
 * resident memory from /proc while a load runs.
 */
import { fork, type ChildProcess } from 'node:child_process';
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

export interface ServerChild {
  url: string;
  pid: number;
  /** Asks the child (IPC) and waits for its answer of the same type. */
  ask<T = Record<string, unknown>>(type: 'stats' | 'rss'): Promise<T>;
  /** Resident set size now, from /proc (bytes); NaN where /proc is not there. */
  rss(): number;
  /** Samples rss() every `everyMs` until stopped; returns the peak. */
  sampleRss(everyMs?: number): { stop(): number };
  /** Last lines the child wrote to stderr. */
  stderr(): string;
  close(): Promise<void>;
}

export function rssOf(pid: number): number {
  try {
    const status = readFileSync(`/proc/${pid}/status`, 'utf8');
    const m = /VmRSS:\s+(\d+)\s+kB/.exec(status);
    return m ? Number(m[1]) * 1024 : Number.NaN;
  } catch {
    return Number.NaN;
  }
}

export async function startServer(role: 'sandbox' | 'companion' | 'proxy', options: Record<string, unknown>): Promise<ServerChild> {
  const child: ChildProcess = fork(CHILD, [role], {
    cwd: REPO_ROOT,
    // BENCH_CPU_PROF=<dir>: the companion children write a V8 CPU profile there when they exit.
    execArgv: ['--conditions=source', '--import', 'tsx', '--expose-gc', ...(role === 'companion' && process.env.BENCH_CPU_PROF ? ['--cpu-prof', `--cpu-prof-dir=${process.env.BENCH_CPU_PROF}`] : [])],
    env: { ...process.env, BENCH_SERVER_OPTIONS: JSON.stringify(options) },
    stdio: ['ignore', 'ignore', 'pipe', 'ipc'],
  });
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
      const timer = setTimeout(() => reject(new Error(`${role} child: no "${type}" within ${ms} ms; stderr: ${errText.trim().split('\n').slice(-3).join(' / ')}`)), ms);
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
    ask: async <T>(type: 'stats' | 'rss') => {
      const answer = wait(type, 15_000);
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
