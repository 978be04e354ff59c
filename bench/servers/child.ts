/**
 * One server per child process, so its memory and CPU are its own and the load generator (the
 * bench process) does not share its event loop. Started by bench/lib/children.ts with
 * `fork(child.ts, [role])` and options as JSON in BENCH_SERVER_OPTIONS; reports over IPC:
 *   -> { type: 'ready', url }      once listening (127.0.0.1, ephemeral port)
 *   <- { type: 'stats' }           -> { type: 'stats', stats }   sandbox counters (sandbox only)
 *   <- { type: 'rss' }             -> { type: 'rss', rss, heapUsed?, external?, openStreams? } after a full GC
 *   <- { type: 'gc' }              -> { type: 'gc', major }   full collections so far (companion, proxy)
 *   <- { type: 'close' }           closes the server and exits
 * The companion keeps its default JSON logger (logging is part of its real cost); the parent
 * sends stdout to /dev/null. Its options may name a store by URL (`storeUrl`, and `redisPrefix`),
 * which the child opens with `createStore`, as `npm start` does with ONBOARDING_STORE.
 * The `proxy` role is the floor for the companion's extra hop: a bare node:http pass-through that
 * pipes each request (method, path, headers, body) to `target` over keep-alive sockets and the
 * answer back, checking nothing and holding no body. Each role loads only its own modules, so
 * the proxy's memory is node, the loader and node:http.
 */
import { Agent, createServer, request } from 'node:http';
import type { AddressInfo } from 'node:net';
import { constants, PerformanceObserver } from 'node:perf_hooks';
import type { CompanionOptions } from '@onboarding-kit/server';
import type { SandboxOptions } from '@onboarding-kit/sandbox';

type Message = { type: 'stats' | 'rss' | 'close' | 'heap' | 'gc' };

const role = process.argv[2];
const options = JSON.parse(process.env.BENCH_SERVER_OPTIONS ?? '{}') as Record<string, unknown>;

function send(message: Record<string, unknown>): void {
  process.send?.(message);
}

/** Counts V8's full collections (mark-compact) from the time it is called, forced ones left out. */
function countFullCollections(): () => { major: number } {
  let major = 0;
  new PerformanceObserver((list) => {
    for (const entry of list.getEntries()) {
      const detail = (entry as PerformanceEntry & { detail?: { kind?: number; flags?: number } | null }).detail;
      // Not the ones the bench itself forces (gc() before reading memory).
      if (detail?.kind !== constants.NODE_PERFORMANCE_GC_MAJOR || (detail.flags ?? 0) & constants.NODE_PERFORMANCE_GC_FLAGS_FORCED)
        continue;
      major++;
    }
  }).observe({ entryTypes: ['gc'] });
  return () => ({ major });
}

function collect(): void {
  const gc = (globalThis as { gc?: () => void }).gc;
  gc?.();
  gc?.();
}

if (role === 'sandbox') {
  const { serveSandbox } = await import('@onboarding-kit/sandbox');
  const served = await serveSandbox({ ...(options as SandboxOptions), port: 0, host: '127.0.0.1' });
  process.on('message', (m: Message) => {
    if (m.type === 'stats') send({ type: 'stats', stats: served.sandbox.stats() });
    else if (m.type === 'rss') {
      collect();
      send({ type: 'rss', rss: process.memoryUsage().rss });
    } else if (m.type === 'close') void served.close().finally(() => process.exit(0));
  });
  send({ type: 'ready', url: served.url });
} else if (role === 'companion') {
  const { createStore, serveCompanion } = await import('@onboarding-kit/server');
  const { storeUrl, redisPrefix, ...companionOptions } = options as Record<string, unknown> & { storeUrl?: string; redisPrefix?: string };
  const store = storeUrl ? await createStore(storeUrl, { ...(redisPrefix && { redisPrefix }) }) : undefined;
  const served = await serveCompanion({
    ...(companionOptions as unknown as CompanionOptions),
    ...(store && { store }),
    port: 0,
    host: '127.0.0.1',
  });
  const fullCollections = countFullCollections();
  process.on('message', (m: Message) => {
    if (m.type === 'gc') send({ type: 'gc', ...fullCollections() });
    if (m.type === 'rss') {
      collect();
      const m = process.memoryUsage();
      send({ type: 'rss', rss: m.rss, heapUsed: m.heapUsed, external: m.external, openStreams: served.app.openStreams() });
    } else if (m.type === 'close') void served.close().finally(() => process.exit(0));
    else if (m.type === 'stats') send({ type: 'stats', stats: { openStreams: served.app.openStreams() } });
    else if (m.type === 'heap' && process.env.BENCH_HEAP_SNAPSHOT)
      void import('node:v8').then((v8) =>
        send({ type: 'heap', file: v8.writeHeapSnapshot(`${process.env.BENCH_HEAP_SNAPSHOT}/companion-${Date.now()}.heapsnapshot`) }),
      );
  });
  send({ type: 'ready', url: served.url });
} else if (role === 'proxy') {
  const target = new URL(String(options.target));
  const agent = new Agent({ keepAlive: true, maxSockets: Infinity, maxFreeSockets: 256 });
  const server = createServer((req, res) => {
    const headers = { ...req.headers, host: target.host };
    const up = request({ host: target.hostname, port: target.port, method: req.method, path: req.url, headers, agent }, (answer) => {
      res.writeHead(answer.statusCode ?? 502, answer.headers);
      answer.pipe(res);
    });
    up.on('error', () => {
      if (!res.headersSent) res.writeHead(502).end();
      else res.destroy();
    });
    req.pipe(up);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const fullCollections = countFullCollections();
  process.on('message', (m: Message) => {
    if (m.type === 'gc') send({ type: 'gc', ...fullCollections() });
    if (m.type === 'rss') {
      collect();
      send({ type: 'rss', rss: process.memoryUsage().rss });
    } else if (m.type === 'close') {
      server.closeAllConnections();
      server.close(() => process.exit(0));
    }
  });
  send({ type: 'ready', url: `http://127.0.0.1:${(server.address() as AddressInfo).port}` });
} else {
  console.error(`bench/servers/child.ts: unknown role ${role}`);
  process.exit(2);
}
process.on('disconnect', () => process.exit(0));
