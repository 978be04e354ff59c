/**
 * Nobody can starve creations (issue 29, point 2), tried as an attacker would: raw sockets from
 * loopback addresses of their own (127.0.0.0/8 is all this machine) against a real companion with
 * eight turns, each attack proving one defence:
 * - uploads that stall after their headers or trickle a byte a second never join the line for a
 *   turn and are refused after one pace window (408 `upload_too_slow`), so genuine creations
 *   beside them are answered 201;
 * - from one address, at most `perClient` creations run at once, so a single attacker cannot
 *   take every turn even with a pace slow enough to keep them;
 * - an upload that starts at a good pace and then trickles keeps its turn for one window only;
 * - a creation on a session whose claim is taken is refused before its body is read, and an
 *   upload given up for its pace gives its session back, so the person loses nothing.
 * Short pace windows keep the whole suite within seconds.
 */
import { test, after, before } from 'node:test';
import assert from 'node:assert/strict';
import { connect, type Socket } from 'node:net';
import { createJsonLogger, serveCompanion, type CompanionOptions, type ServedCompanion } from '@onboarding-kit/server';
import type { CreateSessionResponse } from '@onboarding-kit/contract';
import { WEBHOOK_KEY } from '../helpers/companion.js';
import { FAKE_CLIENT, FAKE_SECRET, startFakeUpstream, type FakeUpstream } from '../helpers/fake-upstream.js';
import { createBody } from '../helpers/fixtures.js';

const API_KEY = 'sk_test_0123456789abcdef0123456789abcdef';
const CREATION = '/api/token-history-onboarding';
/** What the stalled and trickling uploads declare and never send. */
const DECLARED = 100_000;

let up: FakeUpstream;
before(async () => {
  up = await startFakeUpstream();
});
after(() => up.close());

async function serve(
  creations: NonNullable<CompanionOptions['creations']>,
  over: Partial<CompanionOptions> = {},
): Promise<ServedCompanion> {
  return serveCompanion({
    port: 0,
    baseUrl: up.url,
    client: FAKE_CLIENT,
    secret: FAKE_SECRET,
    webhookKey: WEBHOOK_KEY,
    apiKeys: [API_KEY],
    rateLimit: 0,
    logger: createJsonLogger({ sink: () => {} }),
    creations: { concurrent: 8, ...creations },
    ...over,
  });
}

interface Answer {
  status: number;
  headers: Record<string, string>;
  body: { error?: { code: string; message: string }; tokenOnboarding?: string };
}

/** One HTTP/1.1 exchange on a socket of its own from `from`, its answer read to the connection's end. */
class RawRequest {
  readonly socket: Socket;
  readonly answer: Promise<Answer>;
  private trickle: NodeJS.Timeout | undefined;

  constructor(url: string, from: string, head: string, body?: string | Buffer) {
    const { hostname, port } = new URL(url);
    this.socket = connect({ host: hostname, port: Number(port), localAddress: from });
    this.socket.on('error', () => {});
    this.answer = new Promise((resolve, reject) => {
      const chunks: Buffer[] = [];
      const parse = () => {
        const text = Buffer.concat(chunks).toString('latin1');
        const end = text.indexOf('\r\n\r\n');
        if (end < 0) return null;
        const [statusLine, ...lines] = text.slice(0, end).split('\r\n');
        const headers = Object.fromEntries(
          lines.map((l) => [l.slice(0, l.indexOf(':')).toLowerCase(), l.slice(l.indexOf(':') + 1).trim()]),
        );
        const length = Number(headers['content-length'] ?? NaN);
        const rest = Buffer.concat(chunks).subarray(Buffer.byteLength(text.slice(0, end + 4), 'latin1'));
        if (!Number.isFinite(length) || rest.length < length) return null;
        return { status: Number(statusLine!.split(' ')[1]), headers, body: JSON.parse(rest.subarray(0, length).toString('utf8')) };
      };
      this.socket.on('data', (d: Buffer) => {
        chunks.push(d);
        const parsed = parse();
        if (parsed) {
          this.stop();
          resolve(parsed);
        }
      });
      this.socket.on('close', () => {
        this.stop();
        reject(new Error(`closed without a whole answer: ${Buffer.concat(chunks).toString('latin1').slice(0, 200)}`));
      });
    });
    this.answer.catch(() => {});
    this.socket.write(head);
    if (body !== undefined) this.socket.write(body);
  }

  /** Sends one byte a second, forever (JSON whitespace: never a complete body). */
  trickleBytes(): this {
    this.trickle = setInterval(() => this.socket.write(' '), 1_000);
    return this;
  }

  stop(): void {
    clearInterval(this.trickle);
  }

  close(): void {
    this.stop();
    this.socket.destroy();
  }
}

function head(url: string, length: number, headers: Record<string, string> = {}): string {
  const lines = [
    'POST /v1/onboardings HTTP/1.1',
    `Host: ${new URL(url).host}`,
    'Content-Type: application/json',
    `Content-Length: ${length}`,
    ...Object.entries(headers).map(([k, v]) => `${k}: ${v}`),
  ];
  return `${lines.join('\r\n')}\r\n\r\n`;
}

/** An upload that declares 100000 bytes and sends `{` and nothing more (a trickle adds a byte a second). */
function slowUpload(url: string, from: string, secret?: string): RawRequest {
  return new RawRequest(url, from, head(url, DECLARED, secret ? { Authorization: `Bearer ${secret}` } : {}));
}

function genuineCreation(url: string, from: string, secret?: string, body: unknown = createBody()): RawRequest {
  const bytes = Buffer.from(JSON.stringify(body));
  return new RawRequest(
    url,
    from,
    head(url, bytes.length, { Connection: 'close', ...(secret && { Authorization: `Bearer ${secret}` }) }),
    bytes,
  );
}

async function openSessions(url: string, n: number): Promise<CreateSessionResponse[]> {
  return Promise.all(
    Array.from({ length: n }, async (_, i) => {
      const res = await fetch(`${url}/v1/sessions`, {
        method: 'POST',
        headers: { authorization: `Bearer ${API_KEY}`, 'content-type': 'application/json' },
        body: JSON.stringify({ reference: `person-${i}` }),
      });
      assert.equal(res.status, 201);
      return (await res.json()) as CreateSessionResponse;
    }),
  );
}

async function until(what: string, condition: () => boolean, withinMs = 10_000): Promise<void> {
  const end = Date.now() + withinMs;
  while (!condition()) {
    if (Date.now() > end) throw new Error(`never happened: ${what}`);
    await new Promise((r) => setTimeout(r, 10));
  }
}

/** The answer, or a failure naming what never came within `ms`. */
function within<T>(what: string, ms: number, answer: Promise<T>): Promise<T> {
  let timer: NodeJS.Timeout;
  const late = new Promise<never>((_, reject) => (timer = setTimeout(() => reject(new Error(`no answer within ${ms} ms: ${what}`)), ms)));
  return Promise.race([answer, late]).finally(() => clearTimeout(timer));
}

test('40 uploads trickling a byte a second and 8 stalled after their headers, from 48 addresses with a session each: five genuine creations all answer 201', async () => {
  const served = await serve({ graceMs: 500, minBytesPerS: 1024, bodyTimeoutMs: 5_000 }, { sessions: 'required' });
  const attackers: RawRequest[] = [];
  let arrived = 0;
  served.server.on('request', () => arrived++);
  try {
    const sessions = await openSessions(served.url, 48 + 5);
    const before = up.count(CREATION);
    for (let i = 0; i < 48; i++) {
      const upload = slowUpload(served.url, `127.0.0.${10 + i}`, sessions[i]!.clientSecret);
      attackers.push(i < 8 ? upload : upload.trickleBytes());
    }
    // Every attacker's request is in before the genuine ones.
    await until("every attacker's request is in", () => arrived === 48 + 53);
    // None of them holds a turn or a place in the line: their bodies never started arriving.
    assert.deepEqual(served.app.creations(), { active: 0, waiting: 0 });

    const genuine = sessions.slice(48).map((s, i) => genuineCreation(served.url, `127.0.1.${i + 1}`, s.clientSecret));
    const answers = await within('five genuine creations under attack', 8_000, Promise.all(genuine.map((g) => g.answer)));
    assert.deepEqual(
      answers.map((a) => a.status),
      [201, 201, 201, 201, 201],
    );
    assert.equal(up.count(CREATION), before + 5, 'only the genuine creations went upstream');

    // Each attacker lost its turn for its pace and was told why, on a connection the companion closed.
    const refused = await within('the attackers refused', 8_000, Promise.all(attackers.map((a) => a.answer)));
    for (const r of refused) {
      assert.equal(r.status, 408);
      assert.equal(r.body.error?.code, 'upload_too_slow');
      assert.equal(r.headers.connection, 'close');
    }
    assert.deepEqual(served.app.creations(), { active: 0, waiting: 0 });

    // A stalled upload gave its session back: the person sends again and loses nothing.
    const again = await within(
      'a creation on a stalled upload’s session',
      5_000,
      genuineCreation(served.url, '127.0.0.10', sessions[0]!.clientSecret).answer,
    );
    assert.equal(again.status, 201);
  } finally {
    for (const a of attackers) a.close();
    await served.close();
  }
});

test('from one address, at most perClient creations at once: the others are refused 429 before their body is read, and genuine creations from elsewhere are answered while the attacker keeps its turns', async () => {
  // A pace no attacker breaks within the test (each starts its body with a first window's worth):
  // only the per-address limit stands between them and the turns.
  const served = await serve({ graceMs: 60_000, minBytesPerS: 1, bodyTimeoutMs: 60_000, perClient: 4 });
  const attackers: RawRequest[] = [];
  try {
    const before = up.count(CREATION);
    for (let i = 0; i < 48; i++) {
      const upload = slowUpload(served.url, '127.0.0.2');
      upload.socket.write(' '.repeat(100));
      attackers.push(i < 8 ? upload : upload.trickleBytes());
    }
    const settled = await within(
      'the refusals past the per-address limit',
      8_000,
      Promise.all(attackers.map((a) => Promise.race([a.answer, new Promise<null>((r) => setTimeout(() => r(null), 1_500))]))),
    );
    const refused = settled.filter((a) => a !== null);
    assert.equal(refused.length, 44, 'all but four are refused at once');
    for (const r of refused) {
      assert.equal(r!.status, 429);
      assert.equal(r!.body.error?.code, 'rate_limited');
      assert.equal(r!.headers['retry-after'], '1');
    }
    assert.deepEqual(served.app.creations(), { active: 4, waiting: 0 }, 'the attacker holds four turns, no more');

    const genuine = [1, 2, 3, 4, 5].map((i) => genuineCreation(served.url, `127.0.1.${i}`));
    const answers = await within('five genuine creations beside the attacker', 5_000, Promise.all(genuine.map((g) => g.answer)));
    assert.deepEqual(
      answers.map((a) => a.status),
      [201, 201, 201, 201, 201],
    );
    assert.equal(up.count(CREATION), before + 5);
  } finally {
    for (const a of attackers) a.close();
    await served.close();
  }
});

test('a second creation on a session whose claim is taken is refused before its body is read; a body that misses its deadline is 408 and gives the session back', async () => {
  // A window longer than the deadline: the deadline alone ends the first upload.
  const served = await serve({ graceMs: 10_000, minBytesPerS: 1, bodyTimeoutMs: 600 }, { sessions: 'required' });
  const open: RawRequest[] = [];
  try {
    const [session] = await openSessions(served.url, 1);
    const before = up.count(CREATION);
    // The first holds the claim, and a turn, with a body that starts and then stops.
    const first = slowUpload(served.url, '127.0.0.20', session!.clientSecret);
    first.socket.write('{"cpf":"529.982.247-25"');
    open.push(first);
    await until('the first creation holds its turn', () => served.app.creations().active === 1);
    // Headers only: an answer proves nothing waited for this body.
    const second = slowUpload(served.url, '127.0.0.21', session!.clientSecret);
    open.push(second);
    const refused = await within('the second creation on a claimed session', 400, second.answer);
    assert.equal(refused.status, 409);
    assert.equal(refused.body.error?.code, 'session_used');

    const late = await within('the first creation past its deadline', 3_000, first.answer);
    assert.equal(late.status, 408);
    assert.equal(late.body.error?.code, 'upload_too_slow');
    assert.match(late.body.error!.message, /within 600 ms/);
    assert.equal(up.count(CREATION), before, 'nothing went upstream');

    const retried = await within('the retry', 3_000, genuineCreation(served.url, '127.0.0.20', session!.clientSecret).answer);
    assert.equal(retried.status, 201);
    assert.equal(up.count(CREATION), before + 1);
  } finally {
    for (const o of open) o.close();
    await served.close();
  }
});

test('an upload that starts at a good pace and then trickles keeps its turn for one window only: 408, and the turn goes on', async () => {
  const served = await serve({ concurrent: 1, graceMs: 300, minBytesPerS: 1_000, bodyTimeoutMs: 10_000 });
  const open: RawRequest[] = [];
  try {
    // A first window's worth (300 bytes) at once: it joins the line and takes the one turn.
    const slow = slowUpload(served.url, '127.0.0.30');
    slow.socket.write(' '.repeat(400));
    open.push(slow.trickleBytes());
    await until('the slow upload holds the turn', () => served.app.creations().active === 1);
    const genuine = genuineCreation(served.url, '127.0.0.31');
    open.push(genuine);
    const refused = await within('the slow upload given up', 3_000, slow.answer);
    assert.equal(refused.status, 408);
    assert.equal(refused.body.error?.code, 'upload_too_slow');
    assert.match(refused.body.error!.message, /slower than 1000 bytes per second/);
    assert.equal((await within('the genuine creation after it', 3_000, genuine.answer)).status, 201);
    assert.deepEqual(served.app.creations(), { active: 0, waiting: 0 });
  } finally {
    for (const o of open) o.close();
    await served.close();
  }
});
