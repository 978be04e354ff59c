/**
 * `serveCompanion()`: the companion on a Node HTTP server, with bounded uploads and a graceful
 * shutdown. `listen()` is the same server for any Hono-style fetch handler (demo/start.ts mounts
 * the companion beside other routes with it); `closeOnSignals()` wires SIGTERM to the shutdown.
 */
import type { ApiErrorCode } from '@onboarding-kit/contract';
import { getRequestListener, RequestError, type ServerType } from '@hono/node-server';
import { createServer, type IncomingMessage, type Server, type ServerResponse, STATUS_CODES } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import { createCompanion, type CompanionApp } from './companion.js';
import { withNodeAdapter, type FetchHandler } from './transport/index.js';
import { silentLogger, type Logger } from './logger.js';
import type { CompanionOptions } from './options.js';

export interface ServeOptions {
  /** Default 8787; 0 picks a free port. */
  port?: number;
  /** Default 127.0.0.1. */
  host?: string;
  /** Longest time to receive a whole request, body included; a slower one is answered 408 (default 120 s). */
  requestTimeoutMs?: number;
  /** Longest time to receive a request's headers; then 408 (default 20 s). */
  headersTimeoutMs?: number;
  /** How long an idle keep-alive connection stays open (default 5 s); behind a load balancer, set it above the balancer's idle timeout. */
  keepAliveTimeoutMs?: number;
  /** Where requests refused by the HTTP layer itself are logged (default: nowhere; `serveCompanion` uses the companion's logger). */
  logger?: Logger;
}

const SERVE_DEFAULTS = {
  port: 8787,
  host: '127.0.0.1',
  requestTimeoutMs: 120_000,
  headersTimeoutMs: 20_000,
  keepAliveTimeoutMs: 5_000,
};

export interface ListeningServer {
  server: ServerType;
  /** `http://host:port`. */
  url: string;
  /** Requests received and not fully answered yet (event streams included). */
  inFlight(): number;
  /** Stops accepting connections; requests in flight go on, and each kept-alive connection closes after its answer. */
  stopAccepting(): void;
  /** Stops accepting, waits for requests in flight up to `graceMs` (default 5 s), then cuts the connections left. */
  close(options?: { graceMs?: number }): Promise<void>;
}

export interface ServedCompanion {
  app: CompanionApp;
  server: ServerType;
  /** `http://host:port`. */
  url: string;
  /**
   * Graceful shutdown: stops accepting, ends event streams with a `retry:` hint, hands polling
   * over, lets requests in flight finish (up to the companion's `shutdownGraceMs`), closes the
   * store and the server. Resolves as soon as nothing is in flight.
   */
  close(): Promise<void>;
  /** The longest `close()` should take; `closeOnSignals()` forces the exit after it. */
  readonly shutdownTimeoutMs: number;
}

/** The error shape (docs/page-api.md#error-shape) for answers of the HTTP layer itself. */
function errorJson(code: ApiErrorCode, message: string): string {
  return JSON.stringify({ error: { code, message } });
}

/**
 * Starts a Node server for `fetchHandler` with the settings the companion needs:
 * `autoCleanupIncoming: false`, so a refused oversized body is drained by the route (the 413
 * reaches the client) instead of the socket being cut after a fixed delay; request and header
 * timeouts, so a slow upload cannot hold a connection for ever; and the contract's error shape on
 * what the HTTP layer answers itself (a malformed request line, path or Host header, a timeout).
 */
export async function listen(fetchHandler: FetchHandler, options: ServeOptions = {}): Promise<ListeningServer> {
  const host = options.host ?? SERVE_DEFAULTS.host;
  const log = options.logger ?? silentLogger;
  const server = createBoundedServer(options);
  // First listener: counts every request before the app sees it.
  const requests = trackRequests(server, host);
  server.on('request', requestListener(fetchHandler, log));
  server.on('clientError', (error: NodeJS.ErrnoException, socket: Socket) => answerClientError(error, socket, log));

  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port ?? SERVE_DEFAULTS.port, host, () => {
      server.off('error', reject);
      resolve();
    });
  });
  const { port } = server.address() as AddressInfo;
  requests.ownHost = `${host.includes(':') ? `[${host}]` : host}:${port}`;
  const url = `http://${requests.ownHost}`;

  let closed: Promise<void> | undefined;
  const stopAccepting = () => {
    if (closed) return;
    requests.draining = true;
    closed = new Promise<void>((resolve) => server.close(() => resolve()));
    server.closeIdleConnections();
  };

  return {
    server,
    url,
    inFlight: () => requests.inFlight,
    stopAccepting,
    async close(closeOptions = {}) {
      stopAccepting();
      // Requests still running after the grace period are cut, so a shutdown always ends.
      if (!(await requests.idle(closeOptions.graceMs ?? 5_000))) server.closeAllConnections();
      await closed;
    },
  };
}

/** The node-server listener for `fetchHandler`, answering what it cannot hand to the handler in the error shape. */
function requestListener(fetchHandler: FetchHandler, log: Logger): ReturnType<typeof getRequestListener> {
  return getRequestListener(withNodeAdapter(fetchHandler), {
    autoCleanupIncoming: false,
    // Reached before the handler when node-server cannot build a Request (no or bad Host, malformed path), or when the handler's promise rejects.
    errorHandler: (error) => {
      if (error instanceof RequestError) {
        log.info('request refused by the HTTP layer', { reason: error.message });
        return new Response(errorJson('invalid_request', 'The request line or its Host header is malformed.'), {
          status: 400,
          headers: { 'content-type': 'application/json', 'cache-control': 'no-store' },
        });
      }
      log.error('unexpected error outside the routes', { error });
      return new Response(errorJson('internal_error', 'Internal error.'), {
        status: 500,
        headers: { 'content-type': 'application/json', 'cache-control': 'no-store' },
      });
    },
  });
}

/** A Node server whose request, header and keep-alive timeouts are those of `options`. */
function createBoundedServer(options: ServeOptions): Server {
  const requestTimeout = options.requestTimeoutMs ?? SERVE_DEFAULTS.requestTimeoutMs;
  return createServer({
    requestTimeout,
    headersTimeout: Math.min(options.headersTimeoutMs ?? SERVE_DEFAULTS.headersTimeoutMs, requestTimeout || Infinity),
    keepAliveTimeout: options.keepAliveTimeoutMs ?? SERVE_DEFAULTS.keepAliveTimeoutMs,
    // Timeouts are checked this often; Node's default (30 s) would make a short one fire very late.
    connectionsCheckingInterval: Math.max(
      250,
      Math.min(30_000, Math.floor(Math.min(requestTimeout || 30_000, options.headersTimeoutMs ?? SERVE_DEFAULTS.headersTimeoutMs) / 4)),
    ),
    // A request without Host goes on to node-server, which refuses it in the error shape above.
    requireHostHeader: false,
  });
}

/** The requests a server has in flight, so that a shutdown can wait for them. */
interface RequestTracker {
  inFlight: number;
  /** Set once the server stops accepting: each answer then closes its connection. */
  draining: boolean;
  /** `host:port` of this server, for HTTP/1.0 requests that name none. */
  ownHost: string;
  /** Resolves `true` once nothing is in flight, `false` if `ms` pass first. */
  idle(ms: number): Promise<boolean>;
}

/** Registers the server's first `request` listener, which counts each request until its answer ends. */
function trackRequests(server: Server, host: string): RequestTracker {
  const idleWaiters = new Set<() => void>();
  const tracker: RequestTracker = {
    inFlight: 0,
    draining: false,
    ownHost: host,
    idle: (ms) =>
      new Promise<boolean>((resolve) => {
        if (tracker.inFlight === 0) return resolve(true);
        const timer = setTimeout(() => done(false), ms);
        const done = (v: boolean) => {
          clearTimeout(timer);
          idleWaiters.delete(wake);
          resolve(v);
        };
        const wake = () => done(true);
        idleWaiters.add(wake);
      }),
  };
  // One listener for every answer's end (`on`, not `once`: a response closes once, and nothing is allocated per request).
  const answered = () => {
    tracker.inFlight--;
    if (tracker.draining) server.closeIdleConnections();
    if (tracker.inFlight === 0) for (const wake of [...idleWaiters]) wake();
  };
  server.on('request', (req: IncomingMessage, res: ServerResponse) => {
    tracker.inFlight++;
    // HTTP/1.0 has no Host (simple health checkers still send it so): it means this server. HTTP/1.1 without one is refused.
    if (req.headers.host === undefined && req.httpVersion === '1.0') req.headers.host = tracker.ownHost;
    if (tracker.draining) res.setHeader('Connection', 'close');
    res.on('close', answered);
  });
  return tracker;
}

/**
 * What Node's HTTP parser refuses before any route runs: a malformed request line or header, headers
 * too large, or a request that did not arrive within its timeout. Answered in the error shape when the
 * connection can still carry an answer; a client that went away is only logged.
 */
function answerClientError(error: NodeJS.ErrnoException, socket: Socket, log: Logger): void {
  const code = error.code ?? '';
  // HPE_INVALID_EOF_STATE: the client closed its side in the middle of a request.
  const gone = code === 'ECONNRESET' || code === 'EPIPE' || code === 'HPE_INVALID_EOF_STATE' || !socket.writable;
  const answering = (socket as Socket & { _httpMessage?: ServerResponse | null })._httpMessage;
  if (gone || answering?.headersSent) {
    log.info(gone ? 'client aborted the connection' : 'connection error after the answer began', { code });
    socket.destroy();
    return;
  }
  const [status, message] =
    code === 'ERR_HTTP_REQUEST_TIMEOUT'
      ? [408, 'The request did not arrive in time.']
      : code === 'HPE_HEADER_OVERFLOW'
        ? [431, 'The request headers are too large.']
        : [400, 'The request is not valid HTTP.'];
  log.info('request refused by the HTTP layer', { code, httpStatus: status });
  const body = errorJson('invalid_request', message);
  socket.end(
    `HTTP/1.1 ${status} ${STATUS_CODES[status]}\r\nContent-Type: application/json\r\nContent-Length: ${Buffer.byteLength(body)}\r\n` +
      `Cache-Control: no-store\r\nConnection: close\r\n\r\n${body}`,
  );
}

export async function serveCompanion(options: CompanionOptions & ServeOptions): Promise<ServedCompanion> {
  const { port, host, requestTimeoutMs, headersTimeoutMs, keepAliveTimeoutMs, ...companionOptions } = options;
  const app = createCompanion(companionOptions);
  const served = await listen(app.fetch, {
    ...(port !== undefined && { port }),
    ...(host !== undefined && { host }),
    ...(requestTimeoutMs !== undefined && { requestTimeoutMs }),
    ...(headersTimeoutMs !== undefined && { headersTimeoutMs }),
    ...(keepAliveTimeoutMs !== undefined && { keepAliveTimeoutMs }),
    logger: app.logger,
  });
  let closing: Promise<void> | undefined;
  return {
    app,
    server: served.server,
    url: served.url,
    shutdownTimeoutMs: app.shutdownGraceMs + 5_000,
    close() {
      closing ??= (async () => {
        served.stopAccepting();
        await app.close();
        // What is left are answers being written (event streams' last lines): a moment, no more.
        await served.close({ graceMs: 2_000 });
      })();
      return closing;
    },
  };
}

export interface SignalOptions {
  /** Forced exit (code 1) when the shutdown takes longer (default: the target's `shutdownTimeoutMs`, else 20 s). */
  timeoutMs?: number;
  signals?: readonly NodeJS.Signals[];
  logger?: Logger;
  /** Default `process.exit`. */
  exit?: (code: number) => void;
}

/**
 * On the first SIGTERM or SIGINT, runs `target.close()` and exits 0 as soon as it resolves; a
 * second signal, or the timeout, forces the exit with code 1. Returns the function that removes
 * the handlers.
 */
export function closeOnSignals(
  target: { close(): Promise<void>; readonly shutdownTimeoutMs?: number },
  options: SignalOptions = {},
): () => void {
  const signals = options.signals ?? ['SIGTERM', 'SIGINT'];
  const log = options.logger ?? silentLogger;
  const exit = options.exit ?? ((code: number) => process.exit(code));
  const timeoutMs = options.timeoutMs ?? target.shutdownTimeoutMs ?? 20_000;
  let stopping = false;
  const onSignal = (signal: NodeJS.Signals) => {
    if (stopping) {
      log.warn('second signal during shutdown: exiting now', { signal });
      exit(1);
      return;
    }
    stopping = true;
    log.info('shutting down', { signal, timeoutMs });
    const timer = setTimeout(() => {
      log.warn('shutdown did not finish in time: exiting now', { timeoutMs });
      exit(1);
    }, timeoutMs);
    target.close().then(
      () => {
        clearTimeout(timer);
        log.info('shut down');
        exit(0);
      },
      (error: unknown) => {
        clearTimeout(timer);
        log.error('shutdown failed', { error });
        exit(1);
      },
    );
  };
  for (const s of signals) process.on(s, onSignal);
  return () => {
    for (const s of signals) process.off(s, onSignal);
  };
}
