/**
 * Section 4, status relay: from a webhook reaching the companion (`POST /v1/webhooks` with the
 * right id-service-token) to the status event read from the page's event stream, with 1,000
 * streams open (one per onboarding, read with fetch streaming as the element does), and the
 * companion's memory per open stream.
 */
import { SAMPLE_PNG_BASE64 } from '@onboarding-kit/sandbox';
import { startServer, type ServerChild } from '../lib/children.js';
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
}

export const DEFAULT_RELAY: RelaySettings = { streams: 1000, sequential: 300, single: 50, burstConcurrency: 32 };

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
          const event = lines.find((l) => l.startsWith('event:'))?.slice(6).trim();
          const data = lines.filter((l) => l.startsWith('data:')).map((l) => l.slice(5).trim()).join('\n');
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

export async function measureRelay(settings: RelaySettings): Promise<SectionResult> {
  const s = emptySection('relay', '4. Status relay: webhook to page');
  s.method.push(
    'Sandbox and companion in child processes as in section 3 (onboardings stay IN_PROCESS; no polling). Onboardings are created through the companion (tiny PNGs: the images do not matter here).',
    `Streams: \`GET /v1/onboardings/{token}/events\` with the page's Bearer key, read with fetch streaming from the bench process, one per onboarding. A webhook (onboarding report shape, status APPROVED, right id-service-token) is posted with node:http; ` +
      'latency = from just before the webhook is sent to the moment the terminal `status` event is parsed from that onboarding\'s stream (one clock, one process).',
    `Baseline: the same with a single stream open (${settings.single} samples). Under load: ${settings.streams + settings.sequential} streams opened, ${settings.sequential} webhooks one at a time (so at least ${settings.streams} streams stay open throughout), ` +
      `then the remaining ${settings.streams} streams decided at once by a burst of webhooks from ${settings.burstConcurrency} senders.`,
    'Memory per stream: companion VmRSS after a full GC (child started with --expose-gc) with the streams open minus before they were opened, divided by the number of streams.',
  );
  let sandbox: ServerChild | undefined;
  let companion: ServerChild | undefined;
  const agent = keepAliveAgent(Math.max(32, settings.burstConcurrency));
  const streams: Stream[] = [];
  try {
    sandbox = await startServer('sandbox', { ...CREDENTIALS, processingMs: 600_000 });
    companion = await startServer('companion', { baseUrl: sandbox.url, ...CREDENTIALS, rateLimit: 0, poll: { firstDelayMs: 3_600_000 } });
    const base = companion.url;

    const total = settings.streams + settings.sequential + settings.single + WARMUP;
    const body = Buffer.from(JSON.stringify({ cpf: '529.982.247-25', documentType: 'CNH', images: { documentFront: SAMPLE_PNG_BASE64, selfie: SAMPLE_PNG_BASE64 } }));
    const made = await runLoad({ agent, url: `${base}/v1/onboardings`, body, concurrency: 16, count: total, ok: [201], keepBodies: true, headers: () => ({ 'content-type': 'application/json' }), maxSeconds: 120 });
    const created = made.bodies.map((b) => JSON.parse(b) as Created);
    if (created.length < total) throw new Error(`only ${created.length} of ${total} onboardings were created (${made.firstError ?? 'no error'})`);
    s.notes.push(`${created.length} onboardings created through the companion in ${made.seconds.toFixed(1)} s.`);

    const webhook = async (o: Created) => {
      const payload = Buffer.from(JSON.stringify({ tokenOnboarding: o.tokenOnboarding, status: 'APPROVED', fields: {}, services: [] }));
      const t0 = performance.now();
      const res = await send(agent, `${base}/v1/webhooks`, 'POST', { 'content-type': 'application/json', 'id-service-token': CREDENTIALS.webhookKey }, payload);
      if (res.status !== 200) throw new Error(`webhook: HTTP ${res.status} ${res.text.slice(0, 120)}`);
      return { t0, answered: performance.now() - t0 };
    };

    // Baseline: one stream open at a time (the first WARMUP ones untimed: JIT, sockets).
    const single: number[] = [];
    const singleAnswer: number[] = [];
    for (const [i, o] of created.slice(0, settings.single + WARMUP).entries()) {
      const st = openStream(base, o);
      await withTimeout(st.opened, 10_000, 'opening one stream');
      const { t0, answered } = await webhook(o);
      const latency = (await withTimeout(st.terminal, 10_000, 'one relayed event')) - t0;
      if (i < WARMUP) continue;
      single.push(latency);
      singleAnswer.push(answered);
    }

    // 1000 streams (and the ones the one-at-a-time webhooks will close).
    const loaded = created.slice(settings.single + WARMUP);
    const before = await companion.ask<{ rss: number; heapUsed: number; external: number; openStreams: number }>('rss');
    const openStart = performance.now();
    for (const o of loaded) streams.push(openStream(base, o));
    await withTimeout(Promise.all(streams.map((x) => x.opened)), 60_000, `opening ${loaded.length} streams`);
    const openSeconds = (performance.now() - openStart) / 1000;
    await sleep(500);
    const after = await companion.ask<{ rss: number; heapUsed: number; external: number; openStreams: number }>('rss');
    const perStream = (after.rss - before.rss) / loaded.length;

    const seq: number[] = [];
    const seqAnswer: number[] = [];
    for (let i = 0; i < settings.sequential && i < loaded.length; i++) {
      const { t0, answered } = await webhook(loaded[i]!);
      seq.push((await withTimeout(streams[i]!.terminal, 10_000, 'a relayed event')) - t0);
      seqAnswer.push(answered);
    }

    const rest = loaded.slice(settings.sequential).map((o, i) => ({ o, stream: streams[settings.sequential + i]! }));
    const burst: number[] = [];
    const burstAnswer: number[] = [];
    let next = 0;
    const burstStart = performance.now();
    await withTimeout(
      Promise.all(
        Array.from({ length: settings.burstConcurrency }, async () => {
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
    await withTimeout(Promise.all(rest.map((r) => r.stream.terminal)), 60_000, 'the burst\'s events');
    await sleep(10);
    const burstSeconds = (performance.now() - burstStart) / 1000;

    const row = (label: string, open: string, xs: number[], answers: number[]) => [
      label,
      open,
      String(xs.length),
      ms(percentile(xs, 50)),
      ms(percentile(xs, 99)),
      ms(Math.max(...xs)),
      ratio(percentile(xs, 50), percentile(single, 50)),
      ratio(percentile(xs, 99), percentile(single, 99)),
      ms(percentile(answers, 50)),
    ];
    s.tables.push({
      title: 'Webhook sent -> status event read from the page stream (baseline = one stream open)',
      headers: ['case', 'streams open', 'samples', 'p50', 'p99', 'max', 'p50 ratio', 'p99 ratio', 'webhook answered p50'],
      rows: [
        row('baseline: one stream, one webhook at a time', '1', single, singleAnswer),
        row('one webhook at a time', `${loaded.length} -> ${loaded.length - seq.length}`, seq, seqAnswer),
        row(`burst: ${rest.length} webhooks from ${settings.burstConcurrency} senders (${burstSeconds.toFixed(2)} s)`, `${rest.length} -> 0`, burst, burstAnswer),
      ],
    });
    s.tables.push({
      title: 'Companion memory with open event streams (after a full GC; the JS heap figure is heapUsed + external, steadier than RSS)',
      headers: ['streams open', 'RSS before', 'RSS with streams', 'RSS delta', 'RSS per stream', 'JS heap per stream', 'time to open all'],
      rows: [[
        String(after.openStreams),
        mb(before.rss),
        mb(after.rss),
        mb(after.rss - before.rss),
        kb(perStream),
        kb((after.heapUsed + after.external - before.heapUsed - before.external) / loaded.length),
        `${openSeconds.toFixed(2)} s`,
      ]],
    });
    const p99 = percentile(seq, 99);
    s.targets.push({
      target: `webhook to page <= 50 ms p99 with ${settings.streams} streams open`,
      figure: `${ms(p99)} p99, one webhook at a time (${ratio(p99, percentile(single, 99))} the one-stream baseline); burst p99 ${ms(percentile(burst, 99))}`,
      met: p99 <= 50,
    });
    return s;
  } catch (error) {
    s.notMeasured = `could not run the relay measurement (${reason(error)})`;
    return s;
  } finally {
    for (const st of streams) st.cancel();
    agent.destroy();
    await companion?.close();
    await sandbox?.close();
  }
}
