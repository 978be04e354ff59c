/**
 * The answers a computer carries to the phone with a hand-off (docs/page-api.md#hand-off), through
 * real HTTP on a loopback socket, on each store (memory, SQLite, Redis, each with a data key):
 * sent in the offer's body, shown to the phone holding the session (its CPF masked) and to no
 * other page, filled by the companion into the phone's creation, erased on a take-back, by an
 * offer without them and by a redaction; the CPF never in a link, an answer other than masked, or a log line.
 */
import { test, after, before } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { randomUUID } from 'node:crypto';
import { IT_API_KEY, IMAGE, companionOn, startStack, type Stack } from '@onboarding-kit/testing/stack';
import type { CreateSessionResponse, HandoffClaim, HandoffOffer, PageSession } from '@onboarding-kit/contract';
import { listen, type ListeningServer } from '../src/serve.js';
import { MemoryStore, RedisStore, SqliteStore, type Store } from '../src/store/index.js';
import type { BackendState } from '../src/store/backend-state.js';
import { startRedisServer, type RedisServer } from './helpers/redis-server.js';

const DATA_KEY = `k1:${Buffer.alloc(32, 7).toString('base64')}`;
const CPF = '529.982.247-25';
const CPF_DIGITS = '52998224725';
const NAME = 'Maria Aparecida Quaresma';

let stack: Stack;
let redis: RedisServer;
const dir = mkdtempSync(join(tmpdir(), 'okit-handoff-answers-'));
before(async () => {
  stack = await startStack();
  redis = await startRedisServer();
});
after(async () => {
  await stack.close();
  await redis.stop();
  rmSync(dir, { recursive: true, force: true });
});

type Backend = Store & BackendState;
const STORES: Array<[string, () => Promise<Backend>]> = [
  ['memory', async () => new MemoryStore({ dataKey: DATA_KEY }) as Backend],
  ['SQLite', async () => new SqliteStore(join(dir, `${randomUUID()}.db`), { dataKey: DATA_KEY }) as Backend],
  [
    'Redis',
    async () =>
      (await RedisStore.connect(redis.url, { prefix: `okit-answers-${randomUUID().slice(0, 8)}:`, dataKey: DATA_KEY })) as Backend,
  ],
];

interface Running {
  url: string;
  logs: string[];
  store: Backend;
  close(): Promise<void>;
}

async function companion(makeStore: () => Promise<Backend>): Promise<Running> {
  const store = await makeStore();
  const { app, logs } = companionOn(stack, { apiKeys: [IT_API_KEY], store });
  const served: ListeningServer = await listen((req, env) => app.fetch(req, env), { port: 0, host: '127.0.0.1' });
  return {
    url: served.url,
    logs,
    store,
    async close() {
      await served.close();
      // The companion closes its store.
      await app.close();
    },
  };
}

async function call(url: string, method: string, path: string, key?: string, payload?: unknown): Promise<Response> {
  return fetch(`${url}${path}`, {
    method,
    headers: {
      ...(key && { authorization: `Bearer ${key}` }),
      ...(payload !== undefined && { 'content-type': 'application/json' }),
    },
    ...(payload !== undefined && { body: JSON.stringify(payload) }),
  });
}

async function openSession(url: string, payload: Record<string, unknown> = {}): Promise<CreateSessionResponse> {
  const res = await call(url, 'POST', '/v1/sessions', IT_API_KEY, {
    reference: `answers-${randomUUID()}`,
    documentTypes: ['CNH', 'RG'],
    ...payload,
  });
  assert.equal(res.status, 201, await res.clone().text());
  return (await res.json()) as CreateSessionResponse;
}

async function offer(url: string, secret: string, payload?: unknown): Promise<HandoffOffer & { token: string; text: string }> {
  const res = await call(url, 'POST', '/v1/session/handoff', secret, payload);
  const text = await res.text();
  assert.equal(res.status, 201, text);
  const o = JSON.parse(text) as HandoffOffer;
  return { ...o, token: o.url.slice(o.url.lastIndexOf('/') + 1), text };
}

async function claim(url: string, token: string): Promise<HandoffClaim> {
  const res = await call(url, 'POST', '/v1/handoff/claim', undefined, { token });
  assert.equal(res.status, 200, await res.clone().text());
  return (await res.json()) as HandoffClaim;
}

async function pageSession(url: string, secret: string): Promise<{ session: PageSession; text: string }> {
  const res = await call(url, 'GET', '/v1/session', secret);
  const text = await res.text();
  assert.equal(res.status, 200, text);
  return { session: JSON.parse(text) as PageSession, text };
}

const noCpf = (text: string, where: string) => {
  assert.equal(text.includes(CPF_DIGITS), false, `${where}: no CPF`);
  assert.equal(text.includes(CPF), false, `${where}: no formatted CPF`);
};

for (const [kind, makeStore] of STORES) {
  test(`${kind}: the computer's answers go with the offer, the phone is given them (CPF masked) and its creation gets the whole CPF and name`, async () => {
    const c = await companion(makeStore);
    try {
      const s = await openSession(c.url);
      const consentAt = new Date(Date.now() - 60_000).toISOString();
      const o = await offer(c.url, s.clientSecret, { answers: { consentAt, cpf: CPF, name: ` ${NAME} `, documentType: 'cnh' } });
      noCpf(o.text, 'the offer (its link and code)');

      // The origin is told no answers: it has its own.
      const origin = await pageSession(c.url, s.clientSecret);
      assert.equal(origin.session.handoff?.answers, undefined);

      const phone = await claim(c.url, o.token);
      const held = await pageSession(c.url, phone.clientSecret);
      assert.deepEqual(held.session.handoff, {
        state: 'claimed',
        holder: true,
        origin: false,
        answers: { consentAt, cpf: '***.982.247-**', documentType: 'CNH' },
      });
      noCpf(held.text, "the phone's session");
      assert.equal(held.text.includes(NAME), false, "the phone's session does not repeat the name");
      assert.equal((await pageSession(c.url, s.clientSecret)).session.handoff?.answers, undefined, 'nor the origin once claimed');

      // The phone sends neither CPF nor name (it holds the CPF masked); the companion fills them in.
      const before = stack.upstreamCalls.length;
      const created = await call(c.url, 'POST', '/v1/onboardings', phone.clientSecret, {
        documentType: 'CNH',
        images: { documentFront: IMAGE, documentBack: IMAGE, selfie: IMAGE },
      });
      assert.equal(created.status, 201, await created.clone().text());
      const upstream = stack.upstreamCalls
        .slice(before)
        .map((u) => JSON.stringify(u.body ?? ''))
        .join('\n');
      assert.ok(upstream.includes(CPF_DIGITS), 'the creation went upstream with the CPF typed on the computer');
      assert.ok(upstream.includes(NAME), 'and the name');

      // Stored sealed, kept until the session's personal data goes.
      assert.deepEqual((await c.store.getSession(s.id))?.handoffAnswers, { consentAt, cpf: CPF_DIGITS, name: NAME, documentType: 'CNH' });
      const redacted = await call(c.url, 'POST', `/v1/sessions/${s.id}/redact`, IT_API_KEY);
      assert.equal(redacted.status, 200, await redacted.clone().text());
      assert.equal((await c.store.getSession(s.id))?.handoffAnswers, undefined, 'a redaction erases them');

      for (const line of c.logs) noCpf(line, 'a log line');
    } finally {
      await c.close();
    }
  });

  test(`${kind}: a take-back or an offer without answers erases them; what an offer may carry is checked, the CPF never echoed`, async () => {
    const c = await companion(makeStore);
    try {
      const s = await openSession(c.url);
      const consentAt = new Date().toISOString();
      await offer(c.url, s.clientSecret, { answers: { consentAt, cpf: CPF, documentType: 'RG' } });
      assert.equal((await c.store.getSession(s.id))?.handoffAnswers?.cpf, CPF_DIGITS);
      const back = await call(c.url, 'POST', '/v1/session/handoff/reclaim', s.clientSecret);
      assert.equal(back.status, 200, await back.clone().text());
      assert.equal((await c.store.getSession(s.id))?.handoffAnswers, undefined, 'taken back: gone');

      await offer(c.url, s.clientSecret, { answers: { consentAt, cpf: CPF } });
      const bare = await offer(c.url, s.clientSecret);
      assert.equal((await c.store.getSession(s.id))?.handoffAnswers, undefined, 'a new offer without answers: gone');
      const phone = await claim(c.url, bare.token);
      assert.equal((await pageSession(c.url, phone.clientSecret)).session.handoff?.answers, undefined, 'the phone starts at the intro');

      const other = await openSession(c.url);
      const refusals: Array<[unknown, string]> = [
        [{ answers: { consentAt, cpf: '529.982.247-26' } }, 'answers.cpf'],
        [{ answers: { cpf: CPF } }, 'answers.consentAt'],
        [{ answers: { consentAt: new Date(Date.now() + 3_600_000).toISOString() } }, 'answers.consentAt'],
        [{ answers: { consentAt, documentType: 'PASSPORT' } }, 'answers.documentType'],
        [{ answers: { consentAt, name: 'Maria <b>' } }, 'answers.name'],
        [{ answers: { consentAt, email: 'x@example.com' } }, 'answers.email'],
        [{ cpf: CPF }, 'cpf'],
      ];
      for (const [payload, field] of refusals) {
        const res = await call(c.url, 'POST', '/v1/session/handoff', other.clientSecret, payload);
        const text = await res.text();
        assert.equal(res.status, 400, `${JSON.stringify(payload)}: ${text}`);
        assert.equal((JSON.parse(text) as { error: { field?: string } }).error.field, field);
        assert.equal(text.includes('982.247'), false, 'the refusal never repeats the CPF');
      }
      // A session that fixes its own tax id takes no CPF from the page.
      const fixed = await openSession(c.url, { cpf: CPF });
      const res = await call(c.url, 'POST', '/v1/session/handoff', fixed.clientSecret, { answers: { consentAt, cpf: '111.444.777-35' } });
      assert.equal(res.status, 400);
      for (const line of c.logs) noCpf(line, 'a log line');
    } finally {
      await c.close();
    }
  });
}
