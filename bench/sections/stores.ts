/**
 * Section 6, stores: the same companion on each store `createStore` offers, in the same run:
 * creation throughput (`POST /v1/onboardings`) and webhook-to-page latency with the memory store
 * (the baseline), a SQLite file and Redis; then two companions on one Redis, the webhook answered
 * by one and the event read from a stream held by the other.
 */
import { randomUUID } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { SAMPLE_PNG_BASE64 } from '@onboarding-kit/sandbox';
import { startRedisServer, type RedisServer } from '@onboarding-kit/testing/redis-server';
import { startServer, type ServerChild } from '../lib/children.js';
import { keepAliveAgent, runLoad, send, type LoadResult } from '../lib/http-load.js';
import { emptySection, type SectionResult } from '../lib/report.js';
import { ms, percentile, perSecond, ratio, reason } from '../lib/stats.js';
import { withTimeout } from '../lib/timeout.js';
import { CREDENTIALS } from './companion.js';
import { decide } from './relay.js';
import { openStream, type Created } from './relay.js';

export interface StoreSettings {
  /** Creations per store, measured (after a few unmeasured ones). */
  creations: number;
  concurrency: number;
  /** Webhooks sent one at a time per store, each waiting for its event. */
  samples: number;
}

export const DEFAULT_STORES: StoreSettings = { creations: 400, concurrency: 16, samples: 200 };

const WARMUP = 10;
/** Unmeasured creations on each fresh companion first (JIT of the companion and the sandbox, sockets, the token). */
const WARMUP_CREATIONS = 60;

interface StoreRun {
  label: string;
  /** Successful creations and the wall time they took, summed over the rounds. */
  created: number;
  seconds: number;
  creationLatencies: number[];
  relay: number[];
}

export async function measureStores(settings: StoreSettings): Promise<SectionResult> {
  const s = emptySection('stores', '6. Stores: memory, SQLite, Redis');
  s.method.push(
    'Sandbox in a child process as in section 3 (onboardings stay IN_PROCESS; no polling). For each store a fresh companion child, given the store by URL as `npm start` gets ONBOARDING_STORE: `memory` (the baseline), `sqlite:<temporary file>` (WAL, every commit fsynced), and `redis://` on a throwaway redis-server on loopback (no persistence).',
    `Two rounds, the stores in one order then in the reverse order, so neither warming nor the machine's drift favours a store; each round starts a fresh companion per store and first makes ${WARMUP_CREATIONS} unmeasured creations.`,
    `Creation throughput: ${settings.creations} \`POST /v1/onboardings\` per store (half per round; two tiny PNGs) from ${settings.concurrency} keep-alive connections; successful creations per second of wall time. The upstream call is part of every creation, so the figure is what an integrator sees, the store's share included.`,
    `Webhook to page: ${settings.samples} onboardings, each with its event stream open (fetch streaming, as the element reads it); the sandbox decides it (untimed), then a webhook (onboarding report, APPROVED) is posted, one at a time, and timed until its terminal \`status\` event is parsed (the companion's read of the upstream's report included).`,
    `Across instances: two companion children on the same Redis (same prefix). Each onboarding is created on A, its stream opened on B, the webhook posted to A: the change travels through Redis pub/sub. ${settings.samples} samples, one at a time.`,
  );
  let sandbox: ServerChild | undefined;
  let redis: RedisServer | undefined;
  let redisError = '';
  const dir = mkdtempSync(join(tmpdir(), 'okit-bench-stores-'));
  const agent = keepAliveAgent(Math.max(4, settings.concurrency));
  const children: ServerChild[] = [];
  const companion = async (storeUrl: string, redisPrefix?: string) => {
    const c = await startServer('companion', {
      baseUrl: sandbox!.url,
      ...CREDENTIALS,
      rateLimit: 0,
      creations: { perClient: 0 },
      poll: { firstDelayMs: 3_600_000 },
      storeUrl,
      ...(redisPrefix && { redisPrefix }),
    });
    children.push(c);
    return c;
  };
  const body = Buffer.from(
    JSON.stringify({ cpf: '529.982.247-25', documentType: 'CNH', images: { documentFront: SAMPLE_PNG_BASE64, selfie: SAMPLE_PNG_BASE64 } }),
  );
  const create = (base: string, count: number, concurrency: number) =>
    runLoad({
      agent,
      url: `${base}/v1/onboardings`,
      body,
      concurrency,
      count,
      ok: [201],
      keepBodies: true,
      headers: () => ({ 'content-type': 'application/json' }),
      maxSeconds: 120,
    });
  const webhook = async (base: string, o: Created) => {
    const payload = Buffer.from(JSON.stringify({ tokenOnboarding: o.tokenOnboarding, status: 'APPROVED', fields: {}, services: [] }));
    await decide(agent, sandbox!, o);
    const t0 = performance.now();
    const res = await send(
      agent,
      `${base}/v1/webhooks`,
      'POST',
      { 'content-type': 'application/json', 'id-service-token': CREDENTIALS.webhookKey },
      payload,
    );
    if (res.status !== 200) throw new Error(`webhook: HTTP ${res.status} ${res.text.slice(0, 120)}`);
    return t0;
  };
  /** One webhook at a time: stream on `readFrom`, webhook to `sendTo`, latency to the terminal event. */
  const relay = async (sendTo: string, readFrom: string, onboardings: Created[]) => {
    const out: number[] = [];
    for (const [i, o] of onboardings.entries()) {
      const st = openStream(readFrom, o);
      try {
        await withTimeout(st.opened, 10_000, 'opening a stream');
        const t0 = await webhook(sendTo, o);
        const latency = (await withTimeout(st.terminal, 10_000, 'a relayed event')) - t0;
        if (i >= WARMUP) out.push(latency);
      } finally {
        st.cancel();
      }
    }
    return out;
  };
  const made = (r: LoadResult) => r.bodies.map((b) => JSON.parse(b) as Created);

  try {
    sandbox = await startServer('sandbox', { ...CREDENTIALS, processingMs: 600_000 });
    try {
      redis = await startRedisServer();
    } catch (error) {
      redisError = reason(error);
    }
    const stores = [
      { label: 'memory (baseline)', url: 'memory' },
      { label: 'SQLite file', url: `sqlite:${join(dir, 'bench.db')}` },
      ...(redis ? [{ label: 'Redis', url: redis.url, prefix: `bench-${randomUUID().slice(0, 8)}:` }] : []),
    ];
    const runs: StoreRun[] = stores.map((st) => ({ label: st.label, created: 0, seconds: 0, creationLatencies: [], relay: [] }));
    const perRound = { creations: Math.ceil(settings.creations / 2), samples: Math.ceil(settings.samples / 2) };
    for (const order of [stores, [...stores].reverse()]) {
      for (const store of order) {
        const run = runs.find((r) => r.label === store.label)!;
        const c = await companion(store.url, store.prefix);
        await create(c.url, WARMUP_CREATIONS, settings.concurrency);
        const creation = await create(c.url, perRound.creations, settings.concurrency);
        if (creation.ok < perRound.creations)
          throw new Error(
            `${store.label}: only ${creation.ok} of ${perRound.creations} creations succeeded (${creation.firstError ?? 'no error'})`,
          );
        run.created += creation.ok;
        run.seconds += creation.seconds;
        run.creationLatencies.push(...creation.latencies);
        run.relay.push(...(await relay(c.url, c.url, made(creation).slice(0, perRound.samples + WARMUP))));
        await c.close();
      }
    }

    let cross: number[] = [];
    if (redis) {
      const prefix = `bench-x-${randomUUID().slice(0, 8)}:`;
      const a = await companion(redis.url, prefix);
      const b = await companion(redis.url, prefix);
      const onA = made(await create(a.url, settings.samples + WARMUP, 4));
      cross = await relay(a.url, b.url, onA);
    }

    const base = runs[0]!;
    const rate = (r: StoreRun) => r.created / r.seconds;
    s.tables.push({
      title: `Creation throughput and webhook to page, per store (baseline = memory store, same run; ${settings.concurrency} connections for creations)`,
      headers: ['store', 'creations/s', 'vs memory', 'creation p50', 'creation p99', 'webhook->page p50', 'p99', 'p99 vs memory'],
      rows: runs.map((r) => [
        r.label,
        perSecond(rate(r)),
        ratio(rate(r), rate(base)),
        ms(percentile(r.creationLatencies, 50)),
        ms(percentile(r.creationLatencies, 99)),
        ms(percentile(r.relay, 50)),
        ms(percentile(r.relay, 99)),
        ratio(percentile(r.relay, 99), percentile(base.relay, 99)),
      ]),
    });
    const single = runs.find((r) => r.label === 'Redis');
    if (single && cross.length) {
      s.tables.push({
        title: 'Webhook to page across instances through Redis (baseline = the same Redis, webhook and stream on one instance)',
        headers: ['case', 'samples', 'p50', 'p99', 'max', 'p99 vs one instance'],
        rows: [
          [
            'one instance on Redis',
            String(single.relay.length),
            ms(percentile(single.relay, 50)),
            ms(percentile(single.relay, 99)),
            ms(Math.max(...single.relay)),
            '1.00x',
          ],
          [
            'webhook to A, stream on B',
            String(cross.length),
            ms(percentile(cross, 50)),
            ms(percentile(cross, 99)),
            ms(Math.max(...cross)),
            ratio(percentile(cross, 99), percentile(single.relay, 99)),
          ],
        ],
      });
      const p99 = percentile(cross, 99);
      s.targets.push({
        target: 'a webhook answered by instance A reaches a stream on B within 1 s (p99)',
        figure: `${ms(p99)} p99 across instances through Redis`,
        met: p99 <= 1_000,
      });
    } else {
      s.notes.push(`Redis not measured: ${redisError || 'no Redis run'}.`);
      s.targets.push({
        target: 'a webhook answered by instance A reaches a stream on B within 1 s (p99)',
        figure: 'not measured',
        met: null,
        note: redisError,
      });
    }
    return s;
  } catch (error) {
    s.notMeasured = `could not run the stores measurement (${reason(error)})`;
    return s;
  } finally {
    agent.destroy();
    for (const c of children) await c.close().catch(() => undefined);
    await sandbox?.close();
    await redis?.stop();
    rmSync(dir, { recursive: true, force: true });
  }
}
