/**
 * The companion's verdict on a creation's attestation (docs/page-api.md#attestation), from what it
 * knows itself: the hashes of the bytes it received, the nonces it issued the session, the time,
 * and the nonce the same bytes were attested under before. Pure: every problem found is listed,
 * none refuses anything. Integrity is a record, never a gate.
 */
import type {
  AttestationLink,
  AttestationProblem,
  AttestationVerdict,
  AttestedItem,
  CaptureAttestation,
  DocumentReading,
  ImageRoleName,
} from '@onboarding-kit/contract';
import type { IssuedNonce, RecordedIntegrity, SessionRecord } from '../store/backend-state.js';
import { nonceExpiresAt } from './nonce-rules.js';

/** The SHA-256 (lowercase hex) the companion computed of an image or keyframe it received. */
export interface ReceivedItem {
  item: AttestedItem;
  sha256: string;
}

export interface AttestationFacts {
  attestation: CaptureAttestation | undefined;
  received: readonly ReceivedItem[];
  /** The nonces issued to the session, as they stood before this creation. */
  nonces: readonly IssuedNonce[];
  nowMs: number;
  /** `chainHead` of the attestation's links, recomputed by the companion. */
  head: string | undefined;
  /** Per item `attestedEntries` named, the nonce its bytes were attested under before (null: never). */
  earlier: ReadonlyMap<AttestedItem, string | null>;
}

const DOCUMENT_SIDES: readonly ImageRoleName[] = ['documentFront', 'documentBack'];

/**
 * Whether a nonce issued for `role` is good for `item`: the person may swap the document's sides
 * on the page, so either side's nonce is good for either side; keyframes come from the selfie step.
 */
export function nonceFits(role: ImageRoleName, item: AttestedItem): boolean {
  if (item.startsWith('keyframe-')) return role === 'selfie';
  if (DOCUMENT_SIDES.includes(item as ImageRoleName)) return DOCUMENT_SIDES.includes(role);
  return role === item;
}

const issuedFor = (link: AttestationLink, nonces: readonly IssuedNonce[]): IssuedNonce | undefined =>
  nonces.find((n) => n.nonce === link.nonce && nonceFits(n.role, link.item));

/** The hashes to remember (and ask about): each received item linked under a nonce issued for its step. */
export function attestedEntries(
  attestation: CaptureAttestation | undefined,
  received: readonly ReceivedItem[],
  nonces: readonly IssuedNonce[],
): { item: AttestedItem; sha256: string; nonce: string }[] {
  return (attestation?.links ?? []).flatMap((link) => {
    const got = received.find((r) => r.item === link.item);
    return got && issuedFor(link, nonces) ? [{ item: link.item, sha256: got.sha256, nonce: link.nonce }] : [];
  });
}

function linkProblems(link: AttestationLink, facts: AttestationFacts): AttestationProblem[] {
  const got = facts.received.find((r) => r.item === link.item);
  if (!got) return ['missing-link'];
  const problems: AttestationProblem[] = [];
  if (got.sha256 !== link.sha256) problems.push('hash-mismatch');
  const issued = issuedFor(link, facts.nonces);
  if (!issued) problems.push('unknown-nonce');
  else if (issued.consumedAt) problems.push('nonce-reused');
  else if (facts.nowMs > nonceExpiresAt(issued)) problems.push('nonce-expired');
  const before = facts.earlier.get(link.item);
  if (typeof before === 'string' && before !== link.nonce) problems.push('replayed');
  return problems;
}

/** `missing` without an attestation; otherwise `valid`, or `invalid` with every problem and the item it concerns. */
export function attestationVerdict(facts: AttestationFacts): AttestationVerdict {
  const hashes = facts.received.map(({ item, sha256 }) => ({ item, sha256 }));
  const { attestation } = facts;
  if (!attestation) return { state: 'missing', problems: [], hashes };
  const problems: AttestationVerdict['problems'] = attestation.links.flatMap((link) =>
    linkProblems(link, facts).map((problem) => ({ problem, item: link.item })),
  );
  for (const { item } of facts.received) {
    if (!attestation.links.some((l) => l.item === item)) problems.push({ problem: 'missing-link', item });
  }
  if (facts.head !== attestation.head) problems.push({ problem: 'chain-mismatch' });
  return { state: problems.length > 0 ? 'invalid' : 'valid', problems, hashes };
}

/** What a creation leaves on its session: the record, the nonces it used, and the keyframes kept. */
export interface IntegrityOutcome {
  recorded: RecordedIntegrity;
  used: string[];
  keyframes: string[];
}

/** What the page's creation left on its session besides the onboarding. */
export interface SubmittedByPage {
  reading?: DocumentReading;
  integrity?: IntegrityOutcome;
}

/**
 * The session once its creation's integrity is recorded: the nonces its attestation used are
 * consumed (a later creation naming one finds it `nonce-reused`), the record and keyframes kept.
 */
export function withPageIntegrity(s: SessionRecord, outcome: IntegrityOutcome | undefined, at: string): SessionRecord {
  if (!outcome) return s;
  const { recorded, used, keyframes } = outcome;
  const captureNonces = s.captureNonces?.map((n) => (used.includes(n.nonce) && !n.consumedAt ? { ...n, consumedAt: at } : n));
  return { ...s, integrity: recorded, ...(captureNonces && { captureNonces }), ...(keyframes.length > 0 && { keyframes }) };
}

/** The nonces an attestation used that the session was issued, whatever else is wrong with it. */
export const usedNonces = (attestation: CaptureAttestation | undefined, nonces: readonly IssuedNonce[]): string[] =>
  (attestation?.links ?? []).filter((l) => issuedFor(l, nonces)).map((l) => l.nonce);
