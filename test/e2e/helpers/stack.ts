/**
 * The real stack as `npm start` starts it: `node --conditions=source --import tsx demo/start.ts`
 * in a child process on an ephemeral port, with the embedded sandbox, the demo built by the
 * test (ONBOARDING_DEMO_DIR) and credentials made up for this run (so a leak of them can only
 * come from this run, and a scan for them cannot match anything by chance).
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { fileURLToPath } from 'node:url';
import { supportCodeOf } from '@onboarding-kit/contract';

export const REPO_ROOT = fileURLToPath(new URL('../../../', import.meta.url));

export interface RunningStack {
  /** `http://127.0.0.1:port` (no trailing slash). */
  url: string;
  /** The embedded sandbox's base URL (its upstream API and its `/__sandbox` control API). */
  sandboxUrl: string;
  client: string;
  secret: string;
  webhookKey: string;
  /** The admin routes are on, with this key: one more secret no page may ever see. */
  adminKey: string;
  /** Everything the process printed so far. */
  output(): string;
  stop(): Promise<void>;
}

export interface StackOptions {
  demoDir: string;
  /** Extra environment (e.g. SANDBOX_PROCESSING_MS). */
  env?: Record<string, string>;
}

export async function startStack(options: StackOptions): Promise<RunningStack> {
  const client = `e2e-client-${randomBytes(4).toString('hex')}`;
  const secret = `e2e-secret-${randomBytes(16).toString('hex')}`;
  const webhookKey = `e2e-webhook-${randomBytes(16).toString('hex')}`;
  const adminKey = `e2e-admin-${randomBytes(16).toString('hex')}`;
  const child: ChildProcess = spawn(process.execPath, ['--conditions=source', '--import', 'tsx', 'demo/start.ts'], {
    cwd: REPO_ROOT,
    env: {
      ...process.env,
      PORT: '0',
      HOST: '127.0.0.1',
      ONBOARDING_CLIENT: client,
      ONBOARDING_SECRET: secret,
      ONBOARDING_WEBHOOK_KEY: webhookKey,
      ONBOARDING_ADMIN_KEY: adminKey,
      ONBOARDING_DEMO_DIR: options.demoDir,
      // Each run starts empty, and never writes into the repository's ./data (npm start's default store).
      ONBOARDING_STORE: 'memory',
      // The tests decide manual reviews and read the sandbox's stats through its control routes.
      ONBOARDING_SANDBOX_CONTROL: '1',
      ...options.env,
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  child.stdout!.setEncoding('utf8').on('data', (d: string) => (output += d));
  child.stderr!.setEncoding('utf8').on('data', (d: string) => (output += d));
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));

  const url = await new Promise<string>((resolve, reject) => {
    // A deadline against a hang, not a speed check: a loaded machine may take a while to compile and start.
    const timer = setTimeout(() => reject(new Error(`npm start printed no URL in 2 min:\n${output}`)), 120_000);
    const look = () => {
      const m = /onboarding-kit demo: (http:\/\/127\.0\.0\.1:\d+)\//.exec(output);
      if (m) {
        clearTimeout(timer);
        resolve(m[1]!);
      }
    };
    child.stdout!.on('data', look);
    void exited.then((code) => {
      clearTimeout(timer);
      reject(new Error(`npm start exited (${code}) before printing its URL:\n${output}`));
    });
  }).catch(async (error: unknown) => {
    child.kill('SIGKILL');
    throw error;
  });

  return {
    url,
    sandboxUrl: `${url}/sandbox`,
    client,
    secret,
    webhookKey,
    adminKey,
    output: () => output,
    async stop() {
      if (child.exitCode !== null || child.signalCode !== null) return;
      child.kill('SIGTERM');
      const timer = setTimeout(() => child.kill('SIGKILL'), 5_000);
      await exited;
      clearTimeout(timer);
    },
  };
}

/** JSON from the sandbox's control API (`/__sandbox/*`). */
export async function sandboxControl<T = unknown>(stack: RunningStack, path: string, body?: unknown): Promise<T> {
  const res = await fetch(
    `${stack.sandboxUrl}/__sandbox${path}`,
    body === undefined ? {} : { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) },
  );
  if (!res.ok) throw new Error(`sandbox ${path}: HTTP ${res.status} ${await res.text()}`);
  return (await res.json()) as T;
}

/** An access token from the sandbox with this run's credentials (as the companion gets its own). */
export async function upstreamToken(stack: RunningStack): Promise<string> {
  const res = await fetch(`${stack.sandboxUrl}/api/token-generate`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ client: stack.client, secret: stack.secret }),
  });
  if (!res.ok) throw new Error(`token-generate: HTTP ${res.status}`);
  return ((await res.json()) as { access_token: string }).access_token;
}

/** The upstream's own report of an onboarding (the truth the page's outcome is compared with). */
export async function upstreamReport(stack: RunningStack, token: string, tokenOnboarding: string): Promise<Record<string, unknown>> {
  const res = await fetch(`${stack.sandboxUrl}/api/onboarding/report/${encodeURIComponent(tokenOnboarding)}`, {
    headers: { authorization: `Bearer ${token}` },
  });
  if (!res.ok) throw new Error(`report: HTTP ${res.status}`);
  return (await res.json()) as Record<string, unknown>;
}

/**
 * The support codes of the sessions the demo backend opened so far, as its log announced them
 * (`demo backend: session opened`): what support reads back into a session.
 */
export function openedSessionCodes(stack: RunningStack): string[] {
  return [...stack.output().matchAll(/"sessionId":"(ses_[0-9a-f]+)"/g)].map((m) => supportCodeOf(m[1]!));
}
