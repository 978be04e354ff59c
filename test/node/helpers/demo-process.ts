/**
 * `npm start` (demo/start.ts) as a child process, for tests that restart it, kill it or run
 * several: its URL (read from the line it prints), its exit, and its output.
 */
import type { ChildProcess } from 'node:child_process';
import { startChild } from './child-process.js';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('../../../', import.meta.url));

export interface DemoProcess {
  child: ChildProcess;
  /** `http://127.0.0.1:port`, once it listens. */
  url: Promise<string>;
  /** Its exit code (null when killed by a signal). */
  exited: Promise<number | null>;
  output(): { out: string; err: string };
}

export function startDemo(env: Record<string, string>): DemoProcess {
  const demo = startChild(process.execPath, ['--conditions=source', '--import', 'tsx', 'demo/start.ts'], {
    cwd: root,
    env: { ...process.env, PORT: '0', HOST: '127.0.0.1', ...env },
  });
  const url = demo.waitFor(/onboarding-kit demo: (http:\/\/127\.0\.0\.1:\d+)\//, 30_000).then((m) => m[1]!);
  // A run that is meant to fail never prints a URL: that must not count as an unhandled rejection.
  url.catch(() => {});
  return { child: demo.child, url, exited: demo.exited, output: () => ({ out: demo.out(), err: demo.err() }) };
}

export { freePort } from '@onboarding-kit/testing/redis-server';

/** Sends `signal` and waits for the exit. */
export async function stopDemo(demo: DemoProcess, signal: NodeJS.Signals): Promise<number | null> {
  if (demo.child.exitCode !== null || demo.child.signalCode !== null) return demo.child.exitCode;
  demo.child.kill(signal);
  return demo.exited;
}
