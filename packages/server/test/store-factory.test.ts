import { test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createStore, MemoryStore, parseStoreUrl, SqliteStore, StoreConfigError } from '../src/store/index.js';

test('store URLs: sqlite:<path>, redis:// and rediss://, memory; anything else is refused without echoing it', () => {
  assert.deepEqual(parseStoreUrl('memory'), { kind: 'memory', target: '' });
  assert.deepEqual(parseStoreUrl('sqlite:./data/onboarding-kit.db'), { kind: 'sqlite', target: './data/onboarding-kit.db' });
  assert.deepEqual(parseStoreUrl('sqlite:/var/lib/okit/state.db'), { kind: 'sqlite', target: '/var/lib/okit/state.db' });
  assert.deepEqual(parseStoreUrl('sqlite:///var/lib/okit/state.db'), { kind: 'sqlite', target: '/var/lib/okit/state.db' });
  assert.deepEqual(parseStoreUrl('redis://cache:6379/2'), { kind: 'redis', target: 'redis://cache:6379/2' });
  assert.deepEqual(parseStoreUrl('rediss://user:pw@cache:6380'), { kind: 'redis', target: 'rediss://user:pw@cache:6380' });
  for (const bad of ['postgres://u:hunter2@db/okit', 'sqlite:', 'redis:cache', 'mem', '']) {
    assert.throws(
      () => parseStoreUrl(bad),
      (e: unknown) => e instanceof StoreConfigError && !e.message.includes('hunter2'),
      bad,
    );
  }
});

test('createStore: memory, and sqlite creating the file and its folders on first start', async () => {
  const memory = await createStore('memory');
  assert.ok(memory instanceof MemoryStore);

  const dir = mkdtempSync(join(tmpdir(), 'okit-factory-'));
  try {
    const store = await createStore('sqlite:./nested/deeper/onboarding-kit.db', { cwd: dir });
    assert.ok(store instanceof SqliteStore);
    assert.ok(existsSync(join(dir, 'nested/deeper/onboarding-kit.db')));
    await store.create({ tokenOnboarding: 't', status: 'IN_PROCESS', createdAt: new Date().toISOString(), accessKeyHash: 'h' });
    await store.close?.();
    const again = await createStore(`sqlite:${join(dir, 'nested/deeper/onboarding-kit.db')}`);
    assert.equal((await again.get('t'))?.status, 'IN_PROCESS', 'the state survived the restart');
    await again.close?.();
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});
