/**
 * Turns for creations (`creations` option, transport/admission.ts), over real sockets: with one turn,
 * a second creation's body is not read while the first is at the upstream (a held fake upstream
 * shows where the first is; the second's request says whether anything read its body), a
 * creation past the waiting limit is refused at once with 503 `busy`, and a client that gives up
 * while waiting gives its place back.
 */
import { test, after, before } from 'node:test';
import assert from 'node:assert/strict';
import { request, type IncomingMessage } from 'node:http';
import { createJsonLogger, serveCompanion, CompanionConfigError, createCompanion, type ServedCompanion } from '@onboarding-kit/server';
import { WEBHOOK_KEY } from './helpers/companion.js';
import { FAKE_CLIENT, FAKE_SECRET, startFakeUpstream, type FakeUpstream } from './helpers/fake-upstream.js';
import { createBody, jpegOfSize } from './helpers/fixtures.js';
import { Hono } from 'hono';
import { Admission } from '../src/transport/admission.js';
import { clientGone, type ClientGone } from '../src/transport/client-gone.js';
import type { CompanionError } from '../src/http/companion-error.js';
import { CLIENT_CLOSED_REQUEST } from '../src/http/error-handler.js';
import { listen } from '../src/serve.js';

const CREATION = '/api/token-history-onboarding';

let up: FakeUpstream;
before(async () => {
  up = await startFakeUpstream();
});
after(() => up.close());

/** Creations held at the upstream until the test lets them go, in arrival order. */
function holdCreations(upstream: FakeUpstream) {
  const held: Array<() => void> = [];
  upstream.override(CREATION, () => new Promise<undefined>((resolve) => held.push(() => resolve(undefined))));
  return { held, stop: () => upstream.override(CREATION, undefined) };
}

async function until(what: string, condition: () => boolean): Promise<void> {
  // Waits for a state, never measures time: the test's own timeout is the limit.
  for (let i = 0; !condition(); i++) {
    if (i > 20_000) throw new Error(`never happened: ${what}`);
    await new Promise((r) => setTimeout(r, 5));
  }
}

interface Sent {
  answer: Promise<{
    status: number;
    headers: IncomingMessage['headers'];
    body: { error?: { code: string; message: string }; tokenOnboarding?: string };
  }>;
  /** Resolves once the whole body has been handed to the socket. */
  written: Promise<void>;
  destroy(): void;
}

function sendCreation(url: string, body: Buffer): Sent {
  const req = request(`${url}/v1/onboardings`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'content-length': String(body.length) },
  });
  const answer = new Promise<Awaited<Sent['answer']>>((resolve, reject) => {
    req.on('error', reject);
    req.on('response', (res) => {
      let text = '';
      res.setEncoding('utf8');
      res.on('data', (d: string) => (text += d));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body: JSON.parse(text) }));
    });
  });
  const written = new Promise<void>((resolve) => req.end(body, () => resolve()));
  return { answer, written, destroy: () => req.destroy() };
}

async function serve(creations: {
  concurrent?: number;
  waiting?: number;
}): Promise<{ served: ServedCompanion; incoming: IncomingMessage[] }> {
  const served = await serveCompanion({
    port: 0,
    baseUrl: up.url,
    client: FAKE_CLIENT,
    secret: FAKE_SECRET,
    webhookKey: WEBHOOK_KEY,
    rateLimit: 0,
    logger: createJsonLogger({ sink: () => {} }),
    creations,
  });
  // The requests as the companion's server got them, in order: whether anything read a body shows on its request.
  const incoming: IncomingMessage[] = [];
  served.server.on('request', (req: IncomingMessage) => incoming.push(req));
  return { served, incoming };
}

// Bodies of some size, so that reading one is real work and not one chunk.
const body = (n: number) =>
  Buffer.from(
    JSON.stringify(
      createBody({ name: `Maria ${'ABCDEFGHIJ'[n]}`, images: { documentFront: jpegOfSize(256 * 1024), selfie: jpegOfSize(128 * 1024) } }),
    ),
  );

test('with one turn, a second creation waits with its body unread until the first has its upstream answer; one past the waiting limit gets 503 busy', async () => {
  const { served, incoming } = await serve({ concurrent: 1, waiting: 1 });
  const hold = holdCreations(up);
  try {
    const before = up.count(CREATION);
    const first = sendCreation(served.url, body(0));
    await until('the first creation reaches the upstream', () => hold.held.length === 1);
    assert.deepEqual(served.app.creations(), { active: 1, waiting: 0 });

    const second = sendCreation(served.url, body(1));
    await second.written;
    await until('the second creation waits for a turn', () => served.app.creations().waiting === 1);
    assert.equal(incoming.length, 2);
    assert.equal(incoming[1]!.readableDidRead, false, "nothing read the waiting creation's body");
    assert.equal(up.count(CREATION), before + 1, 'only the first creation is at the upstream');

    // The waiting limit is 1: a third is refused at once, its body never read either.
    const third = await sendCreation(served.url, body(2)).answer;
    assert.equal(third.status, 503);
    assert.equal(third.body.error?.code, 'busy');
    assert.equal(typeof third.body.error?.message, 'string');
    assert.equal(third.headers['retry-after'], '2');
    assert.equal(third.headers['cache-control'], 'no-store');
    assert.equal(up.count(CREATION), before + 1);

    // The first's answer ends its turn: the second's body is read and goes upstream, whole.
    hold.held[0]!();
    assert.equal((await first.answer).status, 201);
    await until('the second creation reaches the upstream', () => hold.held.length === 2);
    assert.equal(incoming[1]!.readableDidRead, true);
    const arrived = up.calls.filter((c) => c.path === CREATION).at(-1)!.body as { name: string; documentFiles: unknown[] };
    assert.equal(arrived.name, 'Maria B');
    assert.equal(arrived.documentFiles.length, 2);
    hold.held[1]!();
    const secondAnswer = await second.answer;
    assert.equal(secondAnswer.status, 201);
    assert.ok(secondAnswer.body.tokenOnboarding);
    assert.deepEqual(served.app.creations(), { active: 0, waiting: 0 });
  } finally {
    hold.stop();
    await served.close();
  }
});

test('a creation whose client went away while it waited gives its turn up as soon as it gets it; a refused body ends its turn too', async () => {
  const { served } = await serve({ concurrent: 1, waiting: 2 });
  const hold = holdCreations(up);
  try {
    const before = up.count(CREATION);
    const first = sendCreation(served.url, body(0));
    await until('the first creation reaches the upstream', () => hold.held.length === 1);
    // Half a body, then the client is gone. Its socket is not read while it waits (that is the
    // point), so the companion may only find out when its turn comes and the read fails.
    const whole = body(1);
    const quitter = request(`${served.url}/v1/onboardings`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'content-length': String(whole.length) },
    });
    quitter.on('error', () => {});
    await new Promise<void>((resolve) => quitter.write(whole.subarray(0, whole.length >> 1), () => resolve()));
    await until('the half-sent creation waits', () => served.app.creations().waiting === 1);
    const next = sendCreation(served.url, Buffer.from('{"cpf":"not json'));
    await until('a bad creation waits behind it', () => served.app.creations().waiting === 2);
    quitter.destroy();

    hold.held[0]!();
    assert.equal((await first.answer).status, 201);
    // The gone client's turn ends with its failed read; the bad body's with its refusal.
    assert.equal((await next.answer).status, 400);
    assert.equal((await next.answer).body.error?.code, 'invalid_json');
    await until('no creation holds or waits for a turn', () => served.app.creations().active === 0 && served.app.creations().waiting === 0);
    assert.equal(up.count(CREATION), before + 1, 'neither the half body nor the bad one went upstream');

    const last = sendCreation(served.url, body(3));
    await until('the last creation reaches the upstream', () => hold.held.length === 2);
    hold.held[1]!();
    assert.equal((await last.answer).status, 201);
  } finally {
    hold.stop();
    await served.close();
  }
});

test('creations: bad limits are refused at start', () => {
  const base = { baseUrl: up.url, client: FAKE_CLIENT, secret: FAKE_SECRET, webhookKey: WEBHOOK_KEY };
  assert.throws(() => createCompanion({ ...base, creations: { concurrent: 0 } }), CompanionConfigError);
  assert.throws(() => createCompanion({ ...base, creations: { concurrent: 1.5 } }), CompanionConfigError);
  assert.throws(() => createCompanion({ ...base, creations: { waiting: -1 } }), CompanionConfigError);
  for (const name of ['bodyTimeoutMs', 'minBytesPerS', 'graceMs', 'perClient'] as const) {
    for (const bad of [name === 'perClient' ? -1 : 0, 1.5]) {
      assert.throws(() => createCompanion({ ...base, creations: { [name]: bad } }), CompanionConfigError, `${name} ${bad}`);
    }
  }
  const defaults = createCompanion({ ...base, logger: createJsonLogger({ sink: () => {} }) });
  assert.deepEqual(defaults.creations(), { active: 0, waiting: 0 });
  void defaults.close();
});

test('a waiting creation whose client goes away leaves the line at once (499), and the next in line gets the turn; an admitted one stops listening', async () => {
  const admission = new Admission({ concurrent: 1, waiting: 3 });
  const listeners = new Set<() => void>();
  /** A client that can be made to go away, counting who listens. */
  const client = () => {
    let gone: (() => void) | undefined;
    const subscribe: ClientGone = (g) => {
      gone = g;
      listeners.add(g);
      return () => listeners.delete(g);
    };
    return { subscribe, leave: () => gone?.() };
  };
  const release = await admission.enter(client().subscribe);
  assert.equal(listeners.size, 0, 'a creation admitted at once never listens');
  const quitter = client();
  const waiting = admission.enter(quitter.subscribe);
  const patient = client();
  const next = admission.enter(patient.subscribe);
  assert.deepEqual(admission.counts, { active: 1, waiting: 2 });
  assert.equal(listeners.size, 2);

  quitter.leave();
  await assert.rejects(waiting, (e: CompanionError) => e.status === CLIENT_CLOSED_REQUEST && e.code === 'client_closed_request');
  assert.deepEqual(admission.counts, { active: 1, waiting: 1 }, 'its place is given up before its turn comes');
  quitter.leave();

  release();
  const second = await next;
  assert.equal(listeners.size, 1, 'the admitted creation stopped listening');
  listeners.clear();
  // A client already gone when it joins the line never waits.
  const late = admission.enter((g) => (g(), () => {}));
  await assert.rejects(late, (e: CompanionError) => e.status === CLIENT_CLOSED_REQUEST);
  assert.deepEqual(admission.counts, { active: 1, waiting: 0 });
  second();
  assert.deepEqual(admission.counts, { active: 0, waiting: 0 });
});

test('clientGone over a real socket: a client that hangs up before its answer is heard; an answered one is not', async () => {
  const heard: string[] = [];
  const reached: Array<() => void> = [];
  const app = new Hono();
  app.get('/:name', async (c) => {
    const name = c.req.param('name');
    clientGone(c)(() => heard.push(name));
    if (name === 'hangs-up') {
      await new Promise<void>((resolve) => reached.push(resolve));
      return c.text('late');
    }
    return c.text('ok', 200, { connection: 'close' });
  });
  const server = await listen(app.fetch, { port: 0 });
  try {
    // Answered: its response's close comes after the answer was written out.
    const ok = await new Promise<string>((resolve, reject) => {
      request(`${server.url}/answered`, (res) => {
        let text = '';
        res.on('data', (d: Buffer) => (text += d));
        res.on('end', () => resolve(text));
      })
        .on('error', reject)
        .end();
    });
    assert.equal(ok, 'ok');
    const quitter = request(`${server.url}/hangs-up`);
    quitter.on('error', () => {});
    quitter.end();
    await until('the route holds the request', () => reached.length === 1);
    quitter.destroy();
    await until('the companion hears the client go', () => heard.includes('hangs-up'));
    reached[0]!();
    assert.deepEqual(heard, ['hangs-up'], 'the answered request was never taken for a client gone');
  } finally {
    await server.close({ graceMs: 0 });
  }
});
