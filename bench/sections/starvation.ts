/**
 * Section 8, starvation: genuine `POST /v1/onboardings` while slow uploads try to hold every
 * creation turn (issue 29's attack: 40 connections trickling a byte a second, 8 stalled after
 * their headers with `Content-Length: 100000`), against the same creations on the same companion
 * with nobody attacking, in the same run. The companion runs its defaults (the pace a body keeps
 * its turn at, creations at once per address), as `npm start` does.
 */
import { connect, type Socket } from 'node:net';
import { SAMPLE_PNG_BASE64 } from '@onboarding-kit/sandbox';
import { startServer, type ServerChild } from '../lib/children.js';
import { keepAliveAgent, runLoad, type LoadResult } from '../lib/http-load.js';
import { emptySection, type SectionResult } from '../lib/report.js';
import { ms, percentile, ratio, reason, sleep } from '../lib/stats.js';
import { CREDENTIALS } from './companion.js';

export interface StarvationSettings {
  /** Genuine creations per round. */
  creations: number;
  /** Genuine creations at once (within the per-address limit of the companion's defaults). */
  concurrency: number;
  trickling: number;
  stalled: number;
}

export const DEFAULT_STARVATION: StarvationSettings = { creations: 120, concurrency: 2, trickling: 40, stalled: 8 };

/** How long an attacker whose upload was refused or given up waits before it opens another. */
const RECONNECT_MS = 1_000;
const DECLARED = 100_000;

/** Slow uploads kept up until stopped: each one that ends is replaced by another of its kind. */
function attack(url: string, settings: StarvationSettings, from: (i: number) => string) {
  const { hostname, port } = new URL(url);
  const sockets = new Set<Socket>();
  const answers = new Map<string, number>();
  let stopped = false;
  const head = [
    'POST /v1/onboardings HTTP/1.1',
    `Host: ${hostname}:${port}`,
    'Content-Type: application/json',
    `Content-Length: ${DECLARED}`,
    '',
    '',
  ].join('\r\n');
  const open = (i: number, trickle: boolean) => {
    if (stopped) return;
    const socket = connect({ host: hostname, port: Number(port), localAddress: from(i) });
    sockets.add(socket);
    let timer: NodeJS.Timeout | undefined;
    let seen = '';
    socket.on('error', () => {});
    socket.on('data', (d: Buffer) => {
      if (seen) return;
      seen = /^HTTP\/1\.1 (\d{3})/.exec(d.toString('latin1'))?.[1] ?? 'other';
      answers.set(seen, (answers.get(seen) ?? 0) + 1);
      socket.destroy();
    });
    socket.on('close', () => {
      clearInterval(timer);
      sockets.delete(socket);
      setTimeout(() => open(i, trickle), RECONNECT_MS);
    });
    socket.write(head);
    if (trickle) timer = setInterval(() => socket.write(' '), 1_000);
  };
  for (let i = 0; i < settings.trickling + settings.stalled; i++) open(i, i >= settings.stalled);
  return {
    answers,
    stop() {
      stopped = true;
      for (const s of sockets) s.destroy();
    },
  };
}

export async function measureStarvation(settings: StarvationSettings): Promise<SectionResult> {
  const s = emptySection('starvation', '8. Creations under slow uploads');
  const attackers = settings.trickling + settings.stalled;
  s.method.push(
    'Sandbox and companion each in a child process as in section 3; the companion with its defaults (sessions optional, as outside production): 4 turns per core, a creation joins the line only once its body is arriving (8 KiB or all of it within 2 s of its headers), keeps its turn only at 4 KiB/s or more in every 2 s window and within 60 s, and at most 4 creations run at once per client address.',
    `The attack: ${settings.trickling} connections that send headers declaring ${DECLARED} bytes, then one byte a second, and ${settings.stalled} that send the same headers and nothing more. An attacker whose upload is answered (408, 429) opens another after ${RECONNECT_MS} ms, so the attack stands for the whole measurement.`,
    `Genuine creations: ${settings.creations} \`POST /v1/onboardings\` (two tiny PNGs) per round from 127.0.0.1, ${settings.concurrency} at a time over keep-alive connections, timed to the end of the 201 answer. Rounds: idle, under the attack from one address (127.0.0.2, as in the issue), idle again; the baseline is both idle rounds together.`,
    `Then the same attack with each of its ${attackers} connections from an address of its own (127.0.0.10 onwards), so the per-address limit does not apply, and the same genuine creations again.`,
  );
  let sandbox: ServerChild | undefined;
  let companion: ServerChild | undefined;
  const agent = keepAliveAgent(settings.concurrency);
  const body = Buffer.from(
    JSON.stringify({ cpf: '529.982.247-25', documentType: 'CNH', images: { documentFront: SAMPLE_PNG_BASE64, selfie: SAMPLE_PNG_BASE64 } }),
  );
  const create = (count: number, concurrency: number): Promise<LoadResult> =>
    runLoad({
      agent,
      url: `${companion!.url}/v1/onboardings`,
      body,
      concurrency,
      count,
      ok: [201],
      headers: () => ({ 'content-type': 'application/json' }),
      maxSeconds: 90,
    });
  try {
    sandbox = await startServer('sandbox', { ...CREDENTIALS, processingMs: 600_000 });
    companion = await startServer('companion', { baseUrl: sandbox.url, ...CREDENTIALS, rateLimit: 0, poll: { firstDelayMs: 3_600_000 } });
    await create(40, settings.concurrency);

    const idle1 = await create(settings.creations, settings.concurrency);
    const single = attack(companion.url, settings, () => '127.0.0.2');
    await sleep(2_500);
    const underSingle = await create(settings.creations, settings.concurrency);
    single.stop();
    await sleep(500);
    const idle2 = await create(settings.creations, settings.concurrency);

    const spread = attack(companion.url, settings, (i) => `127.0.0.${10 + i}`);
    await sleep(2_500);
    const underSpread = await create(settings.creations, settings.concurrency);
    spread.stop();

    const idle = [...idle1.latencies, ...idle2.latencies];
    const answered = (m: Map<string, number>) =>
      [...m.entries()]
        .sort()
        .map(([status, n]) => `${n}x ${status}`)
        .join(', ') || 'none';
    const row = (label: string, r: { latencies: number[]; ok: number; errors: number }, attackAnswers: string) => [
      label,
      `${r.ok}/${r.ok + r.errors}`,
      ms(percentile(r.latencies, 50)),
      ms(percentile(r.latencies, 99)),
      ms(Math.max(...r.latencies)),
      ratio(percentile(r.latencies, 50), percentile(idle, 50)),
      attackAnswers,
    ];
    s.tables.push({
      title: `Genuine creations, idle and under ${settings.trickling} trickling + ${settings.stalled} stalled uploads (baseline = idle, same companion, same run)`,
      headers: ['case', '201s', 'p50', 'p99', 'max', 'p50 vs idle', 'what the slow uploads were answered'],
      rows: [
        row('idle (baseline)', { latencies: idle, ok: idle1.ok + idle2.ok, errors: idle1.errors + idle2.errors }, '-'),
        row('attack from one address', underSingle, answered(single.answers)),
        row(`attack from ${attackers} addresses`, underSpread, answered(spread.answers)),
      ],
    });
    if (underSingle.errors || underSpread.errors)
      s.notes.push(`Some genuine creations failed under the attack: ${underSingle.firstError ?? underSpread.firstError}.`);
    const p50 = (r: LoadResult) => percentile(r.latencies, 50) / percentile(idle, 50);
    const worst = Math.max(p50(underSingle), p50(underSpread));
    const met = underSingle.errors === 0 && underSpread.errors === 0 && worst <= 2;
    s.targets.push({
      target: `genuine creations under ${settings.trickling} trickling + ${settings.stalled} stalled uploads: p50 within 2x of idle`,
      figure: `${p50(underSingle).toFixed(2)}x from one address, ${p50(underSpread).toFixed(2)}x from ${attackers} (${ms(percentile(underSingle.latencies, 50))}, ${ms(percentile(underSpread.latencies, 50))} vs ${ms(percentile(idle, 50))} idle; ${underSingle.ok + underSpread.ok}/${underSingle.ok + underSingle.errors + underSpread.ok + underSpread.errors} answered 201)`,
      met,
      ...(!met && { note: 'see the table for what the slow uploads were answered and the p99s' }),
    });
    return s;
  } catch (error) {
    s.notMeasured = `could not run the starvation measurement (${reason(error)})`;
    return s;
  } finally {
    agent.destroy();
    await companion?.close().catch(() => undefined);
    await sandbox?.close().catch(() => undefined);
  }
}
