/**
 * A child process for the tests that start the kit's own processes (`npm start`, the packed
 * `onboarding-companion`, the sandbox): its output kept, its exit awaited, a line waited for, and
 * killed when the test process ends whatever happened.
 */
import { spawn, type ChildProcess } from 'node:child_process';

export interface Child {
  child: ChildProcess;
  out(): string;
  err(): string;
  /** Its exit code (null when killed by a signal). */
  exited: Promise<number | null>;
  /** Resolves with the first match of `pattern` in stdout; rejects on a timeout or an exit before it. */
  waitFor(pattern: RegExp, ms?: number): Promise<RegExpExecArray>;
}

/** Every child not seen exiting. */
const running = new Set<ChildProcess>();
process.once('exit', () => {
  for (const child of running) child.kill('SIGKILL');
});

/** Kills every child still running (an `after` hook of a test file that must not leave any behind). */
export function killChildren(): void {
  for (const child of running) child.kill('SIGKILL');
}

export function startChild(command: string, args: string[], options: { cwd: string; env: NodeJS.ProcessEnv }): Child {
  const child = spawn(command, args, { ...options, stdio: ['ignore', 'pipe', 'pipe'] });
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
  const waitFor = (pattern: RegExp, ms = 20_000) =>
    new Promise<RegExpExecArray>((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error(`no ${pattern} within ${ms} ms\nstdout: ${out}\nstderr: ${err}`)), ms);
      const look = () => {
        const m = pattern.exec(out);
        if (m) {
          clearTimeout(timer);
          child.stdout!.off('data', look);
          resolve(m);
        }
      };
      child.stdout!.on('data', look);
      void exited.then(() => {
        clearTimeout(timer);
        reject(new Error(`exited before ${pattern}\nstdout: ${out}\nstderr: ${err}`));
      });
      look();
    });
  return { child, out: () => out, err: () => err, exited, waitFor };
}
