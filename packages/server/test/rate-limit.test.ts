/**
 * The creation rate limit (middleware/rate-limit.ts) on its own: the refusal it renders, the log
 * line it leaves, that it works under a host without the companion's request logger, and whose
 * address it counts (the socket's, never a header a client can set).
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { Hono, type Context } from 'hono';
import { rateLimit } from '../src/middleware/rate-limit.js';
import { socketAddress } from '../src/transport/index.js';
import { CompanionError } from '../src/http/companion-error.js';
import { MemoryStore } from '../src/store/memory-store.js';
import type { CompanionEnv } from '../src/http/env.js';
import type { Logger } from '../src/logger.js';

function limited(limit: number, logged?: { level: string; msg: string; fields?: unknown }[]) {
  let now = Date.parse('2030-01-01T00:00:00.000Z');
  const counters = new MemoryStore({ now: () => now });
  const app = new Hono<CompanionEnv>();
  if (logged) {
    const line = (level: string) => (msg: string, fields?: unknown) => void logged.push({ level, msg, fields });
    const log: Logger = { debug: line('debug'), info: line('info'), warn: line('warn'), error: line('error'), child: () => log };
    app.use(async (c, next) => {
      c.set('log', log);
      await next();
    });
  }
  app.use(rateLimit({ limit, windowMs: 10_000, clientAddress: (c) => c.req.header('x-test-client') ?? 'one', counters }));
  app.post('/', (c) => c.text('created', 201));
  app.onError((e, c) => (e instanceof CompanionError ? e.getResponse() : c.text(String(e), 500)));
  return { app, advance: (ms: number) => void (now += ms) };
}

const post = (app: Hono<CompanionEnv>, client = 'one') => app.request('/', { method: 'POST', headers: { 'x-test-client': client } });

test('over the limit: 429 rate_limited with Retry-After in whole seconds, said in words, and one warn line', async () => {
  const logged: { level: string; msg: string; fields?: unknown }[] = [];
  const { app, advance } = limited(2, logged);
  assert.equal((await post(app)).status, 201);
  assert.equal((await post(app)).status, 201);
  advance(2_500);
  const refused = await post(app);
  assert.equal(refused.status, 429);
  assert.equal(refused.headers.get('retry-after'), '8');
  assert.deepEqual(await refused.json(), {
    error: { code: 'rate_limited', message: 'Too many onboardings from this address; try again in 8 s.' },
  });
  assert.deepEqual(logged, [{ level: 'warn', msg: 'rate limited', fields: { limit: 2 } }]);
  assert.equal((await post(app, 'two')).status, 201, 'another address has its own window');
});

test("Retry-After is at least 1 s, even in the window's last milliseconds", async () => {
  const { app, advance } = limited(1);
  await post(app);
  advance(9_999);
  const refused = await post(app);
  assert.equal(refused.headers.get('retry-after'), '1');
  advance(1);
  assert.equal((await post(app)).status, 201);
});

test("a host without the companion's request logger still gets the 429", async () => {
  const { app } = limited(1);
  await post(app);
  assert.equal((await post(app)).status, 429);
});

test('a limit of 0 turns the limit off', async () => {
  const { app } = limited(0);
  for (let i = 0; i < 5; i++) assert.equal((await post(app)).status, 201);
});

test("the address counted is the socket's; without a socket it is `unknown`", () => {
  const ctx = (env: unknown) => ({ env, req: { header: () => '198.51.100.7' } }) as unknown as Context;
  assert.equal(socketAddress(ctx({ incoming: { socket: { remoteAddress: '203.0.113.5' } } })), '203.0.113.5');
  for (const env of [undefined, {}, { incoming: {} }, { incoming: { socket: {} } }]) {
    assert.equal(socketAddress(ctx(env)), 'unknown', JSON.stringify(env));
  }
});
