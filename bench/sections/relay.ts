/**
 * Section 4, status relay: from a webhook reaching the companion (`POST /v1/webhooks` with the
 * right id-service-token) to the status event read from the page's event stream, with 10,000
 * streams open on one instance (one per onboarding, read with fetch streaming as the element
 * does) and the companion's memory per open stream; then two instances on one Redis, the webhook
 * to A and 2,000 streams open on B.
 */
import { randomUUID } from 'node:crypto';
import { SAMPLE_PNG_BASE64 } from '@onboarding-kit/sandbox';
import { startRedisServer, type RedisServer } from '@onboarding-kit/testing/redis-server';
import { openFilesLimit, startServer, type ServerChild } from '../lib/children.js';
import { keepAliveAgent, runLoad, send } from '../lib/http-load.js';
import { emptySection, type SectionResult } from '../lib/report.js';
import { kb, mb, ms, percentile, ratio, reason, sleep } from '../lib/stats.js';
import { withTimeout } from '../lib/timeout.js';
import { CREDENTIALS } from './companion.js';

export interface RelaySettings {
  /** Streams that stay open while the one-at-a-time webhooks are measured (each of those closes its own stream). */
  streams: number;
  /** Webhooks sent one at a time (each waits for its event); `streams + sequential` streams are opened, so never fewer than `streams` are open. */
  sequential: number;
  /** Baseline samples: one stream open at a time. */
  single: number;
  /** Senders for the burst that decides the remaining streams at once. */
  burstConcurrency: number;
  /** Two instances on one Redis: streams open on B, webhooks to A. */
  redis?: { streams: number; sequential: number; single: number };
}

export const DEFAULT_RELAY: RelaySettings = {
  streams: 10_000,
  sequential: 300,
  single: 50,
  burstConcurrency: 32,
  redis: { streams: 2_000, sequential: 300, single: 50 },
};

/** Soft limit of open files the companion children get (`ulimit -n` in the shell that starts them). */
const CHILD_OPEN_FILES = 65_536;
/** Streams opened at once (the listen backlog is 511: more at once would wait for SYN retries). */
const OPEN_BATCH = 250;

const WARMUP = 5;

export interface Created {
  tokenOnboarding: string;
  accessKey: string;
}

export interface Stream {
  /** Resolves when the first status event (IN_PROCESS) has arrived. */
  opened: Promise<void>;
  /** Resolves with performance.now() when a terminal status event arrives. */
  terminal: Promise<number>;
  cancel(): void;
}

/** Reads one onboarding's event stream as the element does (fetch streaming); also used by the stores section. */
export function openStream(base: string, o: Created): Stream {
  const controller = new AbortController();
  let onOpen!: () => void;
  let onTerminal!: (t: number) => void;
  let onError!: (e: unknown) => void;
  const opened = new Promise<void>((resolve, reject) => {
    onOpen = resolve;
    onError = reject;
  });
  const terminal = new Promise<number>((resolve, reject) => {
    onTerminal = resolve;
    const previous = onError;
    onError = (e) => {
      previous(e);
      reject(e);
    };
  });
  // Unhandled rejections of streams nobody waits on any more must not end the bench.
  opened.catch(() => undefined);
  terminal.catch(() => undefined);
  void (async () => {
    try {
      const res = await fetch(`${base}/v1/onboardings/${o.tokenOnboarding}/events`, {
        headers: { authorization: `Bearer ${o.accessKey}`, accept: 'text/event-stream' },
        signal: controller.signal,
      });
      if (res.status !== 200 || !res.body) throw new Error(`events: HTTP ${res.status}`);
      const reader = res.body.pipeThrough(new TextDecoderStream()).getReader();
      let buffer = '';
      for (;;) {
        const { done, value } = await reader.read();
        if (done) break;
        buffer += value;
        let end: number;
        while ((end = buffer.indexOf('\n\n')) >= 0) {
          const block = buffer.slice(0, end);
          buffer = buffer.slice(end + 2);
          const lines = block.split('\n');
          const event = lines
            .find((l) => l.startsWith('event:'))
            ?.slice(6)
            .trim();
          const data = lines
            .filter((l) => l.startsWith('data:'))
            .map((l) => l.slice(5).trim())
            .join('\n');
          if (event !== 'status' || !data) continue;
          const status = (JSON.parse(data) as { status: string }).status;
          if (status === 'IN_PROCESS') onOpen();
          else {
            onOpen();
            onTerminal(performance.now());
          }
        }
      }
      onError(new Error('stream ended without a terminal status'));
    } catch (error) {
      onError(error);
    }
  })();
  return { opened, terminal, cancel: () => controller.abort() };
}

interface Run {
  created: number;
  createSeconds: number;
  single: number[];
  singleAnswer: number[];
  seq: number[];
  seqAnswer: number[];
  burst: number[];
  burstAnswer: number[];
  burstSeconds: number;
  open: number;
  openSeconds: number;
  before: Memory;
  after: Memory;
}

type Memory = { rss: number; heapUsed: number; external: number; openStreams: number };

/** The sandbox's manual review approves `o` (its control API), so the webhook that follows is confirmed by the report. */
export async function decide(
  agent: ReturnType<typeof keepAliveAgent>,
  sandbox: ServerChild,
  o: { tokenOnboarding: string },
): Promise<void> {
  const res = await send(
    agent,
    `${sandbox.url}/__sandbox/onboardings/${encodeURIComponent(o.tokenOnboarding)}/decision`,
    'POST',
    { 'content-type': 'application/json' },
    Buffer.from('{"status":"APPROVED"}'),
  );
  if (res.status !== 200) throw new Error(`sandbox decision: HTTP ${res.status} ${res.text.slice(0, 120)}`);
}

/**
 * Creates onboardings on `createOn`, measures one stream at a time (baseline), then opens
 * `streams + sequential` streams on `streamsOn` and sends webhooks to `webhookTo`: one at a time,
 * then the rest in a burst.
 */
async function underLoad(p: {
  createOn: ServerChild;
  streamsOn: ServerChild;
  webhookTo: ServerChild;
  /** The sandbox, which decides each onboarding before its webhook announces it (a webhook is checked against the upstream's report). */
  upstream: ServerChild;
  streams: number;
  sequential: number;
  single: number;
  burstConcurrency: number;
  agent: ReturnType<typeof keepAliveAgent>;
  opened: Stream[];
}): Promise<Run> {
  const { agent } = p;
  const total = p.streams + p.sequential + p.single + WARMUP;
  const body = Buffer.from(
    JSON.stringify({ cpf: '529.982.247-25', documentType: 'CNH', images: { documentFront: SAMPLE_PNG_BASE64, selfie: SAMPLE_PNG_BASE64 } }),
  );
  const made = await runLoad({
    agent,
    url: `${p.createOn.url}/v1/onboardings`,
    body,
    concurrency: 16,
    count: total,
    ok: [201],
    keepBodies: true,
    headers: () => ({ 'content-type': 'application/json' }),
    maxSeconds: 150,
  });
  const created = made.bodies.map((b) => JSON.parse(b) as Created);
  if (created.length < total)
    throw new Error(`only ${created.length} of ${total} onboardings were created (${made.firstError ?? 'no error'})`);

  const webhook = async (o: Created) => {
    const payload = Buffer.from(JSON.stringify({ tokenOnboarding: o.tokenOnboarding, status: 'APPROVED', fields: {}, services: [] }));
    await decide(agent, p.upstream, o);
    const t0 = performance.now();
    const res = await send(
      agent,
      `${p.webhookTo.url}/v1/webhooks`,
      'POST',
      { 'content-type': 'application/json', 'id-service-token': CREDENTIALS.webhookKey },
      payload,
    );
    if (res.status !== 200) throw new Error(`webhook: HTTP ${res.status} ${res.text.slice(0, 120)}`);
    return { t0, answered: performance.now() - t0 };
  };

  // Baseline: one stream open at a time (the first WARMUP ones untimed: JIT, sockets).
  const single: number[] = [];
  const singleAnswer: number[] = [];
  for (const [i, o] of created.slice(0, p.single + WARMUP).entries()) {
    const st = openStream(p.streamsOn.url, o);
    await withTimeout(st.opened, 10_000, 'opening one stream');
    const { t0, answered } = await webhook(o);
    const latency = (await withTimeout(st.terminal, 10_000, 'one relayed event')) - t0;
    if (i < WARMUP) continue;
    single.push(latency);
    singleAnswer.push(answered);
  }

  const loaded = created.slice(p.single + WARMUP);
  const before = await p.streamsOn.ask<Memory>('rss');
  const openStart = performance.now();
  const streams: Stream[] = [];
  for (let i = 0; i < loaded.length; i += OPEN_BATCH) {
    const batch = loaded.slice(i, i + OPEN_BATCH).map((o) => openStream(p.streamsOn.url, o));
    streams.push(...batch);
    p.opened.push(...batch);
    await withTimeout(Promise.all(batch.map((x) => x.opened)), 60_000, `opening streams ${i}-${i + batch.length} of ${loaded.length}`);
  }
  const openSeconds = (performance.now() - openStart) / 1000;
  await sleep(500);
  const after = await p.streamsOn.ask<Memory>('rss');
  // BENCH_HEAP_SNAPSHOT=<dir>: a heap snapshot of the streams' instance with all its streams open (where the memory per stream goes).
  if (process.env.BENCH_HEAP_SNAPSHOT) await p.streamsOn.ask('heap');

  const seq: number[] = [];
  const seqAnswer: number[] = [];
  for (let i = 0; i < p.sequential && i < loaded.length; i++) {
    const { t0, answered } = await webhook(loaded[i]!);
    seq.push((await withTimeout(streams[i]!.terminal, 10_000, 'a relayed event')) - t0);
    seqAnswer.push(answered);
  }

  const rest = loaded.slice(p.sequential).map((o, i) => ({ o, stream: streams[p.sequential + i]! }));
  const burst: number[] = [];
  const burstAnswer: number[] = [];
  let next = 0;
  const burstStart = performance.now();
  await withTimeout(
    Promise.all(
      Array.from({ length: p.burstConcurrency }, async () => {
        while (next < rest.length) {
          const item = rest[next++]!;
          const { t0, answered } = await webhook(item.o);
          burstAnswer.push(answered);
          void item.stream.terminal.then((t) => burst.push(t - t0));
        }
      }),
    ),
    120_000,
    'the webhook burst',
  );
  await withTimeout(Promise.all(rest.map((r) => r.stream.terminal)), 60_000, "the burst's events");
  await sleep(10);
  const burstSeconds = (performance.now() - burstStart) / 1000;
  return {
    created: created.length,
    createSeconds: made.seconds,
    single,
    singleAnswer,
    seq,
    seqAnswer,
    burst,
    burstAnswer,
    burstSeconds,
    open: loaded.length,
    openSeconds,
    before,
    after,
  };
}

export async function measureRelay(settings: RelaySettings): Promise<SectionResult> {
  const s = emptySection('relay', '4. Status relay: webhook to page');
  const own = openFilesLimit('self');
  s.method.push(
    'Sandbox and companion in child processes as in section 3 (onboardings stay IN_PROCESS; no polling). Onboardings are created through the companion (tiny PNGs: the images do not matter here).',
    `Streams: \`GET /v1/onboardings/{token}/events\` with the page's Bearer key, read with fetch streaming from the bench process, one per onboarding, opened ${OPEN_BATCH} at a time. A webhook (onboarding report shape, status APPROVED, right id-service-token) is posted with node:http; ` +
      "the sandbox's manual review has decided the onboarding just before (untimed), since the companion reads the upstream's report before it applies a webhook's status; " +
      "latency = from just before the webhook is sent to the moment the terminal `status` event is parsed from that onboarding's stream (one clock, one process), that report read included.",
    `Baseline (the floor): the same with a single stream open (${settings.single} samples), same instance(s), same run. Under load: ${settings.streams + settings.sequential} streams opened, ${settings.sequential} webhooks one at a time (so at least ${settings.streams} streams stay open throughout), ` +
      `then the remaining ${settings.streams} streams decided at once by a burst of webhooks from ${settings.burstConcurrency} senders.`,
    `Open files: every companion child is started through \`sh -c 'ulimit -n ${CHILD_OPEN_FILES} || ulimit -n <hard limit>; exec node ...'\` (bench/lib/children.ts), so ten thousand sockets fit; the bench process itself had a limit of ${own} open files.`,
    'Memory per stream: companion VmRSS after a full GC (child started with --expose-gc) with the streams open minus before they were opened, divided by the number of streams. ' +
      'On Node the companion writes each stream straight to the ServerResponse (serve.ts; the web-stream body is only the fallback of other runtimes and app.request()).',
  );
  if (settings.redis) {
    s.method.push(
      `Across instances: two companion children on one throwaway redis-server (same prefix). Onboardings are created on A, their streams opened on B (${settings.redis.streams + settings.redis.sequential}), webhooks posted to A: each change travels through Redis pub/sub. ` +
        `Baseline: one stream open on B at a time (${settings.redis.single} samples); then ${settings.redis.sequential} webhooks one at a time with at least ${settings.redis.streams} streams open on B, then the burst.`,
    );
  }
  let sandbox: ServerChild | undefined;
  let redis: RedisServer | undefined;
  const children: ServerChild[] = [];
  const agent = keepAliveAgent(Math.max(32, settings.burstConcurrency));
  const streams: Stream[] = [];
  const companion = async (extra: Record<string, unknown> = {}) => {
    const c = await startServer(
      'companion',
      { baseUrl: sandbox!.url, ...CREDENTIALS, rateLimit: 0, creations: { perClient: 0 }, poll: { firstDelayMs: 3_600_000 }, ...extra },
      { openFiles: CHILD_OPEN_FILES },
    );
    children.push(c);
    return c;
  };
  try {
    if (own < settings.streams + settings.sequential + 1000)
      s.notes.push(
        `the bench process may open only ${own} files: raise \`ulimit -n\` before \`npm run bench\` for ${settings.streams} streams.`,
      );
    sandbox = await startServer('sandbox', { ...CREDENTIALS, processingMs: 600_000, controlApi: true });
    const one = await companion();
    s.notes.push(`open files limit of the companion child: ${openFilesLimit(one.pid)}.`);
    const local = await underLoad({
      createOn: one,
      streamsOn: one,
      webhookTo: one,
      upstream: sandbox!,
      streams: settings.streams,
      sequential: settings.sequential,
      single: settings.single,
      burstConcurrency: settings.burstConcurrency,
      agent,
      opened: streams,
    });
    s.notes.push(`${local.created} onboardings created through the companion in ${local.createSeconds.toFixed(1)} s.`);
    for (const st of streams.splice(0)) st.cancel();
    await one.close();

    let cross: Run | undefined;
    let redisError = '';
    if (settings.redis) {
      try {
        redis = await startRedisServer();
      } catch (error) {
        redisError = reason(error);
      }
      if (redis) {
        const prefix = `bench-relay-${randomUUID().slice(0, 8)}:`;
        const a = await companion({ storeUrl: redis.url, redisPrefix: prefix });
        const b = await companion({ storeUrl: redis.url, redisPrefix: prefix });
        cross = await underLoad({
          createOn: a,
          streamsOn: b,
          webhookTo: a,
          upstream: sandbox!,
          ...settings.redis,
          burstConcurrency: settings.burstConcurrency,
          agent,
          opened: streams,
        });
        for (const st of streams.splice(0)) st.cancel();
      }
    }

    const row = (label: string, open: string, xs: number[], answers: number[], base: number[]) => [
      label,
      open,
      String(xs.length),
      ms(percentile(xs, 50)),
      ms(percentile(xs, 99)),
      ms(Math.max(...xs)),
      ratio(percentile(xs, 50), percentile(base, 50)),
      ratio(percentile(xs, 99), percentile(base, 99)),
      ms(percentile(answers, 50)),
    ];
    const rows = (prefix: string, r: Run) => [
      row(`${prefix}baseline: one stream, one webhook at a time`, '1', r.single, r.singleAnswer, r.single),
      row(`${prefix}one webhook at a time`, `${r.open} -> ${r.open - r.seq.length}`, r.seq, r.seqAnswer, r.single),
      row(
        `${prefix}burst: ${r.open - r.seq.length} webhooks from ${settings.burstConcurrency} senders (${r.burstSeconds.toFixed(2)} s)`,
        `${r.open - r.seq.length} -> 0`,
        r.burst,
        r.burstAnswer,
        r.single,
      ),
    ];
    s.tables.push({
      title: 'Webhook sent -> status event read from the page stream (floor = one stream open, same run)',
      headers: ['case', 'streams open', 'samples', 'p50', 'p99', 'max', 'p50 / floor', 'p99 / floor', 'webhook answered p50'],
      rows: [...rows('', local), ...(cross ? rows('Redis, webhook to A, streams on B: ', cross) : [])],
    });
    const memRow = (label: string, r: Run) => [
      label,
      String(r.after.openStreams),
      mb(r.before.rss),
      mb(r.after.rss),
      mb(r.after.rss - r.before.rss),
      kb((r.after.rss - r.before.rss) / r.open),
      kb((r.after.heapUsed + r.after.external - r.before.heapUsed - r.before.external) / r.open),
      `${r.openSeconds.toFixed(2)} s`,
    ];
    s.tables.push({
      title: 'Companion memory with open event streams (after a full GC; the JS heap figure is heapUsed + external, steadier than RSS)',
      headers: [
        'instance',
        'streams open',
        'RSS before',
        'RSS with streams',
        'RSS delta',
        'RSS per stream',
        'JS heap per stream',
        'time to open all',
      ],
      rows: [memRow('one instance, memory store', local), ...(cross ? [memRow('B on Redis', cross)] : [])],
    });
    const p99 = percentile(local.seq, 99);
    s.targets.push({
      target: `webhook to page <= 20 ms p99 with ${settings.streams} streams open on one instance`,
      figure: `${ms(p99)} p99, one webhook at a time (${ratio(p99, percentile(local.single, 99))} the one-stream floor, ${ms(percentile(local.single, 99))}); burst p99 ${ms(percentile(local.burst, 99))}`,
      met: p99 <= 20,
      ...(p99 > 20 && {
        note: `with the streams open each webhook still costs one store write and one read per listener (${ms(percentile(local.seqAnswer, 50))} to answer the webhook); the tail follows the machine's load (the one-stream floor p99 ${ms(percentile(local.single, 99))} in the same run) and the keep-alive passes over every open stream (256 streams per turn of the event loop, so one webhook waits for one slice at most)`,
      }),
    });
    const perStream = (local.after.rss - local.before.rss) / local.open;
    const heapPerStream = (local.after.heapUsed + local.after.external - local.before.heapUsed - local.before.external) / local.open;
    s.targets.push({
      target: 'memory per open event stream <= 10 KB',
      figure: `${kb(perStream)} (RSS delta ${mb(local.after.rss - local.before.rss)} / ${local.open} streams; JS heap ${kb(heapPerStream)} per stream)`,
      met: perStream <= 10 * 1024,
      ...(perStream > 10 * 1024 && {
        note:
          `of the ${kb(perStream)} per stream, ${kb(heapPerStream)} is JS heap and ${kb(perStream - heapPerStream)} outside it (the TCP handle, Node's HTTP parser and its fixed header tables, malloc and heap page slack). ` +
          "The events are written straight to Node's ServerResponse (no web stream, adapter pump, AbortController or per-request logger held per stream); a heap snapshot with the streams open (BENCH_HEAP_SNAPSHOT) puts the heap part almost all in Node's own connection: " +
          'Socket, IncomingMessage and ServerResponse with their stream states and listeners (about 1.6 KB), ' +
          "the functions Node binds per connection and the HTTP parser's JS side (about 1.2 KB), and @hono/node-server's light Request kept by its close listener (about 0.2 KB); " +
          'the request headers as received and the header block sent (about 1.5 KB together) are let go once the stream is on the wire (serve.ts, transport/request-header.ts); ' +
          "the stream's own part is about 0.8 KB (its object, its last state's JSON, the store subscription, its request id, the registry and tick entries). " +
          'What is left to cut is the cost of one HTTP/1.1 connection per page: fewer request headers, or HTTP/2 (many streams on one connection)',
      }),
    });
    if (settings.redis) {
      const target = `webhook to page <= 30 ms p99 across two instances on one Redis with ${settings.redis.streams} streams open`;
      if (cross) {
        const x = percentile(cross.seq, 99);
        s.targets.push({
          target,
          figure: `${ms(x)} p99, one webhook at a time (${ratio(x, percentile(cross.single, 99))} the one-stream floor across the same instances, ${ms(percentile(cross.single, 99))})`,
          met: x <= 30,
        });
      } else s.targets.push({ target, figure: 'not measured', met: null, note: redisError });
    }
    return s;
  } catch (error) {
    s.notMeasured = `could not run the relay measurement (${reason(error)})`;
    return s;
  } finally {
    for (const st of streams) st.cancel();
    agent.destroy();
    for (const c of children) await c.close().catch(() => undefined);
    await sandbox?.close();
    await redis?.stop();
  }
}
