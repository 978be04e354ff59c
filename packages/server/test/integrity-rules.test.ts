/**
 * The attestation's verdict (src/integrity/integrity-rules.ts): each problem is found by its own
 * rule and named with the item it concerns, a sound attestation is `valid`, none is `missing`, and
 * what a creation leaves on its session (consumed nonces, the record, the keyframes).
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { chainHead, type AttestationLink, type AttestedItem, type CaptureAttestation } from '@onboarding-kit/contract';
import {
  attestationVerdict,
  attestedEntries,
  nonceFits,
  usedNonces,
  withPageIntegrity,
  type AttestationFacts,
  type ReceivedItem,
} from '../src/integrity/integrity-rules.js';
import { sessionIntegrity } from '../src/integrity/integrity-view.js';
import type { IssuedNonce, SessionRecord } from '../src/store/backend-state.js';

const NOW = Date.parse('2030-01-01T12:00:00.000Z');
const HOUR = 3600_000;
const hash = (c: string) => c.repeat(64);
const issued = (nonce: string, role: IssuedNonce['role'], agoMs = 60_000, consumedAt?: string): IssuedNonce => ({
  nonce,
  role,
  issuedAt: new Date(NOW - agoMs).toISOString(),
  ...(consumedAt && { consumedAt }),
});
const NONCES = [issued('front-nonce', 'documentFront'), issued('back-nonce', 'documentBack'), issued('selfie-nonce', 'selfie')];
const RECEIVED: ReceivedItem[] = [
  { item: 'documentFront', sha256: hash('a') },
  { item: 'documentBack', sha256: hash('b') },
  { item: 'selfie', sha256: hash('c') },
  { item: 'keyframe-1', sha256: hash('d') },
];
const LINKS: AttestationLink[] = [
  { item: 'documentFront', nonce: 'front-nonce', sha256: hash('a') },
  { item: 'documentBack', nonce: 'back-nonce', sha256: hash('b') },
  { item: 'selfie', nonce: 'selfie-nonce', sha256: hash('c') },
  { item: 'keyframe-1', nonce: 'selfie-nonce', sha256: hash('d') },
];

async function facts(
  over: { links?: AttestationLink[]; head?: string } & Partial<Omit<AttestationFacts, 'head'>> = {},
): Promise<AttestationFacts> {
  const links = over.links ?? LINKS;
  const attestation: CaptureAttestation = { links, head: over.head ?? (await chainHead(links)) };
  return {
    attestation,
    received: over.received ?? RECEIVED,
    nonces: over.nonces ?? NONCES,
    nowMs: over.nowMs ?? NOW,
    head: await chainHead(links),
    earlier: over.earlier ?? new Map(),
  };
}
const problemsOf = async (over: Parameters<typeof facts>[0]) => {
  const verdict = attestationVerdict(await facts(over));
  return { state: verdict.state, problems: verdict.problems.map((p) => `${p.problem}@${p.item ?? ''}`) };
};
const swap = (item: AttestedItem, change: Partial<AttestationLink>) => LINKS.map((l) => (l.item === item ? { ...l, ...change } : l));

test('a sound attestation is valid, and the hashes are the ones the companion computed', async () => {
  const verdict = attestationVerdict(await facts());
  assert.deepEqual(verdict, { state: 'valid', problems: [], hashes: RECEIVED });
});

test('no attestation is missing, with no problems, the hashes still reported', () => {
  const verdict = attestationVerdict({
    attestation: undefined,
    received: RECEIVED,
    nonces: NONCES,
    nowMs: NOW,
    head: undefined,
    earlier: new Map(),
  });
  assert.deepEqual(verdict, { state: 'missing', problems: [], hashes: RECEIVED });
});

test('each problem by its own rule, named with its item', async () => {
  const cases: [Parameters<typeof facts>[0], string[]][] = [
    [{ links: swap('selfie', { nonce: 'never-issued-nonce' }) }, ['unknown-nonce@selfie']],
    [{ links: swap('selfie', { nonce: 'front-nonce' }) }, ['unknown-nonce@selfie']],
    [{ links: swap('keyframe-1', { nonce: 'front-nonce' }) }, ['unknown-nonce@keyframe-1']],
    [
      { nonces: [NONCES[0]!, NONCES[1]!, issued('selfie-nonce', 'selfie', 60_000, new Date(NOW - 1000).toISOString())] },
      ['nonce-reused@selfie', 'nonce-reused@keyframe-1'],
    ],
    [{ nonces: [issued('front-nonce', 'documentFront', HOUR + 1), NONCES[1]!, NONCES[2]!] }, ['nonce-expired@documentFront']],
    [{ links: swap('documentBack', { sha256: hash('e') }) }, ['hash-mismatch@documentBack']],
    [{ links: LINKS.filter((l) => l.item !== 'keyframe-1') }, ['missing-link@keyframe-1']],
    [
      { links: [...LINKS.slice(0, 3), { item: 'keyframe-2', nonce: 'selfie-nonce', sha256: hash('d') }] },
      ['missing-link@keyframe-2', 'missing-link@keyframe-1'],
    ],
    [{ head: hash('f') }, ['chain-mismatch@']],
    [{ earlier: new Map([['selfie', 'an-earlier-nonce']]) }, ['replayed@selfie']],
  ];
  for (const [over, problems] of cases) assert.deepEqual(await problemsOf(over), { state: 'invalid', problems }, problems.join());
});

test('a nonce holds until its hour is up, and the same bytes under the same nonce are no replay', async () => {
  assert.equal((await problemsOf({ nonces: [issued('front-nonce', 'documentFront', HOUR), NONCES[1]!, NONCES[2]!] })).state, 'valid');
  assert.equal((await problemsOf({ earlier: new Map([['selfie', 'selfie-nonce']]) })).state, 'valid');
});

test('the document sides may be swapped on the page: either side nonce is good for either side; keyframes take the selfie', async () => {
  const swapped = LINKS.map((l) =>
    l.item === 'documentFront' ? { ...l, nonce: 'back-nonce' } : l.item === 'documentBack' ? { ...l, nonce: 'front-nonce' } : l,
  );
  assert.equal((await problemsOf({ links: swapped })).state, 'valid');
  assert.ok(nonceFits('documentBack', 'documentFront') && nonceFits('documentFront', 'documentBack'));
  assert.ok(nonceFits('selfie', 'keyframe-2') && !nonceFits('documentFront', 'keyframe-1') && !nonceFits('selfie', 'documentFront'));
  assert.ok(!nonceFits('documentFront', 'selfie'));
});

test('the hashes remembered are those of received items linked under an issued nonce, the received hash, not the claimed one', () => {
  const links = [
    ...swap('documentBack', { sha256: hash('e') }).slice(0, 3),
    { item: 'keyframe-1' as const, nonce: 'made-up-nonce', sha256: hash('d') },
  ];
  assert.deepEqual(attestedEntries({ links, head: hash('0') }, RECEIVED, NONCES), [
    { item: 'documentFront', sha256: hash('a'), nonce: 'front-nonce' },
    { item: 'documentBack', sha256: hash('b'), nonce: 'back-nonce' },
    { item: 'selfie', sha256: hash('c'), nonce: 'selfie-nonce' },
  ]);
  assert.deepEqual(attestedEntries(undefined, RECEIVED, NONCES), []);
  assert.deepEqual(usedNonces({ links, head: hash('0') }, NONCES), ['front-nonce', 'back-nonce', 'selfie-nonce']);
});

test('the session keeps the record, its keyframes, and the used nonces consumed; the view defaults a page that sent nothing', () => {
  const at = new Date(NOW).toISOString();
  const s = { id: 'ses_1', captureNonces: [...NONCES, issued('spare-nonce', 'selfie')] } as SessionRecord;
  const recorded = { attestation: { state: 'valid' as const, problems: [], hashes: RECEIVED }, keyframes: 1 };
  const next = withPageIntegrity(s, { recorded, used: ['front-nonce', 'selfie-nonce'], keyframes: ['/9j/kf'] }, at);
  assert.deepEqual(
    next.captureNonces!.map((n) => [n.nonce, n.consumedAt]),
    [
      ['front-nonce', at],
      ['back-nonce', undefined],
      ['selfie-nonce', at],
      ['spare-nonce', undefined],
    ],
  );
  assert.deepEqual(next.keyframes, ['/9j/kf']);
  assert.equal(withPageIntegrity(s, undefined, at), s);
  assert.deepEqual(sessionIntegrity(next), {
    liveness: { result: 'unavailable', reason: 'not-asked', prompts: [] },
    signals: [],
    attestation: recorded.attestation,
    keyframes: 1,
  });
  assert.deepEqual(sessionIntegrity({}), {
    liveness: { result: 'unavailable', reason: 'not-asked', prompts: [] },
    signals: [],
    attestation: { state: 'missing', problems: [], hashes: [] },
    keyframes: 0,
  });
});
