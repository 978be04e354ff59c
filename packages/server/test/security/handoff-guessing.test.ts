/**
 * Guessing hand-off codes, as an attacker would (docs/page-api.md#guessing-a-code): real requests
 * from several loopback source addresses to a companion on a loopback socket. Many addresses
 * together stay under one global budget; behind a trusted proxy each client is counted by the
 * address the proxy wrote, and IPv6 clients by their /64; a code sent as a link token (or a token
 * as a code) is a miss that costs what any miss costs; a session cannot mint codes without end.
 * Every request stays on 127.0.0.0/8.
 */
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { request } from 'node:http';
import type { CreateSessionResponse, HandoffOffer } from '@onboarding-kit/contract';
import { serveCompanion, silentLogger, MemoryStore, type CompanionOptions, type ServedCompanion } from '../../src/index.js';
import { startFakeUpstream, FAKE_CLIENT, FAKE_SECRET, type FakeUpstream } from '../helpers/fake-upstream.js';
import { WEBHOOK_KEY } from '../helpers/companion.js';

const API_KEY = 'sk_test_guessing_0123456789abcdef0123456';

let upstream: FakeUpstream;
before(async () => {
  upstream = await startFakeUpstream();
});
after(async () => {
  await upstream.close();
});

async function serve(over: Partial<CompanionOptions> = {}): Promise<ServedCompanion> {
  return serveCompanion({
    baseUrl: upstream.url,
    client: FAKE_CLIENT,
    secret: FAKE_SECRET,
    webhookKey: WEBHOOK_KEY,
    apiKeys: [API_KEY],
    logger: silentLogger,
    port: 0,
    host: '127.0.0.1',
    ...over,
  });
}

interface Answer {
  status: number;
  retryAfter: string | undefined;
  body: { error?: { code: string } } & Record<string, unknown>;
}

/** A JSON POST over a real socket, from the loopback source address `from`. */
function post(
  url: string,
  path: string,
  body: unknown,
  options: { from?: string; headers?: Record<string, string> } = {},
): Promise<Answer> {
  const payload = JSON.stringify(body);
  return new Promise((resolve, reject) => {
    const req = request(
      `${url}${path}`,
      {
        method: 'POST',
        localAddress: options.from ?? '127.0.0.1',
        agent: false,
        headers: { 'content-type': 'application/json', 'content-length': Buffer.byteLength(payload), ...options.headers },
      },
      (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (c: Buffer) => chunks.push(c));
        res.on('end', () => {
          const text = Buffer.concat(chunks).toString('utf8');
          const retryAfter = res.headers['retry-after'];
          resolve({
            status: res.statusCode ?? 0,
            retryAfter: typeof retryAfter === 'string' ? retryAfter : undefined,
            body: text ? JSON.parse(text) : {},
          });
        });
      },
    );
    req.on('error', reject);
    req.end(payload);
  });
}

async function openSession(url: string): Promise<CreateSessionResponse> {
  const res = await post(
    url,
    '/v1/sessions',
    { reference: 'user-guessing', cpf: '529.982.247-25' },
    { headers: { authorization: `Bearer ${API_KEY}` } },
  );
  assert.equal(res.status, 201, JSON.stringify(res.body));
  return res.body as unknown as CreateSessionResponse;
}

async function offer(url: string, secret: string): Promise<HandoffOffer & { token: string }> {
  const res = await post(url, '/v1/session/handoff', {}, { headers: { authorization: `Bearer ${secret}` } });
  assert.equal(res.status, 201, JSON.stringify(res.body));
  const o = res.body as unknown as HandoffOffer;
  return { ...o, token: o.url.slice(o.url.lastIndexOf('/') + 1) };
}

/** A well-formed code that is not `code`. */
const wrongCode = (code: string, i: number): string => {
  const alphabet = 'ACDEFGHJKMNPQRTWXY34679';
  const guess = `${alphabet[i % alphabet.length]}${alphabet[Math.floor(i / alphabet.length) % alphabet.length]}ACDEFG`;
  return guess === code ? 'HJKMNPQR' : guess;
};

const claimCode = (url: string, code: string, options: { from?: string; headers?: Record<string, string> } = {}) =>
  post(url, '/v1/handoff/claim', { code }, options);

test('guessing from many socket addresses: all of them together get the global budget (50 a minute), then 429 with Retry-After, even a fresh address with the right code', async () => {
  const served = await serve();
  try {
    const s = await openSession(served.url);
    const o = await offer(served.url, s.clientSecret);
    const answers: Answer[] = [];
    // Six addresses of ten tries each: sixty guesses, each address within its own limit.
    for (let a = 0; a < 6; a++)
      for (let i = 0; i < 10; i++) answers.push(await claimCode(served.url, wrongCode(o.code, a * 10 + i), { from: `127.0.0.${a + 2}` }));
    const counts = answers.reduce<Record<number, number>>((m, r) => ({ ...m, [r.status]: (m[r.status] ?? 0) + 1 }), {});
    assert.deepEqual(counts, { 404: 50, 429: 10 }, 'fifty guesses reach the store, the rest are refused');
    for (const r of answers.filter((x) => x.status === 429)) {
      assert.equal(r.body.error?.code, 'rate_limited');
      const retryAfter = Number(r.retryAfter);
      assert.ok(retryAfter >= 1 && retryAfter <= 60, `Retry-After ${r.retryAfter}`);
    }
    const fresh = await claimCode(served.url, o.code, { from: '127.0.0.9' });
    assert.equal(fresh.status, 429, 'the budget is spent for everyone, right code or not');
    assert.ok(Number(fresh.retryAfter) >= 1, 'with Retry-After');
    // The link itself is no guess and still works.
    assert.equal((await post(served.url, '/v1/handoff/claim', { token: o.token })).status, 200);
  } finally {
    await served.close();
  }
});

test('behind one trusted proxy: each client is counted by the address the proxy appended, and what it forged on the left changes nothing', async () => {
  const served = await serve({ trustedProxies: 1 });
  try {
    const s = await openSession(served.url);
    const o = await offer(served.url, s.clientSecret);
    for (let i = 0; i < 10; i++) {
      // Each try forges a new leftmost address; the proxy's entry (rightmost) is the same client.
      const r = await claimCode(served.url, wrongCode(o.code, i), { headers: { 'x-forwarded-for': `6.6.6.${i}, 198.51.100.1` } });
      assert.equal(r.status, 404, `try ${i + 1}`);
    }
    const eleventh = await claimCode(served.url, o.code, { headers: { 'x-forwarded-for': '6.6.6.99, 198.51.100.1' } });
    assert.equal(eleventh.status, 429, 'the eleventh try of one client, forged prefix or not');
    // Another client behind the same proxy (same socket address) has a count of its own.
    const other = await claimCode(served.url, wrongCode(o.code, 50), { headers: { 'x-forwarded-for': '198.51.100.2' } });
    assert.equal(other.status, 404, 'another client behind the proxy is not refused for the first one');
    const rfc7239 = await claimCode(served.url, wrongCode(o.code, 51), { headers: { forwarded: 'for=198.51.100.3;proto=https' } });
    assert.equal(rfc7239.status, 404, 'Forwarded names a client too');
  } finally {
    await served.close();
  }
});

test('IPv6 clients are counted by their /64: ten addresses of one /64 spend its ten tries; the next /64 has its own', async () => {
  const served = await serve({ trustedProxies: 1 });
  try {
    const s = await openSession(served.url);
    const o = await offer(served.url, s.clientSecret);
    for (let i = 0; i < 10; i++) {
      const r = await claimCode(served.url, wrongCode(o.code, i), {
        headers: { 'x-forwarded-for': `2001:db8:1:2::${(i + 1).toString(16)}` },
      });
      assert.equal(r.status, 404, `try ${i + 1}`);
    }
    const sameBlock = await claimCode(served.url, wrongCode(o.code, 10), {
      headers: { 'x-forwarded-for': '2001:db8:1:2:ffff:ffff:ffff:ffff' },
    });
    assert.equal(sameBlock.status, 429, 'a new address of the same /64 shares its count');
    const nextBlock = await claimCode(served.url, wrongCode(o.code, 11), { headers: { 'x-forwarded-for': '[2001:db8:1:3::1]:4711' } });
    assert.equal(nextBlock.status, 404, 'the next /64 is another client');
  } finally {
    await served.close();
  }
});

/** The store reads a claim makes (what the time of a guess could tell), counted per request. */
function countingStore(): { store: MemoryStore; reads: () => number } {
  const store = new MemoryStore();
  let reads = 0;
  const counted = new Set(['getSession', 'findSessionBySecret', 'findHandoffSession']);
  const proxy = new Proxy(store, {
    get(target, prop, receiver) {
      const value: unknown = Reflect.get(target, prop, receiver);
      if (typeof value !== 'function') return value;
      return (...args: unknown[]) => {
        if (counted.has(String(prop))) reads++;
        return (value as (...a: unknown[]) => unknown).apply(target, args);
      };
    },
  });
  return { store: proxy, reads: () => reads };
}

test('a link token is refused as a code and a code as a link token, each with the store reads of a miss; a used code costs what an absent one costs', async () => {
  const { store, reads } = countingStore();
  const served = await serve({ store });
  try {
    const s = await openSession(served.url);
    const o = await offer(served.url, s.clientSecret);
    const readsOf = async (body: unknown): Promise<{ status: number; code: string | undefined; reads: number }> => {
      const before = reads();
      const r = await post(served.url, '/v1/handoff/claim', body);
      return { status: r.status, code: r.body.error?.code, reads: reads() - before };
    };

    const miss = await readsOf({ token: 'A'.repeat(32) });
    assert.deepEqual({ ...miss, reads: undefined }, { status: 404, code: 'handoff_invalid', reads: undefined });
    assert.deepEqual(await readsOf({ code: o.token }), { status: 404, code: 'handoff_invalid', reads: 0 }, 'a token is no code');
    assert.deepEqual(await readsOf({ token: o.code }), miss, 'a code sent as a token finds nothing, at the cost of a miss');

    // Claimed, the code's key still points at its session: a guess of it must cost what a miss costs.
    assert.equal((await post(served.url, '/v1/handoff/claim', { token: o.token })).status, 200);
    const absent = await readsOf({ code: wrongCode(o.code, 0) });
    const used = await readsOf({ code: o.code });
    assert.deepEqual([absent.status, used.status], [404, 410]);
    assert.equal(used.reads, absent.reads, 'the same store reads for a live key as for an absent one');
  } finally {
    await served.close();
  }
});

test("a session makes at most five offers within a link's life: the sixth is 429 with Retry-After, and mints no code", async () => {
  const served = await serve();
  try {
    const s = await openSession(served.url);
    let last: HandoffOffer | undefined;
    for (let i = 0; i < 5; i++) last = await offer(served.url, s.clientSecret);
    const sixth = await post(served.url, '/v1/session/handoff', {}, { headers: { authorization: `Bearer ${s.clientSecret}` } });
    assert.equal(sixth.status, 429);
    assert.equal(sixth.body.error?.code, 'rate_limited');
    const retryAfter = Number(sixth.retryAfter);
    assert.ok(retryAfter > 540 && retryAfter <= 600, `Retry-After ${sixth.retryAfter}: the rest of the link's 10 minutes`);
    // The last link offered still works; another session is not held back by this one.
    assert.equal((await claimCode(served.url, last!.code)).status, 200);
    const t = await openSession(served.url);
    await offer(served.url, t.clientSecret);
  } finally {
    await served.close();
  }
});
