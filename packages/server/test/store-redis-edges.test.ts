/**
 * The Redis store where the conformance suite does not look: what it logs when Redis goes away
 * and comes back, which error replies mean "not now" (store_unavailable) and which a bug, an
 * operation Redis does not answer, scripts the server forgot, messages on the change channel it
 * cannot use, records Redis expired under it, and lists and purges longer than one page.
 * Every wait is for an event (a log line, a reply); none is for a length of time.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { createClient } from 'redis';
import { RedisStore, type OnboardingRecord, type RedisStoreOptions } from '../src/store/index.js';
import { isStoreUnavailable } from '../src/store/errors.js';
import type { Logger } from '../src/logger.js';
import { eventually } from './store-conformance.js';
import { redisForFile, startRedisServer, type RedisServer } from './helpers/redis-server.js';

const redis = redisForFile();

interface Line {
  level: string;
  msg: string;
  fields?: Record<string, unknown>;
}
function recorder(): { logger: Logger; lines: Line[] } {
  const lines: Line[] = [];
  const line = (level: string) => (msg: string, fields?: Record<string, unknown>) =>
    void lines.push({ level, msg, ...(fields && { fields }) });
  const logger: Logger = { debug: line('debug'), info: line('info'), warn: line('warn'), error: line('error'), child: () => logger };
  return { logger, lines };
}

const START = Date.parse('2030-01-01T00:00:00.000Z');
const iso = (ms: number) => new Date(START + ms).toISOString();
const record = (token: string, createdAt = new Date().toISOString()) => ({
  tokenOnboarding: token,
  status: 'IN_PROCESS' as const,
  createdAt,
  accessKeyHash: `hash-${token}`,
});

async function withStore(
  body: (store: RedisStore, prefix: string, lines: Line[]) => Promise<void>,
  options: RedisStoreOptions = {},
  url = redis.server.url,
) {
  const prefix = `edge-${randomUUID()}:`;
  const { logger, lines } = recorder();
  const store = await RedisStore.connect(url, { prefix, logger, ...options });
  try {
    await body(store, prefix, lines);
  } finally {
    await store.close();
  }
}

test('Redis going away: one warn, operations store_unavailable meanwhile; back: one info, and it serves again', async () => {
  const own = await startRedisServer();
  let restarted: RedisServer | undefined;
  try {
    await withStore(
      async (store, _prefix, lines) => {
        await store.create(record('t'));
        assert.equal(lines.length, 0, 'nothing to tell while Redis answers');
        await own.stop();
        await eventually(() => lines.length > 0);
        // Not connected, or the connection broke under the command: which one depends on which connection noticed first.
        await assert.rejects(store.get('t'), { name: 'StoreUnavailableError' });
        restarted = await startRedisServer({ port: own.port });
        await eventually(() => lines.some((l) => l.msg === 'Redis store reachable again'));
        // Both connections failed, each at least once: still one warn, then one info.
        assert.deepEqual(
          lines.map((l) => [l.level, l.msg]),
          [
            ['warn', 'Redis store unreachable; retrying'],
            ['info', 'Redis store reachable again'],
          ],
        );
        assert.ok(lines[0]!.fields?.error, 'the warn carries what failed');
        // The server came back empty (no persistence): the store works on it again.
        await store.create(record('t2'));
        assert.equal((await store.get('t2'))?.status, 'IN_PROCESS');
        // A second outage is told as the first was.
        await restarted.stop();
        await eventually(() => lines.length === 3);
        restarted = await startRedisServer({ port: own.port });
        await eventually(() => lines.length === 4);
        assert.deepEqual(
          lines.slice(2).map((l) => [l.level, l.msg]),
          [
            ['warn', 'Redis store unreachable; retrying'],
            ['info', 'Redis store reachable again'],
          ],
        );
      },
      {},
      own.url,
    );
  } finally {
    await restarted?.stop();
  }
});

test('after a reconnection, watchers of onboardings and sessions are told what changed while the store was away', async () => {
  await withStore(async (store, prefix) => {
    await store.create(record('watched', iso(0)));
    const heard: OnboardingRecord[] = [];
    store.subscribe('watched', (r) => heard.push(r));
    const told: string[] = [];
    store.subscribeSession('ses_watched', (id) => told.push(id));
    // A change whose news this instance missed: written, never published.
    await redis.raw.hSet(`${prefix}onboarding:watched`, {
      status: 'APPROVED',
      updatedAt: iso(1),
      finishedAt: iso(1),
      history: JSON.stringify([
        { status: 'IN_PROCESS', at: iso(0), source: 'creation' },
        { status: 'APPROVED', at: iso(1), source: 'webhook' },
      ]),
    });
    assert.equal(heard.length, 0);
    // Both of the store's connections are cut (this test's own client is spared); they come back by themselves.
    await redis.raw.sendCommand(['CLIENT', 'KILL', 'TYPE', 'pubsub']);
    await redis.raw.sendCommand(['CLIENT', 'KILL', 'TYPE', 'normal', 'SKIPME', 'yes']);
    await eventually(() => heard.length > 0 && told.length > 0);
    assert.deepEqual(
      heard.map((r) => [r.status, r.history.length]),
      [['APPROVED', 2]],
    );
    assert.equal(told[0], 'ses_watched');
  });
});

test('a Redis not there at start: connect gives up waiting after startTimeoutMs and says so once, naming the prefix', async () => {
  const stopped = await startRedisServer();
  await stopped.stop();
  const { logger, lines } = recorder();
  const store = await RedisStore.connect(stopped.url, { prefix: 'absent:', logger, startTimeoutMs: 100 });
  try {
    assert.deepEqual(
      lines.filter((l) => l.msg.startsWith('Redis store not reachable yet')),
      [
        {
          level: 'warn',
          msg: 'Redis store not reachable yet; its operations fail with store_unavailable until it is',
          fields: { prefix: 'absent:' },
        },
      ],
    );
    await assert.rejects(store.ping(), { name: 'StoreUnavailableError', message: 'The Redis store is not connected.' });
    assert.equal(store.prefix, 'absent:');
  } finally {
    await store.close();
  }
});

test('without a logger, an absent Redis, an outage and an unreadable message are survived quietly', async () => {
  const own = await startRedisServer();
  let again: RedisServer | undefined;
  const prefix = `quiet-${randomUUID()}:`;
  const absent = await RedisStore.connect('redis://127.0.0.1:1', { startTimeoutMs: 50 });
  await absent.close();
  const store = await RedisStore.connect(own.url, { prefix });
  try {
    await store.create(record('t'));
    await redis.raw.publish(`${prefix}changes`, 'not json');
    await own.stop();
    await assert.rejects(store.get('t'), { name: 'StoreUnavailableError' });
    again = await startRedisServer({ port: own.port });
    await eventually(
      async () =>
        await store.ping().then(
          () => true,
          () => false,
        ),
    );
  } finally {
    await store.close();
    await again?.stop();
  }
});

test('the default prefix is okit:', async () => {
  const store = await RedisStore.connect(`${redis.server.url}/7`);
  try {
    assert.equal(store.prefix, 'okit:');
    await store.create(record('default-prefix'));
    assert.equal(await redis.raw.exists('okit:onboarding:default-prefix'), 0, 'database 7, not 0');
    const db7 = createClient({ url: `${redis.server.url}/7` });
    await db7.connect();
    assert.equal(await db7.exists('okit:onboarding:default-prefix'), 1);
    await db7.flushDb();
    await db7.close();
  } finally {
    await store.close();
  }
});

test("instances on other prefixes never touch each other's records or indexes", async () => {
  await withStore(async (a) => {
    await withStore(async (b) => {
      await a.create(record('x', iso(0)));
      await a.applyStatus('x', { status: 'APPROVED', source: 'webhook', at: iso(1_000) });
      assert.equal(await b.expire({ finishedBefore: new Date(START + 10_000), createdBefore: new Date(START) }), 0);
      assert.deepEqual(await b.listInProcess(), []);
      assert.equal(
        await a.expire({ finishedBefore: new Date(START + 10_000), createdBefore: new Date(START) }),
        1,
        'a still finds its finished record',
      );
    });
  });
});

test('close lets the commands already sent finish', async () => {
  await withStore(async (store) => {
    const pending = store.create(record('late'));
    await store.close();
    assert.equal((await pending).tokenOnboarding, 'late');
  });
});

test('an operation Redis does not answer fails with store_unavailable after operationTimeoutMs', async () => {
  await withStore(
    async (store) => {
      await store.create(record('t'));
      // Writes paused for far longer than the operation may wait: the store gives up first, every
      // time. WRITE, not ALL, so that this connection's UNPAUSE is served at once.
      await redis.raw.sendCommand(['CLIENT', 'PAUSE', '60000', 'WRITE']);
      try {
        await assert.rejects(store.applyStatus('t', { status: 'APPROVED', source: 'poll' }), {
          name: 'StoreUnavailableError',
          message: 'The Redis store did not answer within 100 ms.',
        });
      } finally {
        await redis.raw.sendCommand(['CLIENT', 'UNPAUSE']);
      }
      // Redis still runs the write it held once it resumes: giving up is the store's, not Redis's.
      assert.equal((await store.get('t'))?.status, 'APPROVED', 'and answers again once Redis does');
    },
    { operationTimeoutMs: 100 },
  );
});

test('error replies: "cannot write now" is store_unavailable naming the reply; a wrong command stays itself', async () => {
  await withStore(async (store, prefix) => {
    await redis.raw.configSet('min-replicas-to-write', '1');
    try {
      await assert.rejects(store.create(record('t')), (e: unknown) => {
        assert.ok(isStoreUnavailable(e));
        assert.equal(e.message, 'The Redis store cannot serve now (NOREPLICAS).');
        assert.match(String((e.cause as Error).message), /^NOREPLICAS/);
        return true;
      });
    } finally {
      await redis.raw.configSet('min-replicas-to-write', '0');
    }
    await redis.raw.set(`${prefix}onboarding:wrong`, 'a string where a hash belongs');
    await assert.rejects(store.get('wrong'), (e: unknown) => !isStoreUnavailable(e) && /^WRONGTYPE/.test((e as Error).message));
    await assert.rejects(
      store.applyStatus('wrong', { status: 'APPROVED', source: 'poll' }),
      (e: unknown) => !isStoreUnavailable(e) && /WRONGTYPE/.test((e as Error).message),
    );
  });
});

test('scripts the server forgot (SCRIPT FLUSH, a restart) are loaded again on use', async () => {
  await withStore(async (store) => {
    await store.create(record('t'));
    await redis.raw.scriptFlush();
    assert.equal((await store.applyStatus('t', { status: 'APPROVED', source: 'webhook' }))?.changed, true);
    await redis.raw.scriptFlush();
    assert.equal(await store.acquireLease('poll:t', 'a', 10_000), true);
  });
});

test('the change channel: unreadable messages are logged and skipped; ones without a usable record are ignored', async () => {
  await withStore(async (store, prefix, lines) => {
    await store.create(record('t'));
    const heard: OnboardingRecord[] = [];
    store.subscribe('t', (r) => heard.push(r));
    const hash = (status: string, history: string[]) => ({
      tokenOnboarding: 't',
      status,
      createdAt: iso(0),
      updatedAt: iso(1),
      accessKeyHash: 'hash-t',
      history: JSON.stringify(history.map((s) => ({ status: s, at: iso(0), source: 'webhook' }))),
    });
    const channel = `${prefix}changes`;
    await redis.raw.publish(channel, 'not json');
    await redis.raw.publish(channel, JSON.stringify({ o: 'another-instance' }));
    await redis.raw.publish(channel, JSON.stringify({ o: 'another-instance', r: { tokenOnboarding: 't', history: '[]' } }));
    await redis.raw.publish(channel, JSON.stringify({ o: 'another-instance', r: hash('APPROVED', ['IN_PROCESS', 'APPROVED']) }));
    await eventually(() => heard.length > 0);
    assert.deepEqual(
      heard.map((r) => [r.status, r.history.length, 'finishedAt' in r]),
      [['APPROVED', 2, false]],
    );
    assert.deepEqual(
      lines.map((l) => [l.level, l.msg]),
      [['warn', 'unreadable message on the Redis change channel']],
    );
    assert.match(String(lines[0]!.fields?.error), /JSON/);
  });
});

test("the session channel: another instance's session is told, this instance's own messages and unreadable ones are not", async () => {
  await withStore(async (store, prefix) => {
    const told: string[] = [];
    store.subscribeSession('ses_a', (id) => told.push(`a:${id}`));
    store.subscribeSession('ses_b', (id) => told.push(`b:${id}`));
    const channel = `${prefix}session-changes`;
    await redis.raw.publish(channel, 'no-separator');
    await redis.raw.publish(channel, ' ses_a');
    await redis.raw.publish(channel, 'other-instance ses_b');
    await eventually(() => told.length > 0);
    assert.deepEqual(told, ['b:ses_b']);
  });
});

test('a record Redis expired under its token leaves the IN_PROCESS list and the set behind it', async () => {
  await withStore(async (store, prefix) => {
    await store.create(record('gone'));
    await store.create(record('kept'));
    await redis.raw.del(`${prefix}onboarding:gone`);
    assert.deepEqual(await store.listInProcess(), ['kept']);
    assert.deepEqual(await redis.raw.sMembers(`${prefix}in-process`), ['kept']);
    await redis.raw.del(`${prefix}onboarding:kept`);
    assert.deepEqual(await store.listInProcess(), []);
    assert.deepEqual(await redis.raw.sMembers(`${prefix}in-process`), []);
  });
});

test('a hash without a status or a token reads as no onboarding, and takes no status', async () => {
  await withStore(async (store, prefix) => {
    await redis.raw.hSet(`${prefix}onboarding:half`, { tokenOnboarding: 'half', createdAt: iso(0) });
    assert.equal(await store.get('half'), null);
    assert.equal(await store.applyStatus('half', { status: 'APPROVED', source: 'poll' }), null);
    await redis.raw.hSet(`${prefix}onboarding:nameless`, { status: 'IN_PROCESS', createdAt: iso(0) });
    assert.equal(await store.get('nameless'), null);
    assert.equal(await store.applyStatus('nameless', { status: 'APPROVED', source: 'poll' }), null);
  });
});

test('retention: strictly before the cutoffs, in batches, each record counted once', async () => {
  await withStore(async (store) => {
    for (let i = 0; i < 450; i++) await store.create(record(`old-${i}`, iso(0)));
    await store.create(record('edge', iso(1_000)));
    await store.create(record('done', iso(2_000)));
    await store.applyStatus('done', { status: 'APPROVED', source: 'webhook', at: iso(3_000) });
    assert.equal(await store.expire({ finishedBefore: new Date(START + 3_000), createdBefore: new Date(START + 1_000) }), 450);
    assert.equal(await store.get('old-0'), null);
    assert.equal(await store.get('old-449'), null);
    assert.equal((await store.get('edge'))?.status, 'IN_PROCESS', 'created exactly at the cutoff: kept');
    assert.equal((await store.get('done'))?.status, 'APPROVED', 'finished exactly at the cutoff: kept');
    assert.equal(await store.expire({ finishedBefore: new Date(START + 3_001), createdBefore: new Date(START + 1_000) }), 1);
    assert.deepEqual(await store.listInProcess(), ['edge']);
  });
});

test('a closed store says so, and closing twice is harmless', async () => {
  await withStore(async (store) => {
    await store.close();
    await store.close();
    await assert.rejects(store.get('t'), { name: 'StoreUnavailableError', message: 'The Redis store is closed.' });
  });
});
