/**
 * Graceful shutdown and health: close() stops accepting, lets a request in flight finish and
 * stores its record before the store is closed, ends event streams with a `retry:` hint, and
 * resolves as soon as nothing is left (the grace period bounds it); closeOnSignals() turns the
 * first SIGTERM into that shutdown and a second one, or the timeout, into an exit; the health
 * route tells a load balancer when the store does not answer or the instance is stopping.
 */
import { test, after, before } from 'node:test';
import assert from 'node:assert/strict';
import { request } from 'node:http';
import { closeOnSignals, createJsonLogger, MemoryStore, serveCompanion, type CompanionOptions } from '@onboarding-kit/server';
import { StoreUnavailableError } from '../src/store/errors.js';
import { FAKE_CLIENT, FAKE_SECRET, startFakeUpstream, type FakeUpstream } from './helpers/fake-upstream.js';
import { createBody } from './helpers/fixtures.js';
import { created, testCompanion, WEBHOOK_KEY } from './helpers/companion.js';

let up: FakeUpstream;
before(async () => {
  up = await startFakeUpstream();
});
after(() => up.close());

const CREATE = '/api/token-history-onboarding';

/** A memory store that notes, in order, the records it stores and when it is closed. */
class JournalStore extends MemoryStore {
  readonly journal: string[] = [];
  override async create(input: Parameters<MemoryStore['create']>[0]) {
    this.journal.push(`create ${input.tokenOnboarding}`);
    return super.create(input);
  }
  async close(): Promise<void> {
    this.journal.push('close');
  }
}

async function serve(over: Partial<CompanionOptions> = {}) {
  const logs: string[] = [];
  const served = await serveCompanion({
    port: 0,
    baseUrl: up.url,
    client: FAKE_CLIENT,
    secret: FAKE_SECRET,
    webhookKey: WEBHOOK_KEY,
    rateLimit: 0,
    logger: createJsonLogger({ sink: (l) => logs.push(l), level: 'debug' }),
    poll: { firstDelayMs: 60_000 },
    upstream: { timeoutMs: 10_000 },
    ...over,
  });
  return { served, logs };
}

/** A GET on a connection of its own (never a pooled one): resolves with the status, rejects when refused. */
function freshGet(url: string): Promise<number> {
  return new Promise((resolve, reject) => {
    const req = request(url, { agent: false }, (res) => {
      res.resume();
      resolve(res.statusCode ?? 0);
    });
    req.on('error', reject);
    req.end();
  });
}

/** The upstream holds the next creation until `answer()`; `arrived` resolves once it gets there. */
function holdCreation(tokenOnboarding: string) {
  let arrivedThere!: () => void;
  let answer!: () => void;
  const arrived = new Promise<void>((r) => (arrivedThere = r));
  const answered = new Promise<void>((r) => (answer = r));
  up.override(CREATE, async () => {
    arrivedThere();
    await answered;
    return { json: { tokenOnboarding, dateHourProcess: new Date().toISOString() } };
  });
  return { arrived, answer };
}

const GRACE_LOG = 'requests still in flight after the grace period';

test('close(): new connections are refused, a creation in flight finishes and is stored, then the store closes, as soon as nothing is left', async () => {
  const store = new JournalStore();
  // A grace period no run outlasts (the longest a timer can wait): close() can only end because nothing is left.
  const { served, logs } = await serve({ store, shutdownGraceMs: 2 ** 31 - 1 });
  const upstream = holdCreation('in-flight-creation');
  try {
    const creation = fetch(`${served.url}/v1/onboardings`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify(createBody()),
    });
    await upstream.arrived;
    let closed = false;
    const closing = served.close().then(() => void (closed = true));
    await assert.rejects(freshGet(`${served.url}/v1/health`), /ECONNREFUSED/, 'no new connection once stopping');
    assert.equal(closed, false, 'the shutdown waits for the creation in flight');
    upstream.answer();
    const res = await creation;
    assert.equal(res.status, 201, 'the request in flight got its answer');
    assert.equal(((await res.json()) as { tokenOnboarding: string }).tokenOnboarding, 'in-flight-creation');
    await closing;
    assert.deepEqual(store.journal, ['create in-flight-creation', 'close'], 'the record was stored before the store closed');
    assert.ok(!logs.some((l) => l.includes(GRACE_LOG)), 'the shutdown ended when the request did, not at the end of its grace period');
  } finally {
    upstream.answer();
    up.override(CREATE, undefined);
  }
});

test('close(): the grace period bounds a shutdown that a slow request would hold', async () => {
  const store = new JournalStore();
  const { served, logs } = await serve({ store, shutdownGraceMs: 200 });
  // The upstream never answers during the test: only the grace period can end the shutdown.
  const upstream = holdCreation('too-slow');
  try {
    const creation = fetch(`${served.url}/v1/onboardings`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify(createBody()),
    }).then(
      (r) => r.status,
      () => 'cut',
    );
    await upstream.arrived;
    await served.close();
    assert.deepEqual(store.journal, ['close']);
    assert.ok(logs.some((l) => l.includes(GRACE_LOG)));
    assert.equal(await creation, 'cut');
  } finally {
    up.override(CREATE, undefined);
  }
});

test('close(): an open event stream ends with a retry: hint around sse.retryMs, after its current status', async () => {
  const { served } = await serve({ sse: { retryMs: 2_000 } });
  const res = await fetch(`${served.url}/v1/onboardings`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(createBody()),
  });
  const o = (await res.json()) as { tokenOnboarding: string; accessKey: string };
  // The whole body, once the stream ends (a promise in an object: returned bare, it would be awaited at once).
  const { text } = await new Promise<{ text: Promise<string> }>((resolve, reject) => {
    const req = request(
      `${served.url}/v1/onboardings/${o.tokenOnboarding}/events`,
      { headers: { authorization: `Bearer ${o.accessKey}` } },
      (r) => {
        let body = '';
        r.setEncoding('utf8');
        r.on('data', (d: string) => (body += d));
        resolve({ text: new Promise((done) => r.on('close', () => done(body))) });
      },
    );
    req.on('error', reject);
    req.end();
  });
  // Its head has arrived, so the stream is open and registered.
  assert.equal(served.app.openStreams(), 1);
  await served.close();
  const body = await text;
  const hints = [...body.matchAll(/^retry: (\d+)$/gm)].map((m) => Number(m[1]));
  assert.equal(hints.length, 2, body);
  assert.equal(hints[0], 2_000, 'the hint sent when the stream opened');
  assert.ok(hints[1]! >= 1_000 && hints[1]! <= 3_000, `the closing hint ${hints[1]} spreads reconnections around 2 s`);
  assert.ok(body.indexOf('IN_PROCESS') < body.lastIndexOf('retry:'), 'the hint comes after the status');
});

test('closeOnSignals: the first signal shuts down and exits 0; a second one exits 1 at once; the timeout exits 1', async (t) => {
  const exits: number[] = [];
  let finish!: () => void;
  let closes = 0;
  const target = {
    close: () =>
      new Promise<void>((r) => {
        closes++;
        finish = r;
      }),
  };
  const remove = closeOnSignals(target, { signals: ['SIGUSR2'], exit: (c) => exits.push(c), timeoutMs: 60_000 });
  try {
    process.emit('SIGUSR2', 'SIGUSR2');
    assert.equal(closes, 1);
    assert.deepEqual(exits, [], 'no exit before the shutdown is done');
    finish();
    await new Promise((r) => setImmediate(r));
    assert.deepEqual(exits, [0]);
    process.emit('SIGUSR2', 'SIGUSR2');
    assert.deepEqual(exits, [0, 1], 'a second signal forces the exit');
    assert.equal(closes, 1);
  } finally {
    remove();
  }

  // The shutdown's timeout on a clock the test moves.
  t.mock.timers.enable({ apis: ['setTimeout'] });
  const forced: number[] = [];
  const stuck = closeOnSignals(
    { close: () => new Promise<void>(() => {}) },
    { signals: ['SIGUSR2'], exit: (c) => forced.push(c), timeoutMs: 50 },
  );
  try {
    process.emit('SIGUSR2', 'SIGUSR2');
    t.mock.timers.tick(49);
    assert.deepEqual(forced, [], 'no exit before the timeout');
    t.mock.timers.tick(1);
    assert.deepEqual(forced, [1]);
  } finally {
    stuck();
  }
});

test('health: 503 {ok:false, store:"unavailable"} while the store does not answer, back to 200 by itself; 503 while stopping', async () => {
  const store = new MemoryStore();
  const { app } = testCompanion(up, { store });
  assert.deepEqual(await (await app.request('/v1/health')).json(), { status: 'ok', ok: true });
  const ping = store.ping;
  store.ping = async () => {
    throw new StoreUnavailableError('down');
  };
  const down = await app.request('/v1/health');
  assert.equal(down.status, 503);
  assert.deepEqual(await down.json(), { status: 'unavailable', ok: false, store: 'unavailable' });
  store.ping = ping;
  assert.equal((await app.request('/v1/health')).status, 200);
  const o = await created(app, createBody());
  assert.ok(o.tokenOnboarding);
  const closing = app.close();
  const stopping = await app.request('/v1/health');
  assert.equal(stopping.status, 503);
  assert.deepEqual(await stopping.json(), { status: 'stopping', ok: false, stopping: true });
  await closing;
});
