/**
 * One server per child process, so its memory and CPU are its own and the load generator (the
 * bench process) does not share its event loop. Started by bench/lib/children.ts with
 * `fork(child.ts, [role])` and options as JSON in BENCH_SERVER_OPTIONS; reports over IPC:
 *   -> { type: 'ready', url }      once listening (127.0.0.1, ephemeral port)
 *   <- { type: 'stats' }           -> { type: 'stats', stats }   sandbox counters (sandbox only)
 *   <- { type: 'rss' }             -> { type: 'rss', rss, heapUsed?, external?, openStreams? } after a full GC
 *   <- { type: 'close' }           closes the server and exits
 * The companion keeps its default JSON logger (logging is part of its real cost); the parent
 * sends stdout to /dev/null. Its options may name a store by URL (`storeUrl`, and `redisPrefix`),
 * which the child opens with `createStore`, as `npm start` does with ONBOARDING_STORE.
 */
import { createStore, serveCompanion, type CompanionOptions } from '@onboarding-kit/server';
import { serveSandbox, type SandboxOptions } from '@onboarding-kit/sandbox';

type Message = { type: 'stats' | 'rss' | 'close' };

const role = process.argv[2];
const options = JSON.parse(process.env.BENCH_SERVER_OPTIONS ?? '{}') as Record<string, unknown>;

function send(message: Record<string, unknown>): void {
  process.send?.(message);
}

function collect(): void {
  const gc = (globalThis as { gc?: () => void }).gc;
  gc?.();
  gc?.();
}

if (role === 'sandbox') {
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
  const { storeUrl, redisPrefix, ...companionOptions } = options as Record<string, unknown> & { storeUrl?: string; redisPrefix?: string };
  const store = storeUrl ? await createStore(storeUrl, { ...(redisPrefix && { redisPrefix }) }) : undefined;
  const served = await serveCompanion({ ...(companionOptions as unknown as CompanionOptions), ...(store && { store }), port: 0, host: '127.0.0.1' });
  process.on('message', (m: Message) => {
    if (m.type === 'rss') {
      collect();
      const m = process.memoryUsage();
      send({ type: 'rss', rss: m.rss, heapUsed: m.heapUsed, external: m.external, openStreams: served.app.openStreams() });
    } else if (m.type === 'close') void served.close().finally(() => process.exit(0));
    else if (m.type === 'stats') send({ type: 'stats', stats: { openStreams: served.app.openStreams() } });
  });
  send({ type: 'ready', url: served.url });
} else {
  console.error(`bench/servers/child.ts: unknown role ${role}`);
  process.exit(2);
}
process.on('disconnect', () => process.exit(0));
