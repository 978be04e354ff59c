/**
 * Attack: read the companion's SQLite file (a backup, another account on the host, a copied disk)
 * after a person was onboarded. A real companion on a loopback socket, on a SQLite file opened
 * with a data key under a permissive umask, runs a session from the backend's prefill to the
 * upstream's verdict and the signed notifications; then the database, its WAL and shared-memory
 * index are readable by their owner only (0600), and none of their bytes holds the CPF, the name
 * or the e-mail the backend put in the session's metadata in plain text. The receiver still gets
 * them: sealing is at rest only. A companion restarted on the file without that key is refused
 * the session, naming the missing key id and none of the data.
 */
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, mkdtempSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { body, startStack, type Stack } from '@onboarding-kit/testing/stack';
import { createStore, type Store } from '@onboarding-kit/server';
import type { CreateSessionResponse, SessionView } from '@onboarding-kit/contract';
import { startReceiver, until, type Receiver } from '../helpers/notify-receiver.js';

const API_KEY = 'sk_test_data_at_rest_0123456789abcdef01234';
const NOTIFY_SECRET = 'whsec_test_data_at_rest_0123456789abcdef0';
const DATA_KEY = `2026-11:${Buffer.alloc(32, 0x5a).toString('base64')}`;
const CPF = '529.982.247-25';
const CPF_DIGITS = '52998224725';
const NAME = 'Joana Quaresma Bittencourt';
const EMAIL = 'joana.bittencourt@example.com';

let dir: string;
let path: string;
let store: Store;
let stack: Stack;
let receiver: Receiver;
let umask: number;
let stopped = false;
let sessionId: string | undefined;

async function stop(): Promise<void> {
  if (stopped) return;
  stopped = true;
  await stack?.close();
  await store?.close?.();
}

before(async () => {
  // Whatever the operator's umask, the files must not be readable by others.
  umask = process.umask(0o000);
  dir = mkdtempSync(join(tmpdir(), 'okit-at-rest-'));
  path = join(dir, 'data', 'onboarding-kit.db');
  store = await createStore(`sqlite:${path}`, { dataKey: DATA_KEY });
  receiver = await startReceiver(NOTIFY_SECRET);
  stack = await startStack({
    companion: { store, apiKeys: [API_KEY], notify: { url: `${receiver.url}/kyc-events`, secret: NOTIFY_SECRET } },
  });
});

after(async () => {
  await stop();
  await receiver?.close();
  process.umask(umask);
  rmSync(dir, { recursive: true, force: true });
});

const files = () => [path, `${path}-wal`, `${path}-shm`].filter((p) => existsSync(p));
const mode = (p: string) => (statSync(p).mode & 0o777).toString(8);

function assertNothingInPlainText(where: string): void {
  for (const file of files()) {
    const bytes = readFileSync(file).toString('latin1');
    for (const [what, value] of [
      ['CPF', CPF],
      ['CPF digits', CPF_DIGITS],
      ['name', NAME],
      ['e-mail', EMAIL],
    ] as const)
      assert.equal(bytes.includes(value), false, `${where}: ${file} holds the ${what} in plain text`);
  }
}

test('after an onboarding, the SQLite file and its WAL are 0600 and hold no CPF, name or e-mail in plain text', async () => {
  const opened = await fetch(`${stack.url}/v1/sessions`, {
    method: 'POST',
    headers: { authorization: `Bearer ${API_KEY}`, 'content-type': 'application/json' },
    body: JSON.stringify({ reference: 'user-at-rest', cpf: CPF, name: NAME, metadata: { email: EMAIL } }),
  });
  assert.equal(opened.status, 201, await opened.clone().text());
  const session = (await opened.json()) as CreateSessionResponse;
  sessionId = session.id;

  const creation = await fetch(`${stack.url}/v1/onboardings`, {
    method: 'POST',
    headers: { authorization: `Bearer ${session.clientSecret}`, 'content-type': 'application/json' },
    body: JSON.stringify(body({ cpf: CPF }, { name: NAME })),
  });
  assert.equal(creation.status, 201, await creation.clone().text());

  const view = async () =>
    (await (
      await fetch(`${stack.url}/v1/sessions/${session.id}`, { headers: { authorization: `Bearer ${API_KEY}` } })
    ).json()) as SessionView;
  await until(async () => (await view()).status === 'completed', 'the session completes with the upstream verdict', 30_000);
  assert.equal((await view()).onboarding?.status, 'APPROVED');
  assert.deepEqual((await view()).metadata, { email: EMAIL }, 'the backend reads its metadata back');
  await until(() => receiver.delivered().some((r) => r.type === 'session.completed'), 'session.completed delivered', 30_000);
  const completed = receiver.delivered().find((r) => r.type === 'session.completed')!;
  assert.equal(completed.verified, true);
  assert.ok(completed.body.includes(EMAIL), 'the notification carries the metadata to the receiver');

  assert.ok(existsSync(`${path}-wal`), 'the store runs in WAL mode');
  for (const file of files()) assert.equal(mode(file), '600', `${file} is readable by its owner only`);
  assertNothingInPlainText('while the companion runs');

  await stop();
  assertNothingInPlainText('after it stopped');
  for (const file of files()) assert.equal(mode(file), '600', `${file} is readable by its owner only`);
});

test('restarted on that file without its data key, the companion refuses the session, naming the key id and none of the data', async () => {
  assert.ok(sessionId, 'the onboarding above ran');
  await stop();
  const other = await createStore(`sqlite:${path}`, { dataKey: `2027-05:${Buffer.alloc(32, 0x33).toString('base64')}` });
  const again = await startStack({ companion: { store: other, apiKeys: [API_KEY] } });
  try {
    const res = await fetch(`${again.url}/v1/sessions/${sessionId}`, { headers: { authorization: `Bearer ${API_KEY}` } });
    const text = await res.text();
    assert.equal(res.status, 500, text);
    assert.match(text, /internal_error/);
    const logged = again.logs.join('\n');
    assert.match(logged, /data key \\?"2026-11\\?"/, 'the log names the key the record needs');
    for (const value of [CPF, CPF_DIGITS, NAME, EMAIL, DATA_KEY.slice(8)]) {
      assert.equal(text.includes(value), false, 'nothing personal in the answer');
      assert.equal(logged.includes(value), false, 'nothing personal, and no key, in the log');
    }
  } finally {
    await again.close();
    await other.close?.();
  }
});

test('a production companion whose store seals nothing says so at start; one with a data key does not', async () => {
  const { createCompanion, MemoryStore } = await import('@onboarding-kit/server');
  const { logLines } = await import('../helpers/log-lines.js');
  const options = {
    baseUrl: 'http://127.0.0.1:9',
    client: 'c',
    secret: 's',
    webhookKey: 'w'.repeat(32),
    environment: 'production' as const,
    apiKeys: [API_KEY],
  };
  const warned = (lines: ReturnType<typeof logLines>) =>
    lines.lines().some((l) => l.level === 'warn' && /personal data unencrypted/.test(String(l.msg)));
  const plain = logLines();
  const open = createCompanion({ ...options, store: new MemoryStore(), logger: plain.logger });
  await open.close();
  assert.ok(warned(plain), 'no warning for a store that keeps personal data in clear');
  const sealedLog = logLines();
  const sealed = createCompanion({ ...options, store: new MemoryStore({ dataKey: DATA_KEY }), logger: sealedLog.logger });
  await sealed.close();
  assert.ok(!warned(sealedLog), 'a warning although the store seals personal data');
});
