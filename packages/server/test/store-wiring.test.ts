/**
 * How the stores are put together, beyond what the conformance suite asks of each: the store URL
 * and its refusals, the clock and options createStore hands on, SQLite's per-file change feed
 * (stores on one file hear each other; separate in-memory databases do not), SQLite errors that
 * mean "not now" against those that mean a bug, and the store's own error types.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'libsql';
import { settle } from '@onboarding-kit/testing/manual-clock';
import { createStore, DEFAULT_STORE_URL, parseStoreUrl, SqliteStore, StoreConfigError } from '../src/store/index.js';
import { StoreUnavailableError, isStoreUnavailable } from '../src/store/errors.js';
import { msOf } from '../src/store/rules/iso-time.js';
import type { OnboardingRecord, Store } from '../src/store/store.js';
import type { Logger } from '../src/logger.js';

const START = Date.parse('2030-01-01T00:00:00.000Z');
const record = (tokenOnboarding: string) => ({
  tokenOnboarding,
  status: 'IN_PROCESS' as const,
  createdAt: new Date(START).toISOString(),
  accessKeyHash: 'h'.repeat(64),
});

test('the default store is the SQLite file npm start documents', () => {
  assert.equal(DEFAULT_STORE_URL, 'sqlite:./data/onboarding-kit.db');
});

test('store URLs: trimmed; sqlite:// only before an absolute or ./ path; each refusal says what to write', () => {
  assert.deepEqual(parseStoreUrl('  memory \n'), { kind: 'memory', target: '' });
  assert.deepEqual(parseStoreUrl(' sqlite:./a.db '), { kind: 'sqlite', target: './a.db' });
  assert.deepEqual(parseStoreUrl('sqlite://./a.db'), { kind: 'sqlite', target: './a.db' });
  assert.deepEqual(parseStoreUrl('sqlite:data//./a.db'), { kind: 'sqlite', target: 'data//./a.db' });
  assert.deepEqual(parseStoreUrl('sqlite::memory:'), { kind: 'sqlite', target: ':memory:' });
  assert.throws(() => parseStoreUrl('sqlite:'), {
    name: 'StoreConfigError',
    message: 'ONBOARDING_STORE sqlite: needs a file path, as in sqlite:./data/onboarding-kit.db.',
  });
  assert.throws(() => parseStoreUrl('redis://[::1'), {
    name: 'StoreConfigError',
    message: 'ONBOARDING_STORE is not a valid redis:// URL.',
  });
  for (const bad of ['xredis://cache:6379', ' postgres://db', 'memory2']) {
    assert.throws(
      () => parseStoreUrl(bad),
      { name: 'StoreConfigError', message: 'ONBOARDING_STORE must be sqlite:<path>, redis://host:port[/db], rediss://... or memory.' },
      bad,
    );
  }
});

/** A store whose leases follow `clock`: after 10 ms of it another owner may take a 10 ms lease. */
async function followsClock(store: Store, clock: { t: number }) {
  assert.equal(await store.acquireLease('l', 'a', 10), true);
  clock.t += 10;
  return store.acquireLease('l', 'b', 10);
}

test('createStore hands its clock to the memory and SQLite stores', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'okit-wiring-'));
  try {
    for (const url of ['memory', 'sqlite::memory:', 'sqlite:./clocked.db']) {
      const clock = { t: START };
      const store = await createStore(url, { now: () => clock.t, cwd: dir });
      try {
        assert.equal(await followsClock(store, clock), true, url);
      } finally {
        await store.close?.();
      }
    }
    assert.deepEqual(
      readdirSync(dir).filter((f) => !f.startsWith('clocked.db')),
      [],
      'sqlite::memory: is no file',
    );
    assert.ok(existsSync(join(dir, 'clocked.db')));
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test('createStore hands the start timeout, prefix and logger to the Redis store (nothing listening here)', async (t) => {
  const lines: { level: string; msg: string; fields?: Record<string, unknown> }[] = [];
  let heardRefusal!: () => void;
  const refused = new Promise<void>((r) => (heardRefusal = r));
  const line = (level: string) => (msg: string, fields?: Record<string, unknown>) => {
    lines.push({ level, msg, ...(fields && { fields }) });
    if (msg.startsWith('Redis store unreachable')) heardRefusal();
  };
  const logger: Logger = { debug: line('debug'), info: line('info'), warn: line('warn'), error: line('error'), child: () => logger };
  // Timers on a clock the test moves: the start wait ends when the test says, not when a loaded machine gets to it.
  t.mock.timers.enable({ apis: ['setTimeout'] });
  let started: Store | undefined;
  const starting = createStore('redis://127.0.0.1:1', {
    startTimeoutMs: 150,
    redisPrefix: 'edge:',
    logger,
    operationTimeoutMs: 200,
    retention: { finishedMs: 1_000, maxAgeMs: 2_000 },
  }).then((s) => (started = s));
  // Its first connection was refused: the store is trying, and its start wait runs.
  await refused;
  t.mock.timers.tick(149);
  await settle();
  assert.equal(started, undefined, 'still waiting within its own 150 ms');
  t.mock.timers.tick(1);
  await settle();
  assert.ok(started, 'gave up waiting after its own 150 ms, not the default 5 s');
  t.mock.timers.reset();
  const store = await starting;
  try {
    const notYet = lines.find((l) => l.msg.startsWith('Redis store not reachable yet'));
    assert.equal(notYet?.level, 'warn');
    assert.deepEqual(notYet?.fields, { prefix: 'edge:' });
    await assert.rejects(store.ping(), isStoreUnavailable);
  } finally {
    await store.close?.();
  }
});

test('SQLite stores on one file share a change feed while any of them is open, even closed twice', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'okit-wiring-'));
  const path = join(dir, 'shared.db');
  const a = new SqliteStore(path);
  const b = new SqliteStore(path);
  let c: SqliteStore | undefined;
  try {
    await b.create(record('t'));
    const heard: string[] = [];
    b.subscribe('t', (r: OnboardingRecord) => heard.push(r.status));
    await a.close();
    await a.close();
    c = new SqliteStore(join(dir, '.', 'shared.db'));
    await c.applyStatus('t', { status: 'APPROVED', source: 'webhook' });
    assert.deepEqual(heard, ['APPROVED'], 'a change through the store opened later reaches the one still open');
  } finally {
    await b.close();
    await c?.close();
    rmSync(dir, { recursive: true, force: true });
  }
});

test("a closed SQLite store's listeners hear nothing more from the stores still open on its file", async () => {
  const dir = mkdtempSync(join(tmpdir(), 'okit-wiring-'));
  const path = join(dir, 'shared.db');
  const a = new SqliteStore(path);
  const b = new SqliteStore(path);
  try {
    await a.create(record('t'));
    const heard: string[] = [];
    a.subscribe('t', (r: OnboardingRecord) => heard.push(r.status));
    await a.close();
    await b.applyStatus('t', { status: 'APPROVED', source: 'webhook' });
    assert.deepEqual(heard, []);
  } finally {
    await b.close();
    rmSync(dir, { recursive: true, force: true });
  }
});

test('SQLite: a file that cannot be opened fails at start, naming it; a busy one is store_unavailable, naming the code', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'okit-wiring-'));
  try {
    // A folder where the file should be: SQLite cannot open it.
    assert.throws(
      () => new SqliteStore(dir),
      (e: unknown) => e instanceof Error && e.message.includes(dir) && !isStoreUnavailable(e),
    );
    const path = join(dir, 'busy.db');
    const store = new SqliteStore(path, { busyTimeoutMs: 20 });
    const holder = new Database(path);
    try {
      await store.create(record('t'));
      // Another connection holds the write lock while the store tries to write.
      holder.exec('BEGIN IMMEDIATE');
      await assert.rejects(store.applyStatus('t', { status: 'APPROVED', source: 'poll' }), (e: unknown) => {
        assert.ok(isStoreUnavailable(e));
        assert.match(e.message, /^The SQLite store is unavailable \(SQLITE_BUSY[A-Z_]*\)\.$/);
        assert.match(String((e.cause as { code?: unknown }).code), /^SQLITE_BUSY/);
        return true;
      });
      holder.exec('ROLLBACK');
    } finally {
      holder.close();
      await store.close();
    }
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test('separate in-memory SQLite databases are separate: no shared feed, no file', async () => {
  const a = new SqliteStore(':memory:');
  const b = new SqliteStore(':memory:');
  try {
    await a.create(record('t'));
    await b.create(record('t'));
    const heard: string[] = [];
    b.subscribe('t', (r: OnboardingRecord) => heard.push(r.status));
    await a.applyStatus('t', { status: 'REFUSED', source: 'webhook' });
    assert.deepEqual(heard, []);
    assert.equal((await b.get('t'))!.status, 'IN_PROCESS');
  } finally {
    await a.close();
    await b.close();
  }
});

test('SQLite: a query the schema refuses is a bug, not store_unavailable; a closed store is', async () => {
  const store = new SqliteStore(':memory:');
  await assert.rejects(store.create({ ...record('t'), accessKeyHash: undefined as unknown as string }), (e: unknown) => {
    assert.equal(isStoreUnavailable(e), false);
    assert.match(String((e as { code?: unknown }).code), /^SQLITE_CONSTRAINT/);
    return true;
  });
  await store.close();
  await assert.rejects(store.get('t'), {
    name: 'StoreUnavailableError',
    code: 'store_unavailable',
    message: 'The SQLite store is closed.',
  });
});

test('the store errors carry their names (the log prints them) and the page code', () => {
  const unavailable = new StoreUnavailableError('down', { cause: 'x' });
  assert.deepEqual(
    [unavailable.name, unavailable.code, unavailable.message, unavailable.cause],
    ['StoreUnavailableError', 'store_unavailable', 'down', 'x'],
  );
  assert.equal(String(new StoreConfigError('bad')), 'StoreConfigError: bad');
  assert.equal(isStoreUnavailable(unavailable), true);
  assert.equal(isStoreUnavailable(new Error('down')), false);
  assert.equal(isStoreUnavailable(new StoreConfigError('bad')), false, 'a wrong configuration is no outage');
});

test('stored times must be ISO 8601; anything else is refused, naming it', () => {
  assert.equal(msOf('2030-01-01T00:00:00.000Z'), START);
  assert.throws(() => msOf('yesterday'), { name: 'TypeError', message: 'Not an ISO 8601 time: yesterday' });
});
