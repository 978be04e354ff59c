/**
 * A small real HTTP stand-in for the upstream, for unit tests of the companion and its client:
 * issues tokens, checks Bearer tokens (real HTTP 401), records every call, and lets a test
 * override any route's answer (status, JSON or raw bytes, delay).
 *
 * Paths that work run against the sandbox (@onboarding-kit/testing/stack: `startStack()`,
 * `companionOn()`, the sandbox's test identities and faults). This stays only for what the
 * sandbox cannot script:
 * - answers no upstream gives for its identities and faults: HTML or non-JSON bodies, HTTP 503,
 *   a creation answer missing its members, an in-body 400/500 (with externalId) on creation,
 *   a PDF route answering something that is not a PDF, customer records with null fields;
 * - one route held or slowed while the others answer at once (timeouts, requests in flight at
 *   shutdown); the sandbox's latency fault slows every route, the token call included;
 * - a 401 for a token just renewed, and report statuses set by hand for tokens the upstream
 *   never issued, at the moment a test chooses (polling, leases, retention).
 */
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { randomUUID } from 'node:crypto';

export interface RecordedCall {
  method: string;
  path: string;
  headers: IncomingMessage['headers'];
  body: unknown;
  /** Date.now() when the call arrived. */
  at: number;
}

export interface Answer {
  status?: number;
  json?: unknown;
  raw?: Uint8Array | string;
  contentType?: string;
  delayMs?: number;
}

export type Override = (call: RecordedCall) => Answer | undefined | Promise<Answer | undefined>;

export interface FakeUpstream {
  url: string;
  calls: RecordedCall[];
  /** Calls to one path prefix, token generation included or not. */
  count(pathPrefix: string): number;
  tokensIssued(): number;
  /** Every token issued so far stops working. */
  expireTokens(): void;
  /** Status the report endpoint gives for a token (default IN_PROCESS). */
  reportStatus: Map<string, { status: string; externalId?: string }>;
  override(pathPrefix: string, fn: Override | undefined): void;
  close(): Promise<void>;
}

export const FAKE_CLIENT = 'fake-client';
export const FAKE_SECRET = 'fake-secret-value-123';
const PDF_BYTES = new TextEncoder().encode('%PDF-1.4\n% fake report\n1 0 obj << >> endobj\n%%EOF\n');

export async function startFakeUpstream(options: { expiresIn?: number } = {}): Promise<FakeUpstream> {
  const calls: RecordedCall[] = [];
  const valid = new Set<string>();
  const overrides = new Map<string, Override>();
  const reportStatus = new Map<string, { status: string; externalId?: string }>();
  let issued = 0;

  const send = async (res: ServerResponse, a: Answer) => {
    if (a.delayMs) await new Promise((r) => setTimeout(r, a.delayMs));
    if (res.destroyed) return;
    const body = a.raw ?? JSON.stringify(a.json ?? null);
    res.writeHead(a.status ?? 200, { 'content-type': a.contentType ?? (a.raw ? 'application/octet-stream' : 'application/json') });
    res.end(body);
  };

  const server = createServer(async (req, res) => {
    const chunks: Buffer[] = [];
    for await (const c of req) chunks.push(c as Buffer);
    const text = Buffer.concat(chunks).toString('utf8');
    let body: unknown = text;
    try {
      body = text ? JSON.parse(text) : undefined;
    } catch {
      /* keep text */
    }
    const url = new URL(req.url ?? '/', 'http://x');
    const call: RecordedCall = { method: req.method ?? 'GET', path: url.pathname + url.search, headers: req.headers, body, at: Date.now() };
    calls.push(call);
    for (const [prefix, fn] of overrides) {
      if (call.path.startsWith(prefix)) {
        const a = await fn(call);
        if (a) return send(res, a);
      }
    }
    if (url.pathname === '/api/token-generate') {
      const b = body as { client?: string; secret?: string };
      if (b?.client !== FAKE_CLIENT || b?.secret !== FAKE_SECRET)
        return send(res, { status: 401, json: { status: { code: 401, message: 'Unauthorized' } } });
      const token = `eyJ.fake-access-token-${++issued}-${randomUUID()}`;
      valid.add(token);
      return send(res, { json: { access_token: token, expires_in: options.expiresIn ?? 300 } });
    }
    const auth = /^Bearer (.+)$/.exec(req.headers.authorization ?? '')?.[1];
    if (!auth || !valid.has(auth)) return send(res, { status: 401, json: { status: { code: 401, message: 'Unauthorized' } } });
    if (url.pathname === '/api/token-history-onboarding') {
      return send(res, { json: { tokenOnboarding: randomUUID(), dateHourProcess: new Date().toISOString() } });
    }
    const report = /^\/api\/onboarding\/report\/(.+)$/.exec(url.pathname);
    if (report) {
      const token = decodeURIComponent(report[1]!);
      const s = reportStatus.get(token) ?? { status: 'IN_PROCESS' };
      return send(res, { json: { tokenOnboarding: token, ...s, fields: {}, services: [] } });
    }
    if (url.pathname.startsWith('/api/history-onboarding-report/')) return send(res, { raw: PDF_BYTES, contentType: 'application/pdf' });
    if (url.pathname === '/api/customer')
      return send(res, {
        json: [{ tokenCustomer: randomUUID(), documentKey: url.searchParams.get('documentKey'), active: true, name: null }],
      });
    if (url.pathname === '/api/service-api') {
      return send(res, {
        json: {
          result: { cpf: (body as { cpf?: string }).cpf, isPep: false, positions: [], fieldsOutput: ['x'], extra: null },
          status: { code: 200, message: 'Success' },
        },
      });
    }
    return send(res, { status: 404, json: { status: { code: 404, message: 'Not found' } } });
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    calls,
    count: (prefix) => calls.filter((c) => c.path.startsWith(prefix)).length,
    tokensIssued: () => issued,
    expireTokens: () => valid.clear(),
    reportStatus,
    override: (prefix, fn) => (fn ? overrides.set(prefix, fn) : overrides.delete(prefix)),
    close: () =>
      new Promise<void>((r) => {
        server.close(() => r());
        server.closeAllConnections();
      }),
  };
}
