/**
 * `npm start` (demo/start.ts) as a child process, for tests that restart it, kill it or run
 * several: its URL (read from the line it prints), its exit, and its output.
 */
import { spawn, type ChildProcess } from 'node:child_process';
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

/** Every child not seen exiting: killed when the test process ends, whatever happened. */
const running = new Set<ChildProcess>();
process.once('exit', () => {
  for (const child of running) child.kill('SIGKILL');
});

export function startDemo(env: Record<string, string>): DemoProcess {
  const child = spawn(process.execPath, ['--conditions=source', '--import', 'tsx', 'demo/start.ts'], {
    cwd: root,
    env: { ...process.env, PORT: '0', HOST: '127.0.0.1', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  running.add(child);
  let out = '';
  let err = '';
  child.stdout!.setEncoding('utf8').on('data', (d: string) => (out += d));
  child.stderr!.setEncoding('utf8').on('data', (d: string) => (err += d));
  const exited = new Promise<number | null>((resolve) =>
    child.on('exit', (code) => {
      running.delete(child);
      resolve(code);
    }),
  );
  const url = new Promise<string>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`no URL printed; stdout: ${out} stderr: ${err}`)), 30_000);
    // A child that exits must not leave the runner waiting on this timer.
    void exited.then(() => clearTimeout(timer));
    child.stdout!.on('data', () => {
      const m = /onboarding-kit demo: (http:\/\/127\.0\.0\.1:\d+)\//.exec(out);
      if (m) {
        clearTimeout(timer);
        resolve(m[1]!);
      }
    });
    void exited.then(() => reject(new Error(`exited early; stderr: ${err}`)));
  });
  // A run that is meant to fail never prints a URL: that must not count as an unhandled rejection.
  url.catch(() => {});
  return { child, url, exited, output: () => ({ out, err }) };
}

export { freePort } from '@onboarding-kit/testing/redis-server';

/** Sends `signal` and waits for the exit. */
export async function stopDemo(demo: DemoProcess, signal: NodeJS.Signals): Promise<number | null> {
  if (demo.child.exitCode !== null || demo.child.signalCode !== null) return demo.child.exitCode;
  demo.child.kill(signal);
  return demo.exited;
}
