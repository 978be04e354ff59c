/**
 * A Web Test Runner plugin that runs the real companion and the real sandbox for the element's
 * browser tests: `stack-server.ts` in a child process (loaded like `npm start`, through tsx with
 * the `source` condition, so no build is needed), on its own loopback port, with the test page's
 * origin on the companion's CORS allowlist. The page calls it cross-origin, as an integrator's
 * page calls a companion on another host.
 *
 * Server commands (`executeServerCommand` from @web/test-runner-commands):
 *   'stack'          -> { url }: the companion's base URL; use `${url}/t/<namespace>` as the
 *                       element's endpoint so that the requests are recorded for that namespace
 *   'stack-record'   { namespace } -> { uploadAttempts, uploads, onboardings, requests }
 *   'stack-offline'  { namespace, offline } -> { offline }: cuts the namespace off as a dropped
 *                       network does (its open streams lose their connection, new requests get
 *                       a network error), or puts it back
 *   'stack-decide'   { token, status } -> decides a manual-review onboarding through the
 *                       sandbox's control API; resolves after its webhook reached the companion
 *   'stack-session'  { reference, cpf?, ... } -> opens a session as the integrator's backend does
 *                       (`POST /v1/sessions` with the stack's API key, which never reaches the
 *                       page): { id, clientSecret, url, ... }, the capture token as `captureToken`
 *   'stack-session-view' { id } -> the session as the backend reads it (`GET /v1/sessions/{id}`)
 */
import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';

const repoRoot = fileURLToPath(new URL('../../../', import.meta.url));
const entry = fileURLToPath(new URL('./stack-server.ts', import.meta.url));
const READY_TIMEOUT_MS = 120_000;
/** The stack process's backend API key (IT_API_KEY of stack.ts, which this plain module cannot import). */
const API_KEY = 'sk_test_stack_0123456789abcdef0123456789';

function startChild(env) {
  const child = spawn(process.execPath, ['--conditions=source', '--import', 'tsx', entry], {
    cwd: repoRoot,
    env: { ...process.env, ...env },
    stdio: ['pipe', 'pipe', 'pipe'],
  });
  let output = '';
  child.stdout.setEncoding('utf8').on('data', (d) => (output += d));
  child.stderr.setEncoding('utf8').on('data', (d) => {
    output += d;
    process.stderr.write(`[test stack] ${d}`);
  });
  const exited = new Promise((resolve) => child.once('exit', (code, signal) => resolve(signal ?? code)));
  const ready = new Promise((resolve, reject) => {
    const timer = setTimeout(
      () => reject(new Error(`the test stack was not ready in ${READY_TIMEOUT_MS} ms:\n${output}`)),
      READY_TIMEOUT_MS,
    );
    const look = () => {
      const line = output.split('\n').find((l) => l.startsWith('{"stack":'));
      if (!line) return;
      clearTimeout(timer);
      child.stdout.off('data', look);
      resolve(JSON.parse(line).stack);
    };
    child.stdout.on('data', look);
    void exited.then((how) => {
      clearTimeout(timer);
      reject(new Error(`the test stack exited (${how}) before it was ready:\n${output}`));
    });
  });
  return { child, ready, exited };
}

async function json(res) {
  const text = await res.text();
  if (!res.ok) throw new Error(`${res.status} ${text}`);
  return text ? JSON.parse(text) : null;
}

/** @param {{ processingMs?: number }} [options] sandbox processing time (default 300 ms) */
export function realStack(options = {}) {
  let running;
  let stack;
  return {
    name: 'onboarding-real-stack',
    async serverStart({ server, config }) {
      const { port } = server.address();
      const origins = [...new Set([config.hostname ?? 'localhost', 'localhost', '127.0.0.1'])].map((host) => `http://${host}:${port}`);
      running = startChild({ STACK_ALLOWED_ORIGINS: origins.join(','), STACK_PROCESSING_MS: String(options.processingMs ?? 300) });
      stack = await running.ready;
    },
    async serverStop() {
      if (!running) return;
      running.child.kill('SIGTERM');
      await running.exited;
    },
    async executeCommand({ command, payload }) {
      if (command === 'stack') return { url: stack.url };
      if (command === 'stack-record') return json(await fetch(`${stack.url}/__stack/record/${encodeURIComponent(payload.namespace)}`));
      if (command === 'stack-offline') {
        const url = `${stack.url}/__stack/offline/${encodeURIComponent(payload.namespace)}`;
        return json(
          await fetch(url, {
            method: 'PUT',
            headers: { 'content-type': 'application/json' },
            body: JSON.stringify({ offline: !!payload.offline }),
          }),
        );
      }
      if (command === 'stack-decide') {
        const url = `${stack.sandboxUrl}/__sandbox/onboardings/${encodeURIComponent(payload.token)}/decision`;
        return json(
          await fetch(url, {
            method: 'POST',
            headers: { 'content-type': 'application/json' },
            body: JSON.stringify({ status: payload.status }),
          }),
        );
      }
      if (command === 'stack-session-view') {
        const url = `${stack.url}/v1/sessions/${encodeURIComponent(payload.id)}`;
        return json(await fetch(url, { headers: { authorization: `Bearer ${API_KEY}` } }));
      }
      if (command === 'stack-session') {
        const res = await fetch(`${stack.url}/v1/sessions`, {
          method: 'POST',
          headers: { 'content-type': 'application/json', authorization: `Bearer ${API_KEY}` },
          body: JSON.stringify(payload ?? { reference: 'stack-session' }),
        });
        const session = await json(res);
        return { ...session, captureToken: new URL(session.url).pathname.replace('/capture/', '') };
      }
      return undefined;
    },
  };
}
