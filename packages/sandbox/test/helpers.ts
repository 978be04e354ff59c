/** Shared test helpers: transports (app.request and a real socket), tokens, a webhook receiver, images. */
import assert from 'node:assert/strict';
import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { createSandbox, serveSandbox, type Sandbox, type SandboxOptions } from '../src/index.js';

export type Fetcher = (path: string, init?: RequestInit) => Promise<Response>;

export interface Harness {
  name: 'app.request' | 'socket';
  sandbox: Sandbox;
  fetch: Fetcher;
  close(): Promise<void>;
}

const quiet = () => {};

/** The sandbox behind `app.request()`, or behind a real socket on an ephemeral port. */
export async function harness(kind: Harness['name'], options: SandboxOptions = {}): Promise<Harness> {
  if (kind === 'app.request') {
    const sandbox = createSandbox(options, quiet);
    return { name: kind, sandbox, fetch: async (path, init) => sandbox.app.request(path, init), close: async () => sandbox.close() };
  }
  const served = await serveSandbox({ ...options, port: 0 });
  return { name: kind, sandbox: served.sandbox, fetch: (path, init) => fetch(served.url + path, init), close: served.close };
}

export const TRANSPORTS: Harness['name'][] = ['app.request', 'socket'];

export async function getToken(f: Fetcher, client = 'sandbox-client', secret = 'sandbox-secret'): Promise<string> {
  const res = await f('/api/token-generate', {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ client, secret }),
  });
  if (res.status !== 200) throw new Error(`token-generate answered ${res.status}`);
  return ((await res.json()) as { access_token: string }).access_token;
}

export function postJson(f: Fetcher, path: string, body: unknown, token?: string): Promise<Response> {
  return f(path, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...(token && { authorization: `Bearer ${token}` }) },
    body: typeof body === 'string' ? body : JSON.stringify(body),
  });
}

export function getWith(f: Fetcher, path: string, token?: string): Promise<Response> {
  return f(path, { headers: token ? { authorization: `Bearer ${token}` } : {} });
}

export type Json = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any

export async function query(f: Fetcher, token: string, body: Json): Promise<Json> {
  const res = await postJson(f, '/api/service-api', body, token);
  if (res.status !== 200) throw new Error(`service-api answered HTTP ${res.status}`);
  return (await res.json()) as Json;
}

export interface Received {
  headers: IncomingHttpHeaders;
  body: Json;
  at: number;
}

/** A real webhook receiver (node:http on an ephemeral port) that records every delivery. */
export async function webhookReceiver(): Promise<{
  url: string;
  received: Received[];
  waitFor(n: number, timeoutMs?: number): Promise<Received[]>;
  close(): Promise<void>;
}> {
  const received: Received[] = [];
  const waiters: (() => void)[] = [];
  const server: Server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      received.push({ headers: req.headers, body: JSON.parse(Buffer.concat(chunks).toString('utf8')) as Json, at: Date.now() });
      res.writeHead(204).end();
      waiters.splice(0).forEach((w) => w());
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/hook`,
    received,
    // A deadline against hangs, not a measure of speed.
    waitFor: (n, timeoutMs = 30_000) =>
      new Promise((resolve, reject) => {
        const deadline = setTimeout(() => reject(new Error(`expected ${n} webhook(s), got ${received.length}`)), timeoutMs);
        const check = () => {
          if (received.length >= n) {
            clearTimeout(deadline);
            resolve(received.slice());
          } else waiters.push(check);
        };
        check();
      }),
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}

/** Polls the JSON report until the onboarding leaves IN_PROCESS (bounded), like a client without webhooks. */
export async function waitForDecision(f: Fetcher, token: string, tokenOnboarding: string, timeoutMs = 30_000): Promise<string> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const report = (await (await getWith(f, `/api/onboarding/report/${tokenOnboarding}`, token)).json()) as Json;
    if (report.status !== 'IN_PROCESS' || Date.now() > deadline) return report.status as string;
    await sleep(10);
  }
}

export const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** Bytes shaped like a JPEG (SOI, APP0, SOF0 with 2x2, SOS, EOI): enough for the structural check. */
export function tinyJpegBase64(): string {
  const bytes = [
    0xff, 0xd8, 0xff, 0xe0, 0x00, 0x10, 0x4a, 0x46, 0x49, 0x46, 0x00, 0x01, 0x01, 0x00, 0x00, 0x01, 0x00, 0x01, 0x00, 0x00, 0xff, 0xc0,
    0x00, 0x0b, 0x08, 0x00, 0x02, 0x00, 0x02, 0x01, 0x01, 0x11, 0x00, 0xff, 0xda, 0x00, 0x08, 0x01, 0x01, 0x00, 0x00, 0x3f, 0x00, 0xd2,
    0xcf, 0x20, 0xff, 0xd9,
  ];
  return Buffer.from(bytes).toString('base64');
}

/** Base64 of bytes that are no image at all. */
export const NOT_AN_IMAGE_BASE64 = Buffer.from('this is a text file, not a photo of a document').toString('base64');
/** Starts like a PNG, then stops: a truncated upload. */
export const TRUNCATED_PNG_BASE64 = Buffer.from([
  0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 0, 0, 13, 0x49, 0x48, 0x44, 0x52,
]).toString('base64');

/** Every xref entry must point at the byte where its `n 0 obj` starts, and startxref at `xref`. */
export function assertXrefValid(text: string): void {
  const startxref = Number(/startxref\s+(\d+)\s+%%EOF\s*$/.exec(text)?.[1]);
  assert.ok(Number.isInteger(startxref));
  assert.equal(text.slice(startxref, startxref + 4), 'xref');
  const table = /^xref\n0 (\d+)\n((?:\d{10} \d{5} [fn] \n)+)/.exec(text.slice(startxref));
  assert.ok(table, 'xref table');
  const count = Number(table[1]);
  const entries = table[2]!.trim().split('\n');
  assert.equal(entries.length, count);
  assert.match(entries[0]!, /^0000000000 65535 f/);
  for (let i = 1; i < count; i++) {
    const offset = Number(entries[i]!.slice(0, 10));
    assert.ok(text.startsWith(`${i} 0 obj`, offset), `object ${i} at ${offset}`);
  }
  const size = Number(/\/Size (\d+)/.exec(text.slice(startxref))?.[1]);
  assert.equal(size, count);
}
