/**
 * Support codes (docs/backend-api.md#support-codes), on a real companion listening on a loopback
 * socket with the sandbox as its upstream: every session view carries the code the element shows
 * the person, eight characters in two groups of four that read aloud without look-alikes, and
 * support finds the session by the code as the person read it out.
 */
import { test, after, before } from 'node:test';
import assert from 'node:assert/strict';
import { companionOn, startStack, type Stack } from '@onboarding-kit/testing/stack';
import type { CompanionApp } from '@onboarding-kit/server';
import {
  SUPPORT_CODE_ALPHABET,
  sessionIdPrefixOf,
  supportCodeOf,
  type CreateSessionResponse,
  type SessionList,
  type SessionView,
} from '@onboarding-kit/contract';
import { listen, type ListeningServer } from '../src/serve.js';

const API_KEY = 'sk_test_supportcode_0123456789abcdef0123';
const CODE = /^[0-9A-HJKMNP-TV-Z]{4}-[0-9A-HJKMNP-TV-Z]{4}$/;

let stack: Stack;
let app: CompanionApp;
let served: ListeningServer;
let base: string;

before(async () => {
  stack = await startStack();
  app = companionOn(stack, { apiKeys: [API_KEY] }).app;
  served = await listen((req, env) => app.fetch(req, env), { port: 0 });
  base = served.url;
});
after(async () => {
  await served.close({ graceMs: 100 });
  await app.close();
  await stack.close();
});

const get = (path: string) => fetch(`${base}${path}`, { headers: { authorization: `Bearer ${API_KEY}` } });

async function open(reference: string): Promise<CreateSessionResponse> {
  const res = await fetch(`${base}/v1/sessions`, {
    method: 'POST',
    headers: { authorization: `Bearer ${API_KEY}`, 'content-type': 'application/json' },
    body: JSON.stringify({ reference }),
  });
  assert.equal(res.status, 201, await res.clone().text());
  return (await res.json()) as CreateSessionResponse;
}

test('the alphabet: 32 characters, none of I, L, O, U', () => {
  assert.equal(new Set(SUPPORT_CODE_ALPHABET).size, 32);
  for (const c of 'ILOU') assert.ok(!SUPPORT_CODE_ALPHABET.includes(c));
});

test('a code is 8 characters in two groups of four; it reads back into the start of the session id', () => {
  for (let i = 0; i < 200; i++) {
    const hex = [...crypto.getRandomValues(new Uint8Array(16))].map((b) => b.toString(16).padStart(2, '0')).join('');
    const id = `ses_${hex}`;
    const code = supportCodeOf(id);
    assert.match(code, CODE);
    assert.equal(sessionIdPrefixOf(code), id.slice(0, 14));
  }
  assert.equal(supportCodeOf(`ses_${'0'.repeat(32)}`), '0000-0000');
  assert.equal(supportCodeOf(`ses_${'f'.repeat(32)}`), 'ZZZZ-ZZZZ');
  // An upstream's token: a UUID's first ten hex digits, or a hash of any other shape, in the same form.
  assert.equal(supportCodeOf('0123456789-abcdef'), supportCodeOf('ses_0123456789abcdef'));
  assert.match(supportCodeOf('b2c3d4e5-f6a7-4b8c-9d0e-123456789abc'), CODE);
  assert.match(supportCodeOf('tok_Zq-not-hex'), CODE);
  assert.equal(supportCodeOf('tok_Zq-not-hex'), supportCodeOf('tok_Zq-not-hex'));
  assert.notEqual(supportCodeOf('tok_Zq-not-hex'), supportCodeOf('tok_Zq-not-hey'));
  // Read as heard: any case, spaces and hyphens anywhere, O for 0, I and L for 1.
  assert.equal(sessionIdPrefixOf('k7qm 4xpd'), sessionIdPrefixOf('K7QM-4XPD'));
  assert.equal(sessionIdPrefixOf('O1IL-0000'), sessionIdPrefixOf('0111-0000'));
  for (const bad of ['K7QM-4XP', 'K7QM-4XPDD', 'K7QM-4XPU', '', '--------']) assert.equal(sessionIdPrefixOf(bad), null, bad);
});

test('GET /v1/sessions/{id} carries the code; GET /v1/sessions?supportCode= finds the session by it, however it was read out', async () => {
  const reference = `user-support-${Date.now()}`;
  const s = await open(reference);
  await open(reference);
  const view = (await (await get(`/v1/sessions/${s.id}`)).json()) as SessionView;
  assert.match(view.supportCode, CODE);
  assert.equal(view.supportCode, supportCodeOf(s.id));

  const spoken = view.supportCode.toLowerCase().replace('-', ' ').replace(/0/g, 'o').replace(/1/g, 'l');
  for (const asRead of [view.supportCode, spoken, view.supportCode.replace('-', '')]) {
    const res = await get(`/v1/sessions?supportCode=${encodeURIComponent(asRead)}`);
    assert.equal(res.status, 200, asRead);
    const list = (await res.json()) as SessionList;
    assert.deepEqual(
      list.data.map((v) => v.id),
      [s.id],
      asRead,
    );
    assert.equal(list.data[0]!.supportCode, view.supportCode);
  }

  // Another code of the same length finds nothing here (the one in a trillion aside).
  const other = view.supportCode.startsWith('Z') ? `Y${view.supportCode.slice(1)}` : `Z${view.supportCode.slice(1)}`;
  assert.deepEqual(((await (await get(`/v1/sessions?supportCode=${other}`)).json()) as SessionList).data, []);
});

test('a value that is no code is 400 invalid_field naming supportCode', async () => {
  for (const bad of ['K7QM-4XP', 'K7QM-4XPU', 'x'.repeat(40)]) {
    const res = await get(`/v1/sessions?supportCode=${encodeURIComponent(bad)}`);
    assert.equal(res.status, 400, bad);
    const body = (await res.json()) as { error: { code: string; field: string } };
    assert.equal(body.error.code, 'invalid_field');
    assert.equal(body.error.field, 'supportCode');
  }
});
