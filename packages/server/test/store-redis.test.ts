import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { createClient } from 'redis';
import { createStore, RedisStore, StoreUnavailableError, type OnboardingRecord, type RedisStoreOptions } from '../src/store/index.js';
import { describeStore, eventually } from './store-conformance.js';
import { freePort, startRedisServer, type RedisServer } from './helpers/redis-server.js';

// No skipping: CI installs redis-server, and a machine without it fails here saying what to install.
let server: RedisServer;
before(async () => {
  server = await startRedisServer();
});
after(async () => {
  await server?.stop();
});

/** Each test gets its own prefix on the one server, so tests never see each other's keys. */
const freshPrefix = () => `t-${randomUUID()}:`;

const connect = (prefix: string, options: RedisStoreOptions = {}) => RedisStore.connect(server.url, { prefix, ...options });

/** Every value under `prefix`, whatever its type, as Redis returns it. */
async function rawValues(prefix: string): Promise<string> {
  const raw = createClient({ url: server.url });
  await raw.connect();
  try {
    const out: unknown[] = [];
    for (const key of await raw.keys(`${prefix}*`)) {
      const type = String(await raw.sendCommand(['TYPE', key]));
      const read: Record<string, string[]> = {
        string: ['GET', key],
        hash: ['HGETALL', key],
        set: ['SMEMBERS', key],
        zset: ['ZRANGE', key, '0', '-1', 'WITHSCORES'],
        list: ['LRANGE', key, '0', '-1'],
        stream: ['XRANGE', key, '-', '+'],
      };
      assert.ok(read[type], `a reader for Redis type ${type}`);
      out.push(key, await raw.sendCommand(read[type]!));
    }
    return JSON.stringify(out);
  } finally {
    await raw.close();
  }
}

describeStore(
  'redis',
  async (clock, options) => {
    const prefix = freshPrefix();
    return {
      store: await connect(prefix, { now: clock.now, ...options }),
      // Another client on the same server and prefix: what a second instance behind the load balancer holds.
      openPeer: (peerOptions) => connect(prefix, { now: clock.now, ...(peerOptions ?? options) }),
      rawState: () => rawValues(prefix),
    };
  },
  { serverClock: true },
);

const record = (token: string, createdAt = new Date().toISOString()) => ({
  tokenOnboarding: token,
  status: 'IN_PROCESS' as const,
  createdAt,
  accessKeyHash: `hash-${token}`,
});

test('redis: a change applied through instance A reaches the subscribers of instance B', async () => {
  const prefix = freshPrefix();
  const [a, b] = [await connect(prefix), await connect(prefix)];
  try {
    await a.create(record('tok-fan'));
    const heardByB: OnboardingRecord[] = [];
    const off = b.subscribe('tok-fan', (r) => heardByB.push(r));
    const other = await connect(freshPrefix());
    const heardElsewhere: OnboardingRecord[] = [];
    other.subscribe('tok-fan', (r) => heardElsewhere.push(r));

    await a.applyStatus('tok-fan', { status: 'IN_PROCESS', source: 'poll' });
    const applied = (await a.applyStatus('tok-fan', { status: 'APPROVED', source: 'webhook', externalId: 'ext-9' }))!;
    await eventually(() => heardByB.length > 0);
    assert.deepEqual(heardByB, [applied.record], 'B hears the change, with the record as A stored it');

    // A repeat publishes nothing; a ping through the same connections proves the channel drained.
    await a.applyStatus('tok-fan', { status: 'APPROVED', source: 'poll' });
    await a.create(record('tok-marker'));
    const marker: string[] = [];
    b.subscribe('tok-marker', (r) => marker.push(r.status));
    await a.applyStatus('tok-marker', { status: 'ERROR', source: 'poll' });
    await eventually(() => marker.length > 0);
    assert.equal(heardByB.length, 1, 'no news for a repeat');
    assert.deepEqual(heardElsewhere, [], 'another prefix is another kit');
    off();
    await other.close();
  } finally {
    await a.close();
    await b.close();
  }
});

test("redis: keys live under the prefix (default okit:) in the URL's database and expire with the retention policy by themselves", async () => {
  // Database 5 holds nothing but this test's keys.
  const url = `${server.url}/5`;
  const prefix = 'okit:';
  const store = await RedisStore.connect(url, { retention: { finishedMs: 400, maxAgeMs: 60_000 } });
  const raw = createClient({ url });
  await raw.connect();
  try {
    await store.create(record('tok-done'));
    await store.create(record('tok-open'));
    await store.acquireLease('poll:tok-open', 'me', 60_000);
    await store.consumeRateLimit('ip:203.0.113.1', 5, 60_000);
    const keys = await raw.keys('*');
    assert.ok(keys.length >= 5);
    assert.ok(
      keys.every((k) => k.startsWith(prefix)),
      `every key under ${prefix}: ${keys.join(', ')}`,
    );
    const openTtl = await raw.pTTL(`${prefix}onboarding:tok-open`);
    assert.ok(openTtl > 400 && openTtl <= 60_000, `an onboarding lives at most its max age (${openTtl} ms left)`);

    await store.applyStatus('tok-done', { status: 'APPROVED', source: 'webhook' });
    await eventually(async () => (await store.get('tok-done')) === null);
    assert.ok(await store.get('tok-open'), 'the unfinished one stays');
    assert.deepEqual(await store.listInProcess(), ['tok-open']);

    // Created long ago: gone at once, and dropped from the in-process list too.
    await store.create(record('tok-ancient', new Date(Date.now() - 120_000).toISOString()));
    assert.equal(await store.get('tok-ancient'), null);
    assert.deepEqual(await store.listInProcess(), ['tok-open']);
  } finally {
    await raw.close();
    await store.close();
  }
});

test('redis: a subscriber that lost its connection catches up on what it missed, once', async () => {
  const prefix = freshPrefix();
  const [a, b] = [await connect(prefix), await connect(prefix)];
  const raw = createClient({ url: server.url });
  await raw.connect();
  try {
    const created = await a.create(record('tok-gap'));
    const heard: OnboardingRecord[] = [];
    b.subscribe('tok-gap', (r) => heard.push(r));
    // A change whose message B never gets: written straight into the hash, as if published while B was away.
    const missed = {
      ...created,
      status: 'REFUSED' as const,
      history: [...created.history, { status: 'REFUSED' as const, at: new Date().toISOString(), source: 'webhook' as const }],
    };
    await raw.hSet(`${prefix}onboarding:tok-gap`, { status: missed.status, history: JSON.stringify(missed.history) });
    await raw.sendCommand(['CLIENT', 'KILL', 'TYPE', 'pubsub']);
    await eventually(() => heard.length > 0);
    assert.equal(heard[0]!.status, 'REFUSED');
    assert.deepEqual(heard[0]!.history, missed.history);

    // Once caught up, a second gap with nothing missed tells the listener nothing new.
    await raw.sendCommand(['CLIENT', 'KILL', 'TYPE', 'pubsub']);
    await eventually(async () => Number(((await raw.sendCommand(['PUBSUB', 'NUMSUB', `${prefix}changes`])) as [string, number])[1]) === 2);
    await a.create(record('tok-after'));
    const after: string[] = [];
    b.subscribe('tok-after', (r) => after.push(r.status));
    await a.applyStatus('tok-after', { status: 'APPROVED', source: 'webhook' });
    await eventually(() => after.length > 0);
    assert.equal(heard.length, 1, 'the catch-up did not repeat a record the listener had');
  } finally {
    await raw.close();
    await a.close();
    await b.close();
  }
});

test('redis: unreachable at start, nothing crashes, operations reject with StoreUnavailableError, then it recovers by itself', async () => {
  const port = await freePort();
  const warnings: string[] = [];
  const logger = {
    debug() {},
    info() {},
    warn: (m: string) => warnings.push(m),
    error() {},
    child() {
      return logger;
    },
  };
  const store = await createStore(`redis://127.0.0.1:${port}/0`, { redisPrefix: freshPrefix(), startTimeoutMs: 200, logger });
  let late: RedisServer | undefined;
  try {
    await assert.rejects(store.ping(), StoreUnavailableError);
    await assert.rejects(store.get('tok'), StoreUnavailableError);
    await assert.rejects(store.applyStatus('tok', { status: 'APPROVED', source: 'webhook' }), StoreUnavailableError);
    await assert.rejects(store.acquireLease('poll:tok', 'me', 1_000), StoreUnavailableError);
    assert.ok(warnings.length >= 1 && warnings.length <= 2, `told once, not per retry: ${warnings.join(' | ')}`);

    late = await startRedisServer({ port });
    await eventually(() =>
      store.ping().then(
        () => true,
        () => false,
      ),
    );
    await store.create(record('tok'));
    assert.equal((await store.applyStatus('tok', { status: 'APPROVED', source: 'webhook' }))!.changed, true);
  } finally {
    await store.close?.();
    await late?.stop();
  }
});

test('redis: a server that stops or stalls fails operations quickly with StoreUnavailableError; they recover', async () => {
  let own = await startRedisServer();
  const store = await RedisStore.connect(own.url, { prefix: freshPrefix(), operationTimeoutMs: 300 });
  try {
    await store.create(record('tok'));

    // Stalled: the connection stays open but nothing answers.
    process.kill(own.pid, 'SIGSTOP');
    try {
      await assert.rejects(store.get('tok'), (e: unknown) => e instanceof StoreUnavailableError && /did not answer/.test(e.message));
    } finally {
      process.kill(own.pid, 'SIGCONT');
    }
    await eventually(() =>
      store.get('tok').then(
        (r) => r !== null,
        () => false,
      ),
    );

    // Stopped: the connection drops; operations fail at once instead of queueing.
    const port = own.port;
    await own.stop();
    await eventually(() =>
      store.ping().then(
        () => false,
        (e: unknown) => e instanceof StoreUnavailableError,
      ),
    );
    await assert.rejects(store.create(record('tok-2')), StoreUnavailableError);
    own = await startRedisServer({ port });
    await eventually(() =>
      store.ping().then(
        () => true,
        () => false,
      ),
    );
    await store.create(record('tok-2'));
    assert.ok(await store.get('tok-2'));
  } finally {
    await store.close();
    await own.stop();
  }
  await assert.rejects(store.get('tok-2'), StoreUnavailableError);
});

test("redis: the backend's keys live under the prefix; sessions, their secrets and idempotency keys expire by themselves, pending notifications never", async () => {
  // Database 6 holds nothing but this test's keys.
  const url = `${server.url}/6`;
  const prefix = 'kit-b:';
  const hour = 3600_000;
  const store = await RedisStore.connect(url, { prefix, retention: { finishedMs: 24 * hour, maxAgeMs: 48 * hour } });
  const raw = createClient({ url });
  await raw.connect();
  const now = Date.now();
  const iso = (ms: number) => new Date(ms).toISOString();
  try {
    await store.create({ ...record('tok-b'), sessionId: 'ses_b' });
    assert.equal(await store.addAccessKey('tok-b', 'hash-replay'), true);
    await store.createSession(
      {
        id: 'ses_b',
        version: 1,
        reference: 'user-1',
        status: 'open',
        createdAt: iso(now),
        expiresAt: iso(now + hour),
        documentTypes: [],
        locale: 'en',
        metadata: {},
      },
      { client: 'c'.repeat(64), capture: 'd'.repeat(64) },
    );
    assert.equal(await store.addSessionSecret('ses_b', 'client', 'e'.repeat(64)), true);
    // Later sessions push the expiry of their reference's index out; an earlier one must not pull it in.
    await store.createSession(
      {
        id: 'ses_late',
        version: 1,
        reference: 'user-1',
        status: 'open',
        createdAt: iso(now),
        expiresAt: iso(now + 10 * hour),
        documentTypes: [],
        locale: 'en',
        metadata: {},
      },
      { client: 'f'.repeat(64), capture: 'a'.repeat(64) },
    );
    const s = (await store.getSession('ses_b'))!;
    assert.equal(await store.replaceSession({ ...s, status: 'submitted' }, 1), true);
    assert.deepEqual(await store.reserveIdempotencyKey('sessions:k:pending', 'fp', { ttlMs: 24 * hour, pendingTtlMs: 120_000 }), {
      state: 'reserved',
    });
    await store.reserveIdempotencyKey('sessions:k:done', 'fp', { ttlMs: 24 * hour, pendingTtlMs: 120_000 });
    await store.completeIdempotencyKey('sessions:k:done', 'result', 24 * hour);
    await store.enqueueNotification({
      id: 'evt_b',
      type: 'session.completed',
      body: '{}',
      orderKey: 'ses_b',
      createdAt: iso(now),
      state: 'pending',
      attempts: 0,
      nextAttemptMs: now,
    });

    const keys = await raw.keys('*');
    assert.ok(keys.length >= 10, keys.join(', '));
    assert.ok(
      keys.every((k) => k.startsWith(prefix)),
      `every key under ${prefix}: ${keys.join(', ')}`,
    );

    // Wide margins: only the order of magnitude matters, and a slow machine must not fail this.
    const ttl = (key: string) => raw.pTTL(`${prefix}${key}`);
    const around = async (key: string, expectedMs: number) => {
      const left = await ttl(key);
      assert.ok(left > expectedMs - 60_000 && left <= expectedMs, `${key}: ${left} ms left, about ${expectedMs} expected`);
    };
    const sessionLife = hour + 72 * hour;
    assert.ok((await ttl('session:ses_b')) > sessionLife, 'a session outlives its expiry by days, for the routes and the purge');
    const sessionTtl = await ttl('session:ses_b');
    for (const key of ['session-secrets:ses_b', `secret:${'c'.repeat(64)}`, `secret:${'d'.repeat(64)}`, `secret:${'e'.repeat(64)}`]) {
      const left = await ttl(key);
      assert.ok(Math.abs(left - sessionTtl) < 60_000, `${key} expires with its session (${left} vs ${sessionTtl} ms)`);
    }
    assert.ok(
      (await ttl('sessions:reference:user-1')) >= (await ttl('session:ses_late')) - 60_000,
      'the reference index outlives its latest session',
    );
    await around('idempotency:sessions:k:pending', 120_000);
    await around('idempotency:sessions:k:done', 24 * hour);
    assert.equal(await ttl('outbox:evt_b'), -1, 'a pending notification must not vanish before it is sent');

    // The added access key and the session id are fields of the onboarding's hash, which keeps its retention TTL.
    assert.deepEqual(await store.get('tok-b').then((r) => [r?.sessionId, r?.moreAccessKeyHashes]), ['ses_b', ['hash-replay']]);
    await around('onboarding:tok-b', 48 * hour);
  } finally {
    await raw.flushDb();
    await raw.close();
    await store.close();
  }
});

test('redis: a session whose key Redis already expired leaves the lists and the purge, and takes no other session with it', async () => {
  const prefix = freshPrefix();
  const store = await connect(prefix);
  const raw = createClient({ url: server.url });
  await raw.connect();
  const hour = 3600_000;
  const now = Date.now();
  const iso = (ms: number) => new Date(ms).toISOString();
  const session = (id: string, createdMs: number) => ({
    id,
    version: 1,
    reference: 'user-x',
    status: 'open' as const,
    createdAt: iso(createdMs),
    expiresAt: iso(createdMs + hour),
    documentTypes: [],
    locale: 'en',
    metadata: {},
  });
  try {
    // Ended long before any grace: Redis drops its key at once, while its index entries are written.
    await store.createSession(session('ses_dead', now - 500 * hour), { client: '1'.repeat(64), capture: '2'.repeat(64) });
    await store.createSession(session('ses_live', now), { client: '3'.repeat(64), capture: '4'.repeat(64) });
    assert.equal(await store.getSession('ses_dead'), null);
    assert.equal(await store.findSessionBySecret('client', '1'.repeat(64)), null);

    assert.deepEqual(
      (await store.listSessionsByReference('user-x', 10)).map((s) => s.id),
      ['ses_live'],
    );
    assert.deepEqual(
      (await store.listSessionsByStatus('open', { limit: 10 })).map((s) => s.id),
      ['ses_live'],
    );
    assert.equal(await raw.zCard(`${prefix}sessions:status:open`), 1, 'a read drops the lapsed member');
    assert.equal(await raw.zCard(`${prefix}sessions:reference:user-x`), 1);

    const past = new Date(now - 96 * hour);
    assert.equal(
      await store.purgeBackendState({ sessionsEndedBefore: past, sessionsCreatedBefore: past, outboxBefore: past }),
      0,
      'nothing left to delete',
    );
    assert.deepEqual(await raw.zRange(`${prefix}sessions:created`, 0, -1).then((m) => m.map((x) => x.slice(x.indexOf(':') + 1))), [
      'ses_live',
    ]);
    assert.equal((await store.getSession('ses_live'))?.id, 'ses_live');
  } finally {
    await raw.close();
    await store.close();
  }
});

test('redis listing: sessions written before the listing index existed are put in it once, on the first listing; expired ones leave it', async () => {
  const prefix = freshPrefix();
  const store = await connect(prefix);
  const raw = createClient({ url: server.url });
  await raw.connect();
  const now = Date.now();
  const session = (id: string, createdMs: number) => ({
    id,
    version: 1,
    reference: 'user-old',
    status: 'open' as const,
    createdAt: new Date(createdMs).toISOString(),
    expiresAt: new Date(createdMs + 3600_000).toISOString(),
    documentTypes: [],
    locale: 'en',
    metadata: {},
  });
  try {
    for (let i = 0; i < 3; i++)
      await store.createSession(session(`ses_old_${i}`, now + i), { client: `${i}`.repeat(64), capture: `${i + 5}`.repeat(64) });
    // What a store written by an earlier kit holds: no listing index, nothing marking it filled.
    await raw.del([`${prefix}sessions:listing`, `${prefix}sessions:listing-ready`]);
    assert.deepEqual(
      (await store.listSessions({ limit: 10 })).map((s) => s.id),
      ['ses_old_2', 'ses_old_1', 'ses_old_0'],
    );
    assert.equal(await raw.get(`${prefix}sessions:listing-ready`), '1');
    assert.equal(await raw.zCard(`${prefix}sessions:listing`), 3);
    // Redis expiring a session's key leaves its entry behind: the next listing drops it.
    await raw.del(`${prefix}session:ses_old_1`);
    assert.deepEqual(
      (await store.listSessions({ limit: 10 })).map((s) => s.id),
      ['ses_old_2', 'ses_old_0'],
    );
    assert.equal(await raw.zCard(`${prefix}sessions:listing`), 2);
  } finally {
    await raw.close();
    await store.close();
  }
});
