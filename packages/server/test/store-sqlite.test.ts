import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { chmodSync, existsSync, mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import Database from 'libsql';
import { StoreConfigError, StoreUnavailableError } from '../src/store/errors.js';
import { SqliteStore } from '../src/store/sqlite-store.js';
import { LATEST_SCHEMA_VERSION, MIGRATIONS } from '../src/store/sqlite/schema.js';
import { describeStore } from './store-conformance.js';

const CHILD = fileURLToPath(new URL('./helpers/sqlite-child.ts', import.meta.url));

function tempDir(): { dir: string; remove: () => void } {
  const dir = mkdtempSync(join(tmpdir(), 'okit-sqlite-'));
  return { dir, remove: () => rmSync(dir, { recursive: true, force: true }) };
}

describeStore('sqlite', async (clock, options) => {
  const { dir, remove } = tempDir();
  const path = join(dir, 'state.db');
  return {
    store: new SqliteStore(path, { now: clock.now, ...options }),
    // A second connection on the same file: what a restarted or second process would hold.
    openPeer: async (peerOptions) => new SqliteStore(path, { now: clock.now, ...(peerOptions ?? options) }),
    // The bytes on disk, committed pages and WAL frames alike (latin1 keeps each byte one character).
    rawState: async () =>
      [path, `${path}-wal`]
        .filter((p) => existsSync(p))
        .map((p) => readFileSync(p).toString('latin1'))
        .join('\n'),
    cleanup: async () => remove(),
  };
});

test('sqlite files: the database, its WAL and shared-memory index are 0600 and a new folder 0700, whatever the umask', async () => {
  const { dir, remove } = tempDir();
  const umask = process.umask(0o000);
  try {
    const path = join(dir, 'fresh', 'state.db');
    const store = new SqliteStore(path);
    const at = new Date().toISOString();
    await store.createSession(
      {
        id: 'ses_1',
        version: 1,
        reference: 'r',
        status: 'open',
        createdAt: at,
        expiresAt: at,
        documentTypes: [],
        locale: 'pt-BR',
        metadata: {},
      },
      { client: 'c'.repeat(64), capture: 'd'.repeat(64) },
    );
    const mode = (p: string) => (statSync(p).mode & 0o777).toString(8);
    for (const p of [path, `${path}-wal`, `${path}-shm`]) assert.equal(mode(p), '600', `${p} is its owner's only`);
    assert.equal(mode(join(dir, 'fresh')), '700', 'the folder it created');
    await store.close();

    // A file left readable by others (by an earlier kit, or a copy) is tightened on open.
    const old = join(dir, 'old.db');
    writeFileSync(old, '');
    chmodSync(old, 0o644);
    await new SqliteStore(old).close();
    assert.equal(mode(old), '600');
  } finally {
    process.umask(umask);
    remove();
  }
});

test('sqlite retention: a purged session leaves no trace in the file or its WAL (freed content is zeroed, the WAL emptied)', async () => {
  const { dir, remove } = tempDir();
  try {
    const path = join(dir, 'state.db');
    const store = new SqliteStore(path);
    const at = Date.parse('2030-01-01T00:00:00.000Z');
    const iso = (ms: number) => new Date(ms).toISOString();
    const cpf = '52998224725';
    await store.createSession(
      {
        id: 'ses_gone',
        version: 1,
        reference: 'r',
        status: 'open',
        createdAt: iso(at),
        expiresAt: iso(at + 60_000),
        taxId: { kind: 'cpf', value: cpf },
        name: 'Joana Quaresma Bittencourt',
        documentTypes: [],
        locale: 'pt-BR',
        metadata: {},
      },
      { client: 'c'.repeat(64), capture: 'd'.repeat(64) },
    );
    // The file and its WAL, byte for byte.
    const bytes = () =>
      [path, `${path}-wal`]
        .filter((p) => existsSync(p))
        .map((p) => readFileSync(p).toString('latin1'))
        .join('\n');
    assert.ok(bytes().includes(cpf), 'without a data key the CPF is in the files while the session lives');

    const later = new Date(at + 365 * 86_400_000);
    assert.equal(await store.purgeBackendState({ sessionsEndedBefore: later, sessionsCreatedBefore: later, outboxBefore: later }), 1);
    await store.close();
    assert.equal(bytes().includes(cpf), false, 'the purged CPF is not left in a free page');
    assert.equal(bytes().includes('Joana Quaresma'), false, 'nor the name');
  } finally {
    remove();
  }
});

test('sqlite schema: versioned migrations applied once, WAL and synchronous FULL; a newer file is refused', async () => {
  const { dir, remove } = tempDir();
  try {
    const path = join(dir, 'state.db');
    const store = new SqliteStore(path);
    assert.equal(store.schemaVersion(), LATEST_SCHEMA_VERSION);
    await store.close();
    const reopened = new SqliteStore(path);
    assert.equal(reopened.schemaVersion(), LATEST_SCHEMA_VERSION);
    await reopened.close();

    const raw = new Database(path);
    const versions = raw.prepare('SELECT version FROM schema_migrations ORDER BY version').all() as Array<{ version: number }>;
    assert.deepEqual(
      versions.map((v) => v.version),
      Array.from({ length: LATEST_SCHEMA_VERSION }, (_, i) => i + 1),
      'each version recorded once',
    );
    assert.equal((raw.pragma('journal_mode') as Array<{ journal_mode: string }>)[0]!.journal_mode, 'wal', 'WAL is a property of the file');
    raw
      .prepare('INSERT INTO schema_migrations (version, applied_at) VALUES (?, ?)')
      .run(LATEST_SCHEMA_VERSION + 1, new Date().toISOString());
    raw.close();
    assert.throws(
      () => new SqliteStore(path),
      (e: unknown) => e instanceof StoreConfigError && /newer/.test(e.message),
    );
  } finally {
    remove();
  }
});

test("sqlite upgrade: a file at schema version 1 gains the backend's tables and keeps its onboardings", async () => {
  const { dir, remove } = tempDir();
  try {
    const path = join(dir, 'state.db');
    const raw = new Database(path);
    raw.exec('CREATE TABLE schema_migrations (version INTEGER PRIMARY KEY, applied_at TEXT NOT NULL)');
    raw.exec(MIGRATIONS.find((m) => m.version === 1)!.sql);
    raw.prepare('INSERT INTO schema_migrations (version, applied_at) VALUES (1, ?)').run(new Date().toISOString());
    raw
      .prepare(
        `INSERT INTO onboardings (token, status, created_at, created_ms, updated_at, access_key_hash) VALUES ('tok-v1', 'IN_PROCESS', ?1, ?2, ?1, 'h1')`,
      )
      .run('2030-01-01T00:00:00.000Z', Date.parse('2030-01-01T00:00:00.000Z'));
    raw
      .prepare(
        `INSERT INTO status_history (token, seq, status, at, source) VALUES ('tok-v1', 0, 'IN_PROCESS', '2030-01-01T00:00:00.000Z', 'creation')`,
      )
      .run();
    raw.close();

    const store = new SqliteStore(path);
    try {
      assert.equal(store.schemaVersion(), LATEST_SCHEMA_VERSION);
      const before = (await store.get('tok-v1'))!;
      assert.deepEqual(
        before.history.map((h) => h.source),
        ['creation'],
      );
      assert.equal(before.sessionId, undefined);
      assert.equal(await store.addAccessKey('tok-v1', 'h2'), true);
      assert.deepEqual((await store.get('tok-v1'))!.moreAccessKeyHashes, ['h2']);
      assert.equal(
        await store.enqueueNotification({
          id: 'evt_1',
          type: 'session.expired',
          body: '{}',
          orderKey: 'ses_1',
          createdAt: '2030-01-01T00:00:00.000Z',
          state: 'pending',
          attempts: 0,
          nextAttemptMs: 0,
        }),
        true,
      );
      assert.deepEqual(
        (await store.dueNotifications(1, 10)).map((e) => e.id),
        ['evt_1'],
      );
    } finally {
      await store.close();
    }
  } finally {
    remove();
  }
});

test('sqlite: a locked database and a closed store reject with StoreUnavailableError, and it recovers', async () => {
  const { dir, remove } = tempDir();
  try {
    const path = join(dir, 'state.db');
    const store = new SqliteStore(path, { busyTimeoutMs: 50 });
    await store.create({ tokenOnboarding: 't', status: 'IN_PROCESS', createdAt: new Date().toISOString(), accessKeyHash: 'h' });
    const other = new Database(path);
    other.exec('BEGIN IMMEDIATE');
    await assert.rejects(store.applyStatus('t', { status: 'APPROVED', source: 'poll' }), StoreUnavailableError);
    const session = {
      id: 'ses_1',
      version: 1,
      reference: 'r',
      status: 'open' as const,
      createdAt: new Date().toISOString(),
      expiresAt: new Date(Date.now() + 60_000).toISOString(),
      documentTypes: [],
      locale: 'en',
      metadata: {},
    };
    await assert.rejects(store.createSession(session, { client: 'hc', capture: 'hk' }), StoreUnavailableError);
    await assert.rejects(store.reserveIdempotencyKey('k', 'fp', { ttlMs: 60_000, pendingTtlMs: 1_000 }), StoreUnavailableError);
    other.exec('COMMIT');
    other.close();
    assert.equal((await store.applyStatus('t', { status: 'APPROVED', source: 'poll' }))!.changed, true);
    await store.createSession(session, { client: 'hc', capture: 'hk' });
    assert.equal((await store.findSessionBySecret('capture', 'hk'))?.id, 'ses_1', 'the write refused while locked goes through once free');
    await store.close();
    await assert.rejects(store.get('t'), StoreUnavailableError);
    await assert.rejects(store.getSession('ses_1'), StoreUnavailableError);
    await assert.rejects(store.dueNotifications(Date.now(), 10), StoreUnavailableError);
    await assert.rejects(store.ping(), StoreUnavailableError);
  } finally {
    remove();
  }
});

test('sqlite durability: a SIGKILLed writer loses nothing it acknowledged', async () => {
  const { dir, remove } = tempDir();
  try {
    const path = join(dir, 'state.db');
    const child = spawn(process.execPath, ['--conditions=source', '--import', 'tsx', CHILD, 'write', path], {
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let out = '';
    let err = '';
    child.stderr.on('data', (d: Buffer) => (err += d.toString()));
    const closed = new Promise<string | null>((resolve) => child.once('close', (_code, signal) => resolve(signal)));
    await new Promise<void>((resolve, reject) => {
      child.stdout.on('data', (d: Buffer) => {
        out += d.toString();
        // Kill it in full flight, well after it started writing.
        if (out.split('\n').length > 300) resolve();
      });
      void closed.then(() => reject(new Error(`the writer ended before it was killed: ${err}`)));
    });
    child.kill('SIGKILL');
    assert.equal(await closed, 'SIGKILL');

    // Every complete line read, including those still in the pipe when it died, is an acknowledged write.
    const acks = out.split('\n').slice(0, -1);
    assert.ok(acks.length >= 300, `${acks.length} acknowledged writes`);
    const store = new SqliteStore(path);
    try {
      for (const ack of acks) {
        const [what, n] = ack.split(' ');
        const record = await store.get(`tok-${n}`);
        assert.ok(record, `tok-${n} was acknowledged as created`);
        if (what === 'approved') {
          assert.equal(record.status, 'APPROVED', `tok-${n} was acknowledged as approved`);
          assert.equal(record.externalId, `ext-${n}`);
          assert.equal(record.history.length, 2);
        }
      }
    } finally {
      await store.close();
    }
  } finally {
    remove();
  }
});

test('sqlite concurrency: two processes racing on the same onboardings; each gets one terminal status, once', async () => {
  const { dir, remove } = tempDir();
  try {
    const path = join(dir, 'state.db');
    const tokens = Array.from({ length: 40 }, (_, i) => `tok-${i}`);
    const setup = new SqliteStore(path);
    for (const t of tokens)
      await setup.create({ tokenOnboarding: t, status: 'IN_PROCESS', createdAt: new Date().toISOString(), accessKeyHash: 'h' });

    const racer = (status: string, order: string[]) => {
      const child = spawn(process.execPath, ['--conditions=source', '--import', 'tsx', CHILD, 'race', path, status, ...order], {
        stdio: ['pipe', 'pipe', 'pipe'],
      });
      let out = '';
      let err = '';
      child.stdout.on('data', (d: Buffer) => (out += d.toString()));
      child.stderr.on('data', (d: Buffer) => (err += d.toString()));
      const ready = new Promise<void>((resolve) => child.stdout.on('data', () => out.startsWith('ready\n') && resolve()));
      const done = new Promise<Array<{ token: string; changed: boolean }>>((resolve, reject) =>
        child.once('close', (code) =>
          code === 0
            ? resolve(
                out
                  .split('\n')
                  .slice(1, -1)
                  .map((l) => JSON.parse(l)),
              )
            : reject(new Error(`racer ${status} failed (${code}): ${err}`)),
        ),
      );
      return { child, ready, done };
    };
    // Opposite orders, so the two meet in the middle and contend on the same rows.
    const approve = racer('APPROVED', tokens);
    const refuse = racer('REFUSED', [...tokens].reverse());
    await Promise.all([approve.ready, refuse.ready]);
    approve.child.stdin.end('go\n');
    refuse.child.stdin.end('go\n');
    const [approved, refused] = await Promise.all([approve.done, refuse.done]);

    for (const t of tokens) {
      const a = approved.filter((r) => r.token === t);
      const b = refused.filter((r) => r.token === t);
      assert.equal(a.length + b.length, 4);
      const winners = [...a.map((r) => ['APPROVED', r.changed] as const), ...b.map((r) => ['REFUSED', r.changed] as const)].filter(
        ([, changed]) => changed,
      );
      assert.equal(winners.length, 1, `${t}: exactly one update changed it`);
      const record = (await setup.get(t))!;
      assert.equal(record.status, winners[0]![0]);
      assert.deepEqual(
        record.history.map((h) => h.status),
        ['IN_PROCESS', winners[0]![0]],
      );
    }
    await setup.close();
  } finally {
    remove();
  }
});
