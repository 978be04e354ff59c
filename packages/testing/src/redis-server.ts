/**
 * A throwaway `redis-server` for tests: on a free loopback port, without persistence, in its own
 * temporary folder, stopped by `stop()` (and killed if the test process exits first). Tests never
 * assume a Redis is running; a machine without `redis-server` fails them with what to install.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { createConnection, createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { delimiter, join } from 'node:path';

export interface RedisServer {
  readonly port: number;
  /** `redis://127.0.0.1:<port>` (database 0). */
  readonly url: string;
  readonly pid: number;
  stop(): Promise<void>;
}

/** `REDIS_SERVER` if set, else `redis-server` on the PATH, else Debian's /usr/bin/redis-server. */
export function redisServerBinary(): string {
  const install =
    "The Redis store tests start their own server: install Debian's package redis-server (apt-get install redis-server) or set REDIS_SERVER to its path.";
  const fromEnv = process.env.REDIS_SERVER;
  if (fromEnv) {
    if (!existsSync(fromEnv)) throw new Error(`REDIS_SERVER names ${fromEnv}, which does not exist. ${install}`);
    return fromEnv;
  }
  for (const dir of [...(process.env.PATH ?? '').split(delimiter), '/usr/bin']) {
    if (dir && existsSync(join(dir, 'redis-server'))) return join(dir, 'redis-server');
  }
  throw new Error(`redis-server was not found on the PATH nor in /usr/bin. ${install}`);
}

/** A loopback port nothing listens on right now. */
export async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const probe = createServer();
    probe.once('error', reject);
    probe.listen(0, '127.0.0.1', () => {
      const { port } = probe.address() as { port: number };
      probe.close(() => resolve(port));
    });
  });
}

/** Starts a server on `port` (default: a free one; retried on another if a race took it). */
export async function startRedisServer(options: { port?: number } = {}): Promise<RedisServer> {
  const binary = redisServerBinary();
  let lastError: unknown;
  for (let attempt = 0; attempt < 5; attempt++) {
    const port = options.port ?? (await freePort());
    try {
      return await launch(binary, port);
    } catch (e) {
      lastError = e;
      // A fixed port that fails is the caller's problem; a free one that fails was probably taken meanwhile.
      if (options.port !== undefined) break;
    }
  }
  throw lastError;
}

async function launch(binary: string, port: number): Promise<RedisServer> {
  const dir = mkdtempSync(join(tmpdir(), 'okit-redis-'));
  const child = spawn(
    binary,
    [
      '--port',
      String(port),
      '--bind',
      '127.0.0.1',
      '--save',
      '',
      '--appendonly',
      'no',
      '--dir',
      dir,
      '--daemonize',
      'no',
      '--loglevel',
      'warning',
    ],
    { stdio: ['ignore', 'pipe', 'pipe'] },
  );
  let output = '';
  child.stdout!.on('data', (d: Buffer) => (output += d.toString()));
  child.stderr!.on('data', (d: Buffer) => (output += d.toString()));
  const killOnExit = () => child.kill('SIGKILL');
  process.once('exit', killOnExit);
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
  const cleanup = () => {
    process.removeListener('exit', killOnExit);
    rmSync(dir, { recursive: true, force: true });
  };
  try {
    await Promise.race([
      waitForPort(port, 10_000),
      exited.then((code) => {
        throw new Error(`redis-server exited (code ${code}) before accepting connections on port ${port}: ${output.trim()}`);
      }),
      spawnFailure(child),
    ]);
  } catch (e) {
    child.kill('SIGKILL');
    await exited;
    cleanup();
    throw e;
  }
  let stopped: Promise<void> | undefined;
  return {
    port,
    url: `redis://127.0.0.1:${port}`,
    pid: child.pid!,
    stop() {
      stopped ??= (async () => {
        if (child.exitCode === null && child.signalCode === null) {
          child.kill('SIGTERM');
          const timer = setTimeout(() => child.kill('SIGKILL'), 5_000);
          await exited;
          clearTimeout(timer);
        }
        cleanup();
      })();
      return stopped;
    },
  };
}

function spawnFailure(child: ChildProcess): Promise<never> {
  return new Promise((_, reject) => child.once('error', (e) => reject(new Error(`could not start redis-server: ${e.message}`))));
}

async function waitForPort(port: number, timeoutMs: number): Promise<void> {
  const end = Date.now() + timeoutMs;
  for (;;) {
    const ok = await new Promise<boolean>((resolve) => {
      const socket = createConnection({ host: '127.0.0.1', port });
      socket.once('connect', () => {
        socket.end();
        resolve(true);
      });
      socket.once('error', () => resolve(false));
    });
    if (ok) return;
    if (Date.now() > end) throw new Error(`redis-server did not accept connections on port ${port} within ${timeoutMs} ms`);
    await new Promise((r) => setTimeout(r, 20));
  }
}
