/**
 * Delivery of notifications to a real receiver on a socket: stored before the first try, signed,
 * retried, in order per key, bounded, one sender per store, resumed after a restart.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createJsonLogger, MemoryStore, SqliteStore } from '@onboarding-kit/server';
import { Notifier, OUTBOX_LEASE, type NotifierOptions } from '../src/notifications/outbox.js';
import { KIT_VERSION } from '../src/version.js';
import { startReceiver, until } from './helpers/notify-receiver.js';
import { tryTimers, watchOutbox } from './helpers/outbox-watch.js';

const SECRET = 'notify-secret-0123456789-abcdefghijklmnopqrstuvwxyz';
const OLD_SECRET = 'notify-old-secret-0123456789-abcdefghijklmnopqrst';

/**
 * Fast enough to run in milliseconds, in the same shape as the real schedule. A try's time limit
 * runs out only when a test says so (see `notifier`), so a loaded machine never turns a slow answer
 * into a timeout and a second try.
 */
const FAST = {
  retry: { firstDelayMs: 20, maxDelayMs: 80, giveUpAfterMs: 60_000 },
  timeoutMs: 300,
  scanIntervalMs: 30,
  leaseTtlMs: 3_000,
} as const;

function logs() {
  const lines: string[] = [];
  return { lines, logger: createJsonLogger({ sink: (l) => lines.push(l), level: 'debug' }) };
}

function notifier(store: NotifierOptions['store'], url: string, extra: Partial<NotifierOptions> = {}) {
  const { lines, logger } = logs();
  const n = new Notifier({
    environment: 'test',
    store,
    url,
    secret: SECRET,
    logger,
    ...FAST,
    timers: tryTimers(FAST.timeoutMs, { hold: true }).timers,
    ...extra,
  });
  return { n, lines };
}

test('a 500 then a 200: delivered once, after one retry, with the same body and a valid signature each time', async (t) => {
  const receiver = await startReceiver(SECRET, (_r, i) => (i === 0 ? 500 : 200));
  t.after(() => receiver.close());
  const store = new MemoryStore();
  const { n, lines } = notifier(store, receiver.url);
  t.after(() => n.close());

  const { id, queued } = await n.notify({ type: 'session.completed', orderKey: 'ses_1', data: { id: 'ses_1', status: 'completed' } });
  assert.equal(queued, true);
  assert.match(id, /^evt_[0-9a-f]{32}$/);
  await until(async () => (await store.getNotification(id))?.state === 'delivered', 'delivered');

  assert.equal(receiver.received.length, 2);
  const [first, second] = receiver.received;
  assert.equal(first!.body, second!.body);
  assert.deepEqual(JSON.parse(first!.body), {
    id,
    type: 'session.completed',
    createdAt: JSON.parse(first!.body).createdAt,
    environment: 'test',
    data: { id: 'ses_1', status: 'completed' },
  });
  for (const r of receiver.received) {
    assert.equal(r.verified, true);
    assert.equal(r.contentType, 'application/json');
    assert.equal(r.userAgent, `onboarding-kit/${KIT_VERSION}`);
  }
  assert.ok(second!.at - first!.at >= FAST.retry.firstDelayMs - 5, 'the retry waited');
  const entry = (await store.getNotification(id))!;
  assert.equal(entry.attempts, 2);
  assert.equal(entry.lastError, 'HTTP 500');
  assert.ok(entry.deliveredAt);
  assert.equal(receiver.delivered().length, 1);
  const text = lines.join('\n');
  assert.ok(!text.includes(SECRET), 'no secret in the logs');
  assert.ok(!text.includes('"status":"completed"'), 'no body in the logs');
  assert.ok(lines.some((l) => l.includes('notification try failed; retrying') && l.includes('HTTP 500')));
});

test('during a rotation every secret signs, so a receiver on either secret accepts', async (t) => {
  const onOld = await startReceiver(OLD_SECRET);
  t.after(() => onOld.close());
  const store = new MemoryStore();
  const { n } = notifier(store, onOld.url, { secret: [SECRET, OLD_SECRET] });
  t.after(() => n.close());
  await n.notify({ type: 'session.submitted', orderKey: 'ses_r', data: {} });
  await until(() => onOld.received.length === 1, 'one try');
  assert.equal(onOld.received[0]!.verified, true);
  assert.equal(onOld.received[0]!.signature!.split(',').filter((p) => p.startsWith('v1=')).length, 2);
});

test('a receiver that hangs on one key times out and is retried, and another key is delivered meanwhile', async (t) => {
  const receiver = await startReceiver(SECRET, (r) => (r.type === 'session.submitted' ? 'hang' : 200));
  t.after(() => receiver.close());
  const store = new MemoryStore();
  // The tries' time limits run out when the test says.
  const tries = tryTimers(FAST.timeoutMs, { hold: true });
  const { n } = notifier(store, receiver.url, { timers: tries.timers });
  t.after(() => n.close());

  const hung = await n.notify({ type: 'session.submitted', orderKey: 'ses_hang', data: {} });
  await until(() => receiver.received.some((r) => r.id === hung.id), 'the hanging try reached the receiver');
  const other = await n.notify({ type: 'session.completed', orderKey: 'ses_other', data: {} });
  await until(async () => (await store.getNotification(other.id))?.state === 'delivered', 'the other key delivered');
  // Delivered while the hanging try is still under way: nothing of that try is recorded yet.
  assert.equal(tries.underWay(), 1);
  const meanwhile = (await store.getNotification(hung.id))!;
  assert.deepEqual([meanwhile.state, meanwhile.attempts, meanwhile.lastError], ['pending', 0, undefined]);

  tries.expire();
  await until(() => receiver.received.filter((r) => r.id === hung.id).length >= 2, 'the hanging one retried');
  const entry = (await store.getNotification(hung.id))!;
  assert.equal(entry.state, 'pending');
  assert.ok(entry.attempts >= 1);
  assert.equal(entry.lastError, 'timeout');
});

test("events of one key arrive in the order queued, a later one waiting out the earlier one's retries; other keys do not wait", async (t) => {
  let failuresLeft = 3;
  const receiver = await startReceiver(SECRET, (r) => {
    const data = (JSON.parse(r.body) as { data: { n: number; key: string } }).data;
    if (data.key === 'A' && data.n === 1 && failuresLeft > 0) {
      failuresLeft--;
      return 503;
    }
    return 200;
  });
  t.after(() => receiver.close());
  const store = new MemoryStore();
  // A retry falls due only when the test moves this clock; looks at the outbox run on real timers.
  let clock = Date.now();
  const { n } = notifier(store, receiver.url, {
    concurrency: 2,
    timers: { ...tryTimers(FAST.timeoutMs, { hold: true }).timers, now: () => clock },
  });
  t.after(() => n.close());

  const ids: string[] = [];
  for (let i = 1; i <= 4; i++) {
    ids.push((await n.notify({ type: 'session.submitted', orderKey: 'A', data: { key: 'A', n: i } })).id);
    ids.push((await n.notify({ type: 'session.submitted', orderKey: 'B', data: { key: 'B', n: i } })).id);
  }
  const delivered = async (key: string) =>
    (await Promise.all(ids.map((id) => store.getNotification(id)))).filter((e) => e?.orderKey === key && e.state === 'delivered').length;
  // All of B goes out while A's first event waits for its retry.
  await until(async () => (await delivered('B')) === 4, 'B delivered');
  assert.equal(await delivered('A'), 0);
  // Each move of the clock passes any retry's delay (at most 80 ms) and lets A go on.
  await until(async () => {
    clock += 1_000;
    return (await delivered('A')) === 4;
  }, 'A delivered once its retries fall due');

  const seq = (key: string) =>
    receiver.received
      .map((r) => JSON.parse(r.body) as { data: { key: string; n: number } })
      .filter((e) => e.data.key === key)
      .map((e) => e.data.n);
  assert.deepEqual(seq('A'), [1, 1, 1, 1, 2, 3, 4]);
  assert.deepEqual(seq('B'), [1, 2, 3, 4]);
  // B was not held up by A's retries: all of B arrived before A's first success.
  const firstAOk = receiver.delivered().findIndex((r) => r.body.includes('"key":"A"'));
  const lastB = receiver.received.map((r) => r.body.includes('"key":"B"')).lastIndexOf(true);
  assert.ok(lastB < receiver.received.indexOf(receiver.delivered()[firstAOk]!), 'B finished while A was retrying');
});

test('at most `concurrency` tries at once, and each key still one at a time', async (t) => {
  let underWay = 0;
  let most = 0;
  const receiver = await startReceiver(SECRET, () => 200);
  t.after(() => receiver.close());
  const store = new MemoryStore();
  const watched = watchOutbox(store);
  // Every try waits at the receiver's door until the test opens it.
  let open!: () => void;
  const opened = new Promise<void>((r) => (open = r));
  const heldFetch: typeof fetch = async (input, init) => {
    underWay++;
    most = Math.max(most, underWay);
    try {
      await opened;
      return await fetch(input, init);
    } finally {
      underWay--;
    }
  };
  const tries = tryTimers(FAST.timeoutMs, { hold: true });
  const { n } = notifier(watched.store, receiver.url, { concurrency: 3, fetch: heldFetch, timers: tries.timers });
  t.after(() => n.close());
  const ids: string[] = [];
  for (let i = 0; i < 12; i++) ids.push((await n.notify({ type: 'session.completed', orderKey: `k${i % 6}`, data: { i } })).id);
  await until(() => underWay >= 3, 'three tries under way');
  await watched.looked();
  assert.equal(tries.underWay(), 3, 'the notifier looked at the queue again with three under way and started no fourth');
  open();
  await until(
    async () => (await Promise.all(ids.map((id) => store.getNotification(id)))).every((e) => e?.state === 'delivered'),
    'all delivered',
  );
  assert.equal(most, 3);
});

test('a repeated id queues nothing: the event is sent once', async (t) => {
  const receiver = await startReceiver(SECRET);
  t.after(() => receiver.close());
  const store = new MemoryStore();
  const watched = watchOutbox(store);
  const tries = tryTimers(FAST.timeoutMs, { hold: true });
  const { n } = notifier(watched.store, receiver.url, { timers: tries.timers });
  t.after(() => n.close());
  const first = await n.notify({ id: 'evt_ses_9_completed', type: 'session.completed', orderKey: 'ses_9', data: { v: 1 } });
  const again = await n.notify({ id: 'evt_ses_9_completed', type: 'session.completed', orderKey: 'ses_9', data: { v: 2 } });
  assert.deepEqual(
    [first, again],
    [
      { id: 'evt_ses_9_completed', queued: true },
      { id: 'evt_ses_9_completed', queued: false },
    ],
  );
  await until(async () => (await store.getNotification(first.id))?.state === 'delivered', 'delivered');
  await watched.looked();
  assert.equal(tries.underWay(), 0, 'the notifier looked at the queue again and started nothing');
  assert.deepEqual(await n.list('pending', 10), []);
  assert.equal(receiver.received.length, 1);
  assert.deepEqual(JSON.parse(receiver.received[0]!.body).data, { v: 1 });
});

test('two instances on one store: only the lease holder sends, each event once; the other takes over when it stops', async (t) => {
  const receiver = await startReceiver(SECRET);
  t.after(() => receiver.close());
  const store = new MemoryStore();
  const watched = watchOutbox(store);
  const tries = tryTimers(FAST.timeoutMs, { hold: true });
  const a = notifier(watched.store, receiver.url, { owner: 'instance-a', timers: tries.timers }).n;
  const b = notifier(watched.store, receiver.url, { owner: 'instance-b', timers: tries.timers }).n;
  t.after(() => Promise.all([a.close(), b.close()]));
  await until(() => a.delivering || b.delivering, 'one holds the lease');
  assert.notEqual(a.delivering, b.delivering);

  const ids: string[] = [];
  for (let i = 0; i < 20; i++)
    ids.push((await (i % 2 ? a : b).notify({ type: 'session.completed', orderKey: `ses_${i}`, data: { i } })).id);
  await until(
    async () => (await Promise.all(ids.map((id) => store.getNotification(id)))).every((e) => e?.state === 'delivered'),
    'all delivered',
  );
  await watched.looked();
  assert.equal(tries.underWay(), 0, 'the holder looked at the queue again and started nothing; the other never sends');
  assert.deepEqual(receiver.received.map((r) => r.id).sort(), [...ids].sort());

  const [holder, standby] = a.delivering ? [a, b] : [b, a];
  await holder.close();
  // Released on close, so the other needs no TTL to lapse: its next try (a third of the TTL) takes it.
  await until(() => standby.delivering, 'the standby took over');
  const late = await holder.notify({ type: 'session.expired', orderKey: 'ses_late', data: {} });
  await until(async () => (await store.getNotification(late.id))?.state === 'delivered', 'delivered by the standby');
  assert.equal(receiver.received.filter((r) => r.id === late.id).length, 1);
});

test('close gives the lease up at once', async () => {
  const store = new MemoryStore();
  const { n } = notifier(store, 'http://127.0.0.1:9/');
  await until(() => n.delivering, 'holds the lease');
  assert.equal(await store.acquireLease(OUTBOX_LEASE, 'someone-else', 10_000), false);
  await n.close();
  assert.equal(n.delivering, false);
  assert.equal(await store.acquireLease(OUTBOX_LEASE, 'someone-else', 10_000), true);
});

test('two instances on one SQLite file (two connections): each event delivered once', async (t) => {
  const dir = mkdtempSync(join(tmpdir(), 'okit-notify-'));
  t.after(() => rmSync(dir, { recursive: true, force: true }));
  const receiver = await startReceiver(SECRET);
  t.after(() => receiver.close());
  const s1 = new SqliteStore(join(dir, 'state.db'));
  const s2 = new SqliteStore(join(dir, 'state.db'));
  const w1 = watchOutbox(s1);
  const w2 = watchOutbox(s2);
  const tries = tryTimers(FAST.timeoutMs, { hold: true });
  const a = notifier(w1.store, receiver.url, { timers: tries.timers }).n;
  const b = notifier(w2.store, receiver.url, { timers: tries.timers }).n;
  t.after(async () => {
    await Promise.all([a.close(), b.close()]);
    await Promise.all([s1.close(), s2.close()]);
  });
  const ids: string[] = [];
  for (let i = 0; i < 10; i++)
    ids.push((await (i % 2 ? a : b).notify({ type: 'session.completed', orderKey: `ses_${i}`, data: { i } })).id);
  await until(
    async () => (await Promise.all(ids.map((id) => s1.getNotification(id)))).every((e) => e?.state === 'delivered'),
    'all delivered',
  );
  assert.notEqual(a.delivering, b.delivering);
  await (a.delivering ? w1 : w2).looked();
  assert.equal(tries.underWay(), 0, 'the holder looked at the queue again and started nothing; the other never sends');
  assert.deepEqual(receiver.received.map((r) => r.id).sort(), [...ids].sort());
});

test('a restart resumes what was pending: a new notifier on the same SQLite file delivers it', async (t) => {
  const dir = mkdtempSync(join(tmpdir(), 'okit-notify-'));
  t.after(() => rmSync(dir, { recursive: true, force: true }));
  const path = join(dir, 'state.db');
  const receiver = await startReceiver(SECRET);
  t.after(() => receiver.close());

  // First life: the receiver is down (a port nothing listens on any more), so every try fails.
  const gone = await startReceiver(SECRET);
  await gone.close();
  const before = new SqliteStore(path);
  const first = notifier(before, gone.url).n;
  const ids = [
    (await first.notify({ type: 'session.submitted', orderKey: 'ses_x', data: { n: 1 } })).id,
    (await first.notify({ type: 'session.completed', orderKey: 'ses_x', data: { n: 2 } })).id,
  ];
  await until(async () => ((await before.getNotification(ids[0]!))?.attempts ?? 0) >= 1, 'a failed try');
  assert.equal((await before.getNotification(ids[0]!))!.lastError, 'connection refused');
  await first.close();
  await before.close();

  // Second life, fixed address: the stored entries go out, in their order.
  const after = new SqliteStore(path);
  const second = notifier(after, receiver.url).n;
  t.after(async () => {
    await second.close();
    await after.close();
  });
  await until(
    async () => (await Promise.all(ids.map((id) => after.getNotification(id)))).every((e) => e?.state === 'delivered'),
    'resumed and delivered',
  );
  assert.deepEqual(
    receiver.received.map((r) => r.id),
    ids,
  );
  assert.ok(receiver.received.every((r) => r.verified));
});
