import { test } from 'node:test';
import assert from 'node:assert/strict';
import { createJsonLogger, MemoryStore, redactingLogger } from '@onboarding-kit/server';

test('memory store: idempotent, monotonic, subscribers hear real changes only, retention', async () => {
  const store = new MemoryStore();
  const now = new Date().toISOString();
  await store.create({ tokenOnboarding: 't1', status: 'IN_PROCESS', createdAt: now, accessKeyHash: 'ab' });
  const heard: string[] = [];
  const off = store.subscribe('t1', (r) => heard.push(r.status));
  assert.equal((await store.applyStatus('t1', { status: 'IN_PROCESS', source: 'poll' }))!.changed, false);
  assert.equal((await store.applyStatus('t1', { status: 'ERROR', source: 'webhook', externalId: 'e1' }))!.changed, true);
  assert.equal((await store.applyStatus('t1', { status: 'APPROVED', source: 'poll' }))!.changed, false);
  assert.equal(await store.applyStatus('nope', { status: 'APPROVED', source: 'poll' }), null);
  off();
  const r = (await store.get('t1'))!;
  assert.equal(r.status, 'ERROR');
  assert.equal(r.externalId, 'e1');
  assert.deepEqual(heard, ['ERROR']);
  assert.deepEqual(await store.listInProcess(), []);
  r.history.push({ status: 'APPROVED', at: now, source: 'poll' });
  assert.equal((await store.get('t1'))!.history.length, 2, 'callers get copies');

  await store.create({ tokenOnboarding: 't2', status: 'IN_PROCESS', createdAt: now, accessKeyHash: 'cd' });
  const future = new Date(Date.now() + 1000);
  assert.equal(await store.expire({ finishedBefore: future, createdBefore: new Date(0) }), 1, 'only the finished one goes');
  assert.equal(await store.get('t1'), null);
  assert.equal(await store.expire({ finishedBefore: new Date(0), createdBefore: future }), 1, 'max age removes unfinished ones');
  assert.equal(store.size, 0);
});

test('logs: JSON lines; secrets, keys, images and full tax ids never appear', () => {
  const lines: string[] = [];
  const log = redactingLogger(createJsonLogger({ sink: (l) => lines.push(l), base: { app: 'x' } }), () => [
    'super-secret-value',
    'webhook-key-value',
  ]);
  log.info('token super-secret-value for 529.982.247-25 and 52998224725', {
    cpf: '52998224725',
    cnpj: '11222333000181',
    secret: 'x',
    accessKey: 'k',
    access_token: 'jwt',
    authorization: 'Bearer abc',
    images: { selfie: '/9j/AAAA' },
    nested: { note: 'key webhook-key-value cnpj 11.222.333/0001-81', list: ['529.982.247-25'] },
    tokenOnboarding: '3f1c9a1e-1111-4222-8333-944455556666',
  });
  log.child({ requestId: 'r1' }).debug('hidden at info level');
  assert.equal(lines.length, 1);
  const line = lines[0]!;
  const parsed = JSON.parse(line) as Record<string, unknown>;
  assert.equal(parsed.level, 'info');
  assert.equal(parsed.app, 'x');
  assert.equal(parsed.cpf, '529.***.***-25');
  assert.equal(parsed.tokenOnboarding, '3f1c9a1e-1111-4222-8333-944455556666');
  for (const leaked of [
    'super-secret-value',
    'webhook-key-value',
    '52998224725',
    '529.982.247-25',
    '11222333000181',
    '11.222.333/0001-81',
    'jwt',
    'Bearer abc',
    '/9j/AAAA',
  ]) {
    assert.ok(!line.includes(leaked), `${leaked} leaked: ${line}`);
  }
});
