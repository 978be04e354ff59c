/**
 * A creation's capture integrity through the companion (docs/backend-api.md#capture-integrity),
 * against the sandbox over HTTP: the companion hashes what it received, checks the page's chain
 * against the nonces it issued, records the verdict on the session and consumes the nonces; the
 * same picture under a new nonce is `replayed`; nothing about integrity refuses a creation.
 */
import { test, after, before } from 'node:test';
import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { chainHead, type AttestationLink, type CaptureNonce, type CreateSessionResponse, type SessionView } from '@onboarding-kit/contract';
import type { CompanionApp } from '@onboarding-kit/server';
import { companionOn, IMAGE, NO_FACE_PNG_BASE64, startStack, type Stack } from '@onboarding-kit/testing/stack';
import { CHECKS_API_KEY, openSession } from './helpers/check-sessions.js';
import { readWithZipJs } from './admin-archive-tools.js';

let stack: Stack;
let app: CompanionApp;
before(async () => {
  stack = await startStack();
  app = companionOn(stack, { apiKeys: [CHECKS_API_KEY] }).app;
});
after(async () => {
  await app.close();
  await stack.close();
});

const CPF = '529.982.247-25';
const KEYFRAME = Buffer.concat([Buffer.from([0xff, 0xd8, 0xff, 0xe0]), Buffer.from('a keyframe of the challenge')]).toString('base64');
const IMAGES = { documentFront: IMAGE, selfie: NO_FACE_PNG_BASE64 };
const sha = (base64: string) => createHash('sha256').update(Buffer.from(base64, 'base64')).digest('hex');
/** The hashes the companion reports of IMAGES and `keyframes` copies of KEYFRAME, in the order it lists them. */
const receivedHashes = (keyframes: number) => [
  { item: 'documentFront', sha256: sha(IMAGES.documentFront) },
  { item: 'selfie', sha256: sha(IMAGES.selfie) },
  ...Array.from({ length: keyframes }, (_, i) => ({ item: `keyframe-${i + 1}`, sha256: sha(KEYFRAME) })),
];

async function nonce(s: CreateSessionResponse, role: string): Promise<string> {
  const res = await app.request('/v1/session/capture-nonce', {
    method: 'POST',
    headers: { 'content-type': 'application/json', authorization: `Bearer ${s.clientSecret}` },
    body: JSON.stringify({ role }),
  });
  assert.equal(res.status, 201);
  return ((await res.json()) as CaptureNonce).nonce;
}

async function attestation(front: string, selfie: string, change: (links: AttestationLink[]) => AttestationLink[] = (l) => l) {
  const links = change([
    { item: 'documentFront', nonce: front, sha256: sha(IMAGES.documentFront) },
    { item: 'selfie', nonce: selfie, sha256: sha(IMAGES.selfie) },
    { item: 'keyframe-1', nonce: selfie, sha256: sha(KEYFRAME) },
  ]);
  return { links, head: await chainHead(links) };
}

async function create(s: CreateSessionResponse, integrity: unknown) {
  return app.request('/v1/onboardings', {
    method: 'POST',
    headers: { authorization: `Bearer ${s.clientSecret}`, 'content-type': 'application/json' },
    body: JSON.stringify({ cpf: CPF, documentType: 'CNH', images: IMAGES, ...(integrity !== undefined && { integrity }) }),
  });
}

const recorded = async (id: string) => (await app.store.getSession(id))!;

test('a sound attestation is valid; the claims, the hashes and the keyframe are kept; the nonces are consumed', async () => {
  const s = await openSession(app, { reference: 'integrity-valid', cpf: CPF });
  const [front, selfie, spare] = [await nonce(s, 'documentFront'), await nonce(s, 'selfie'), await nonce(s, 'documentBack')];
  const liveness = {
    result: 'passed',
    prompts: [
      { prompt: 'turn-left', met: true },
      { prompt: 'come-closer', met: true },
    ],
  };
  const signals = [{ name: 'webdriver', value: true }];
  const res = await create(s, { liveness, signals, keyframes: [KEYFRAME], attestation: await attestation(front, selfie) });
  assert.equal(res.status, 201, await res.clone().text());
  const session = await recorded(s.id);
  assert.deepEqual(session.integrity, {
    liveness,
    signals,
    attestation: {
      state: 'valid',
      problems: [],
      hashes: receivedHashes(1),
    },
    keyframes: 1,
  });
  assert.deepEqual(session.keyframes, [KEYFRAME]);
  const consumed = Object.fromEntries((session.captureNonces ?? []).map((n) => [n.nonce, n.consumedAt !== undefined]));
  assert.deepEqual(consumed, { [front]: true, [selfie]: true, [spare]: false });
});

test('the same pictures under new nonces are replayed; a nonce of another session is unknown; a changed picture breaks its hash', async () => {
  const first = await openSession(app, { reference: 'integrity-first', cpf: CPF });
  const again = await openSession(app, { reference: 'integrity-again', cpf: CPF });
  const foreign = await nonce(first, 'selfie');
  // The first test attested IMAGE as its documentFront: here it comes again under a new nonce.
  const front = await nonce(again, 'documentFront');
  const res = await create(again, {
    keyframes: [KEYFRAME],
    attestation: await attestation(front, foreign, (links) =>
      links.map((l) => (l.item === 'keyframe-1' ? { ...l, sha256: sha(IMAGE) } : l)),
    ),
  });
  assert.equal(res.status, 201, 'integrity never refuses a creation');
  const verdict = (await recorded(again.id)).integrity!.attestation;
  assert.equal(verdict.state, 'invalid');
  assert.deepEqual(
    verdict.problems.map((p) => `${p.problem}@${p.item ?? ''}`),
    ['replayed@documentFront', 'unknown-nonce@selfie', 'hash-mismatch@keyframe-1', 'unknown-nonce@keyframe-1'],
  );
});

test('a page that attests nothing: missing, the hashes still computed; a malformed claim is the one refusal', async () => {
  const s = await openSession(app, { reference: 'integrity-none', cpf: CPF });
  const bad = await create(s, { attestation: { links: [], head: 'not hex' } });
  assert.equal(bad.status, 400);
  assert.equal(((await bad.json()) as { error: { field: string } }).error.field, 'integrity.attestation.head');
  const res = await create(s, undefined);
  assert.equal(res.status, 201, 'the refusal gave the session back');
  const session = await recorded(s.id);
  assert.deepEqual(session.integrity, {
    attestation: {
      state: 'missing',
      problems: [],
      hashes: receivedHashes(0),
    },
    keyframes: 0,
  });
  assert.equal(session.keyframes, undefined);
});

test('reported: the session view carries integrity, the evidence archive integrity.json and the keyframes; a redaction erases them', async () => {
  const s = await openSession(app, { reference: 'integrity-report', cpf: CPF });
  const selfie = await nonce(s, 'selfie');
  const signals = [{ name: 'page-hidden', role: 'selfie' }];
  const res = await create(s, { signals, keyframes: [KEYFRAME, KEYFRAME] });
  assert.equal(res.status, 201);
  const { tokenOnboarding } = (await res.json()) as { tokenOnboarding: string };
  const backend = (path: string, init: RequestInit = {}) =>
    app.request(path, { ...init, headers: { authorization: `Bearer ${CHECKS_API_KEY}`, 'content-type': 'application/json' } });
  const view = (await (await backend(`/v1/sessions/${s.id}`)).json()) as SessionView;
  assert.deepEqual(view.integrity, {
    liveness: { result: 'unavailable', reason: 'not-asked', prompts: [] },
    signals,
    attestation: {
      state: 'missing',
      problems: [],
      hashes: receivedHashes(2),
    },
    keyframes: 2,
  });
  assert.equal((await recorded(s.id)).captureNonces?.[0]?.nonce, selfie, 'no attestation consumes nothing');
  const archive = await backend(`/v1/admin/onboardings/${tokenOnboarding}/evidence`, {
    method: 'POST',
    body: JSON.stringify({ encrypt: false }),
  });
  assert.equal(archive.status, 200, await archive.clone().text());
  const { files } = await readWithZipJs(new Uint8Array(await archive.arrayBuffer()));
  assert.deepEqual(JSON.parse(new TextDecoder().decode(files.get('integrity.json'))), view.integrity);
  for (const name of ['keyframe-1.jpg', 'keyframe-2.jpg'])
    assert.deepEqual(Buffer.from(files.get(name)!), Buffer.from(KEYFRAME, 'base64'), name);
  assert.equal(files.has('keyframe-3.jpg'), false);

  assert.equal((await backend(`/v1/sessions/${s.id}/redact`, { method: 'POST' })).status, 200);
  const redacted = (await (await backend(`/v1/sessions/${s.id}`)).json()) as SessionView;
  assert.equal(redacted.integrity, undefined);
  const stored = await recorded(s.id);
  assert.deepEqual([stored.keyframes, stored.integrity], [undefined, undefined]);
  const after = await backend(`/v1/admin/onboardings/${tokenOnboarding}/evidence`, {
    method: 'POST',
    body: JSON.stringify({ encrypt: false }),
  });
  const left = (await readWithZipJs(new Uint8Array(await after.arrayBuffer()))).files;
  assert.deepEqual([left.has('integrity.json'), left.has('keyframe-1.jpg')], [false, false]);
});
