/**
 * Test support for the admin and evidence tests (not a test file itself): a small REAL upstream
 * stand-in over HTTP (node:http on 127.0.0.1, port 0) serving onboarding reports, PDFs and
 * customers as docs/upstream-api.md describes them, an adapter that gives the admin routes their
 * `deps.upstream` over that HTTP, an in-memory store, and PDF generators.
 */
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import { once } from 'node:events';
import { createHash } from 'node:crypto';
import type { AddressInfo } from 'node:net';
import { Hono } from 'hono';
import { serve } from '@hono/node-server';
import { createAdminRoutes, type AdminDeps, type AdminOnboardingRecord } from '../src/admin/admin-routes.js';
import { companionErrorHandler, notFoundHandler } from '../src/http/error-handler.js';
import type { CompanionEnv } from '../src/http/env.js';
import { silentLogger, type Logger } from '../src/logger.js';

export const STANDIN_ACCESS_TOKEN = 'standin-access-token-7f3a';
export const ADMIN_KEY = 'admin-key-for-tests-0123456789abcdef';

const encoder = new TextEncoder();

/** A valid, minimal one-page PDF 1.4 (text), with a correct xref table. */
export function minimalPdf(text = 'Onboarding report'): Uint8Array {
  const content = `BT /F1 18 Tf 20 70 Td (${text.replace(/[()\\]/g, '')}) Tj ET`;
  const objects = [
    '<< /Type /Catalog /Pages 2 0 R >>',
    '<< /Type /Pages /Kids [3 0 R] /Count 1 >>',
    '<< /Type /Page /Parent 2 0 R /MediaBox [0 0 300 144] /Contents 4 0 R /Resources << /Font << /F1 5 0 R >> >> >>',
    `<< /Length ${content.length} >>\nstream\n${content}\nendstream`,
    '<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica >>',
  ];
  let out = '%PDF-1.4\n';
  const offsets: number[] = [];
  objects.forEach((body, i) => {
    offsets.push(out.length);
    out += `${i + 1} 0 obj\n${body}\nendobj\n`;
  });
  const xref = out.length;
  out += `xref\n0 ${objects.length + 1}\n0000000000 65535 f \n`;
  for (const offset of offsets) out += `${String(offset).padStart(10, '0')} 00000 n \n`;
  out += `trailer\n<< /Size ${objects.length + 1} /Root 1 0 R >>\nstartxref\n${xref}\n%%EOF\n`;
  return encoder.encode(out);
}

/**
 * A PDF of exactly `size` bytes produced chunk by chunk, never held whole: header, one stream
 * object of pseudo-random (incompressible) bytes, xref and trailer.
 */
export function* generatedPdfChunks(size: number, chunkSize = 64 * 1024): Generator<Uint8Array> {
  const head = encoder.encode('%PDF-1.4\n%\xE2\xE3\xCF\xD3\n1 0 obj\n<< /Length 0000000000 >>\nstream\n');
  const tail = encoder.encode('\nendstream\nendobj\ntrailer\n<< /Size 2 >>\n%%EOF\n');
  const payload = size - head.length - tail.length;
  if (payload < 0) throw new RangeError('PDF too small');
  yield head;
  let state = 0x9e3779b9 ^ size;
  for (let sent = 0; sent < payload; sent += chunkSize) {
    const chunk = new Uint8Array(Math.min(chunkSize, payload - sent));
    for (let i = 0; i < chunk.length; i += 4) {
      state ^= state << 13;
      state ^= state >>> 17;
      state ^= state << 5;
      chunk[i] = state & 0xff;
      if (i + 1 < chunk.length) chunk[i + 1] = (state >>> 8) & 0xff;
      if (i + 2 < chunk.length) chunk[i + 2] = (state >>> 16) & 0xff;
      if (i + 3 < chunk.length) chunk[i + 3] = (state >>> 24) & 0xff;
    }
    yield chunk;
  }
  yield tail;
}

export type StandInPdf =
  | { kind: 'tiny' }
  | { kind: 'generated'; size: number }
  | { kind: 'html' }
  | { kind: 'status'; status: number }
  | { kind: 'hang' };

export interface StandInOnboarding {
  /** The JSON report; `500` answers `{status:{code:500,...}}` with HTTP 500; `hang` never answers. */
  report: Record<string, unknown> | 500 | 'hang';
  pdf: StandInPdf;
}

export interface StandIn {
  url: string;
  /** Every request path (with query) received, in order. */
  requests: string[];
  /** Size and SHA-256 of each PDF fully sent, by token. */
  pdfSent: Map<string, { size: number; sha256: string }>;
  /** Tokens whose PDF download the client (the admin route) gave up before the end. */
  pdfAbandoned: Set<string>;
  close(): Promise<void>;
}

/**
 * The upstream, as far as the admin routes use it (docs/upstream-api.md#customer-lookup,
 * docs/upstream-api.md#pdf-report, docs/upstream-api.md#onboarding-report).
 */
export async function startStandIn(
  onboardings: Record<string, StandInOnboarding>,
  /** By documentKey: the array to answer, or `500` for a failing lookup. */
  customers: Record<string, Record<string, unknown>[] | 500> = {},
): Promise<StandIn> {
  const requests: string[] = [];
  const pdfSent = new Map<string, { size: number; sha256: string }>();
  const pdfAbandoned = new Set<string>();
  const statusBody = (res: ServerResponse, code: number, message: string) => {
    res.writeHead(code, { 'content-type': 'application/json' }).end(JSON.stringify({ status: { code, message } }));
  };

  const handle = async (req: IncomingMessage, res: ServerResponse) => {
    requests.push(req.url ?? '');
    if (req.headers.authorization !== `Bearer ${STANDIN_ACCESS_TOKEN}`) return statusBody(res, 401, 'Unauthorized');
    const url = new URL(req.url ?? '/', 'http://standin');
    let match: RegExpExecArray | null;
    if ((match = /^\/api\/onboarding\/report\/([^/]+)$/.exec(url.pathname))) {
      const onboarding = onboardings[decodeURIComponent(match[1]!)];
      if (!onboarding) return statusBody(res, 400, 'Failed to fetch information');
      if (onboarding.report === 'hang') return;
      if (onboarding.report === 500) return statusBody(res, 500, 'Falha ao realizar consulta');
      res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify(onboarding.report));
      return;
    }
    if ((match = /^\/api\/history-onboarding-report\/([^/]+)$/.exec(url.pathname))) {
      const token = decodeURIComponent(match[1]!);
      const pdf = onboardings[token]?.pdf;
      if (!pdf) return statusBody(res, 400, 'Failed to fetch information');
      switch (pdf.kind) {
        case 'hang':
          return;
        case 'status':
          return statusBody(res, pdf.status, pdf.status === 403 ? 'Forbidden' : 'Failed to fetch information');
        case 'html':
          res.writeHead(200, { 'content-type': 'text/html' }).end('<html><body>maintenance</body></html>');
          return;
        case 'tiny':
        case 'generated': {
          res.writeHead(200, { 'content-type': 'application/pdf' });
          const hash = createHash('sha256');
          let size = 0;
          const chunks = pdf.kind === 'tiny' ? [minimalPdf(`Report ${token}`)] : generatedPdfChunks(pdf.size);
          for (const chunk of chunks) {
            if (res.destroyed) return void pdfAbandoned.add(token);
            hash.update(chunk);
            size += chunk.byteLength;
            // Respect backpressure: never queue more than the socket takes.
            if (!res.write(chunk)) await drainOrClose(res);
          }
          res.end();
          pdfSent.set(token, { size, sha256: hash.digest('hex') });
          return;
        }
      }
    }
    if (url.pathname === '/api/customer') {
      const key = url.searchParams.get('documentKey') ?? '';
      if (customers[key] === 500) return statusBody(res, 500, 'Falha ao realizar consulta');
      res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify(customers[key] ?? []));
      return;
    }
    statusBody(res, 404, 'Not Found');
  };

  const server = createServer((req, res) => {
    handle(req, res).catch(() => res.destroy());
  });
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    requests,
    pdfSent,
    pdfAbandoned,
    async close() {
      server.closeAllConnections();
      server.close();
      await once(server, 'close').catch(() => {});
    },
  };
}

/** Resolves when the response can take more bytes or is gone, leaving no listener behind. */
function drainOrClose(res: ServerResponse): Promise<void> {
  return new Promise((resolve) => {
    const done = () => {
      res.off('drain', done);
      res.off('close', done);
      resolve();
    };
    res.on('drain', done);
    res.on('close', done);
  });
}

/** What an upstream client throws for a non-2xx answer: carries the HTTP status, never the body. */
class StandInHttpError extends Error {
  override readonly name = 'StandInHttpError';
  constructor(readonly status: number) {
    super(`upstream answered HTTP ${status}`);
  }
}

/** `deps.upstream` over real HTTP to the stand-in, with a timeout per call. */
export function standInUpstream(baseUrl: string, timeoutMs = 5000): AdminDeps['upstream'] {
  const get = (path: string) =>
    fetch(`${baseUrl}${path}`, { headers: { authorization: `Bearer ${STANDIN_ACCESS_TOKEN}` }, signal: AbortSignal.timeout(timeoutMs) });
  const json = async (path: string) => {
    const res = await get(path);
    if (!res.ok) {
      await res.body?.cancel();
      throw new StandInHttpError(res.status);
    }
    return res.json() as Promise<unknown>;
  };
  return {
    report: (token) => json(`/api/onboarding/report/${encodeURIComponent(token)}`),
    reportPdf: (token) => get(`/api/history-onboarding-report/${encodeURIComponent(token)}`),
    customers: (documentKey) => json(`/api/customer?documentKey=${encodeURIComponent(documentKey)}`),
  };
}

export function memoryStore(records: AdminOnboardingRecord[]): AdminDeps['store'] {
  const byToken = new Map(records.map((r) => [r.tokenOnboarding, r]));
  return { get: async (token) => byToken.get(token) ?? null };
}

/** The admin routes mounted the way the companion mounts them: at /v1/admin, under its one error handler. */
export function hostApp(deps: AdminDeps, logger: Logger = silentLogger): Hono<CompanionEnv> {
  const host = new Hono<CompanionEnv>();
  host.onError(companionErrorHandler({ logger, environment: deps.environment }));
  host.notFound(notFoundHandler);
  host.route('/v1/admin', createAdminRoutes(deps));
  return host;
}

/** Serves `app` on 127.0.0.1 with an ephemeral port. */
export async function serveOnSocket(app: Hono<CompanionEnv>): Promise<{ url: string; close(): Promise<void> }> {
  let server!: ReturnType<typeof serve>;
  const { port } = await new Promise<AddressInfo>((resolve) => {
    server = serve({ fetch: app.fetch, port: 0, hostname: '127.0.0.1' }, (info) => resolve(info));
  });
  return {
    url: `http://127.0.0.1:${port}`,
    close: () =>
      new Promise<void>((done) => {
        (server as unknown as { closeAllConnections?: () => void }).closeAllConnections?.();
        server.close(() => done());
      }),
  };
}
