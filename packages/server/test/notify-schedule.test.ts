/**
 * The retry schedule on an injected clock (three days pass in milliseconds), giving up, the admin
 * routes that list and replay, and replay after giving up.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { Hono } from 'hono';
import { createJsonLogger, MemoryStore } from '@onboarding-kit/server';
import { notificationAdminRoutes } from '../src/notifications/notification-routes.js';
import { Notifier } from '../src/notifications/outbox.js';
import { realTimers, type TimerHandle, type Timers } from '../src/relay/timers.js';
import { startReceiver, until } from './helpers/notify-receiver.js';

const SECRET = 'notify-secret-0123456789-abcdefghijklmnopqrstuvwxyz';

class ManualTimers implements Timers {
  t = Date.UTC(2026, 10, 23, 12);
  tasks: { at: number; fn: () => void; handle: TimerHandle }[] = [];
  now = () => this.t;
  setTimeout(fn: () => void, ms: number): TimerHandle {
    const handle = {};
    this.tasks.push({ at: this.t + Math.max(0, ms), fn, handle });
    return handle;
  }
  clearTimeout(handle: TimerHandle | undefined): void {
    this.tasks = this.tasks.filter((x) => x.handle !== handle);
  }
  /** Moves the clock to the earliest timer, runs it, and lets the promises it started settle. */
  async step(): Promise<boolean> {
    if (this.tasks.length === 0) return false;
    const next = this.tasks.reduce((a, b) => (b.at < a.at ? b : a));
    this.tasks = this.tasks.filter((x) => x !== next);
    this.t = Math.max(this.t, next.at);
    next.fn();
    for (let i = 0; i < 10; i++) await new Promise((r) => setImmediate(r));
    return true;
  }
}

const quiet = () => createJsonLogger({ sink: () => {}, level: 'error' });

test('retries after 1 s, doubling to one hour between tries, for 3 days; then failed (84 tries)', async () => {
  const timers = new ManualTimers();
  const memory = new MemoryStore({ now: timers.now });
  // Signing runs on Web Crypto's thread pool, outside the manual clock: the clock moves on only
  // once every try a look started has been recorded, so each try happens at its due time.
  let started = 0;
  let recorded = 0;
  const store: MemoryStore = Object.assign(Object.create(memory) as MemoryStore, {
    dueNotifications: async (nowMs: number, limit: number) => {
      const due = await memory.dueNotifications(nowMs, limit);
      started += due.filter((e) => e.nextAttemptMs <= timers.now()).length;
      return due;
    },
    updateNotification: async (...args: Parameters<MemoryStore['updateNotification']>) => {
      const done = await memory.updateNotification(...args);
      recorded++;
      return done;
    },
  });
  const settle = async () => {
    for (let i = 0; i < 5_000 && recorded < started; i++) await new Promise((r) => setTimeout(r, 1));
  };
  const tries: number[] = [];
  const failing: typeof fetch = async () => {
    tries.push(timers.now());
    return new Response('down', { status: 500 });
  };
  // Scans and lease renewals far apart, so the clock jumps from one try to the next.
  const n = new Notifier({
    environment: 'test',
    store,
    url: 'https://backend.example/hooks',
    secret: SECRET,
    logger: quiet(),
    timers,
    fetch: failing,
    scanIntervalMs: 6 * 3_600_000,
    leaseTtlMs: 9 * 3_600_000,
  });
  const { id } = await n.notify({ type: 'session.completed', orderKey: 'ses_1', data: {} });
  for (let i = 0; i < 5_000 && (await memory.getNotification(id))!.state !== 'failed'; i++) {
    await timers.step();
    await settle();
  }

  const entry = (await memory.getNotification(id))!;
  assert.equal(entry.state, 'failed');
  assert.equal(entry.attempts, 84);
  assert.equal(entry.lastError, 'HTTP 500');
  const gaps = tries.slice(1).map((at, i) => (at - tries[i]!) / 1000);
  assert.deepEqual(gaps, [1, 2, 4, 8, 16, 32, 64, 128, 256, 512, 1024, 2048, ...Array<number>(71).fill(3600)]);
  assert.ok(tries.at(-1)! - tries[0]! >= 3 * 86_400_000);
  // Given up: no more tries however long the clock runs.
  for (let i = 0; i < 20; i++) {
    await timers.step();
    await settle();
  }
  assert.equal(tries.length, 84);
  await n.close();
});

test('give-up, listed as failed, replayed, delivered once', async (t) => {
  let up = false;
  const receiver = await startReceiver(SECRET, () => (up ? 200 : 500));
  t.after(() => receiver.close());
  const store = new MemoryStore();
  // Looks at the outbox run on real timers; a retry falls due only when the test moves this clock.
  let clock = Date.UTC(2026, 10, 23, 12);
  const timers: Timers = { ...realTimers, now: () => clock };
  const n = new Notifier({
    environment: 'test',
    store,
    url: receiver.url,
    secret: SECRET,
    logger: quiet(),
    timers,
    retry: { firstDelayMs: 10, maxDelayMs: 20, giveUpAfterMs: 50 },
    scanIntervalMs: 20,
    leaseTtlMs: 300,
  });
  t.after(() => n.close());
  const app = new Hono().route('/v1/admin', notificationAdminRoutes({ notifier: n }));
  const list = async (query: string) =>
    (await (await app.request(`/v1/admin/notifications${query}`)).json()) as { data: Record<string, unknown>[] };

  const { id } = await n.notify({ type: 'session.completed', orderKey: 'ses_f', data: { id: 'ses_f' } });
  await until(async () => ((await store.getNotification(id))?.attempts ?? 0) >= 1, 'a failed try');
  assert.equal((await store.getNotification(id))!.state, 'pending', 'its retry is not due before the clock moves');
  assert.deepEqual(
    (await list('')).data.map((e) => e.id),
    [id],
    'failing is the default filter',
  );
  // Each move of the clock passes the retry's delay (10, then 20 ms): the next look tries it.
  for (let attempts = 1; (await store.getNotification(id))!.state === 'pending'; attempts++) {
    clock += 1_000;
    await until(async () => (await store.getNotification(id))!.attempts > attempts, `try ${attempts + 1}`);
  }
  assert.equal((await store.getNotification(id))!.state, 'failed', 'given up');
  const triesBefore = receiver.received.length;
  assert.equal(triesBefore, 4, 'the waits after three failed tries (10 + 20 + 20 ms) reach giveUpAfterMs');

  const failed = (await list('?state=failed')).data;
  assert.equal(failed.length, 1);
  const row = failed[0]!;
  assert.deepEqual(
    {
      id: row.id,
      type: row.type,
      state: row.state,
      attempts: row.attempts,
      lastError: row.lastError,
      nextAttemptAt: row.nextAttemptAt,
      deliveredAt: row.deliveredAt,
    },
    {
      id,
      type: 'session.completed',
      state: 'failed',
      attempts: triesBefore,
      lastError: 'HTTP 500',
      nextAttemptAt: null,
      deliveredAt: null,
    },
  );
  assert.equal(typeof row.createdAt, 'string');
  assert.equal(typeof row.lastAttemptAt, 'string');
  assert.deepEqual((row.event as { data: unknown }).data, { id: 'ses_f' });
  assert.deepEqual((await list('?state=failing')).data, []);

  up = true;
  const replay = await app.request(`/v1/admin/notifications/${id}/replay`, { method: 'POST' });
  assert.equal(replay.status, 202);
  const replayed = ((await replay.json()) as { data: Record<string, unknown> }).data;
  assert.deepEqual(
    { state: replayed.state, attempts: replayed.attempts, lastError: replayed.lastError },
    { state: 'pending', attempts: 0, lastError: 'HTTP 500' },
  );
  await until(async () => (await store.getNotification(id))?.state === 'delivered', 'delivered after the replay');
  assert.equal(receiver.delivered().length, 1);
  assert.equal(receiver.delivered()[0]!.body, receiver.received[0]!.body, 'the same body as the first try');
  assert.deepEqual(
    (await list('?state=delivered&limit=5')).data.map((e) => [e.id, e.attempts]),
    [[id, 1]],
  );
  assert.deepEqual((await list('?state=failed')).data, []);
});

test('the admin routes refuse bad filters and unknown ids in the error shape', async () => {
  const store = new MemoryStore();
  const n = new Notifier({
    environment: 'test',
    store,
    url: 'https://backend.example/hooks',
    secret: SECRET,
    logger: quiet(),
    deliver: false,
  });
  const app = new Hono().route('/v1/admin', notificationAdminRoutes({ notifier: n }));
  const call = async (path: string, init?: RequestInit) => {
    const res = await app.request(path, init);
    return { status: res.status, body: (await res.json()) as unknown };
  };
  assert.deepEqual(await call('/v1/admin/notifications?state=stuck'), {
    status: 400,
    body: { error: { code: 'invalid_field', message: 'state must be one of failing, failed, pending, delivered.', field: 'state' } },
  });
  for (const limit of ['0', '201', 'ten', '-1', '1.5', '']) {
    const { status, body } = await call(`/v1/admin/notifications?limit=${limit}`);
    assert.equal(status, 400, limit);
    assert.equal((body as { error: { field: string } }).error.field, 'limit');
  }
  assert.deepEqual(await call('/v1/admin/notifications/evt_nope/replay', { method: 'POST' }), {
    status: 404,
    body: { error: { code: 'not_found', message: 'No such notification.' } },
  });

  // Queued but never sent (deliver: false): pending, not failing.
  const { id } = await n.notify({ type: 'session.submitted', orderKey: 's', data: {} });
  assert.deepEqual(await call('/v1/admin/notifications'), { status: 200, body: { data: [] } });
  const pending = (await call('/v1/admin/notifications?state=pending&limit=1')).body as {
    data: { id: string; attempts: number; nextAttemptAt: string }[];
  };
  assert.deepEqual(
    pending.data.map((e) => [e.id, e.attempts]),
    [[id, 0]],
  );
  assert.ok(Date.parse(pending.data[0]!.nextAttemptAt) <= Date.now());
  await n.close();
});
