/**
 * The strict check of a creation's `integrity` (docs/page-api.md#capture-integrity): only the
 * members the contract names, each within its bounds. Integrity is a record and never a gate, so
 * the only way it refuses a creation is by being malformed, and then it names the member at fault.
 */
import {
  CAPTURE_INTEGRITY_LIMITS,
  INTEGRITY_SIGNALS,
  LIVENESS_PROMPTS,
  LIVENESS_RESULTS,
  LIVENESS_UNAVAILABLE_REASONS,
  type AttestedItem,
  type CaptureAttestation,
  type CaptureIntegrityClaim,
  type IntegritySignal,
  type LivenessReport,
} from './capture-integrity.js';
import { isRecord, refuseField, unknownMember as unknownMemberOf } from './guards.js';
import { IMAGE_ROLES, type ImageText, type Validation } from './page-api.js';

/** A validated claim; its keyframes held as their base64 text, whatever holds it (a string, or bytes). */
export interface ValidCaptureIntegrity<T> extends Omit<CaptureIntegrityClaim, 'keyframes'> {
  keyframes?: { base64: T; bytes: number }[];
}

const NONCE = /^[A-Za-z0-9_-]{16,128}$/;
const SHA256_HEX = /^[0-9a-f]{64}$/;
const KEYFRAME_ITEM = /^keyframe-([1-9])$/;
const { keyframesMax, keyframeMaxBytes, signalsMax, signalValueMaxChars } = CAPTURE_INTEGRITY_LIMITS;

const refuse = refuseField;

const isOneOf = <T extends string>(list: readonly T[], value: unknown): value is T => (list as readonly unknown[]).includes(value);

const unknownMember = (value: Record<string, unknown>, known: readonly string[], field: string) =>
  unknownMemberOf(value, known, field, 'capture integrity');

/** `value` as a list of at most `max` records, each checked by `check`; the first refusal otherwise. */
function checkList(
  value: unknown,
  field: string,
  max: number,
  what: string,
  check: (entry: Record<string, unknown>, at: string) => Validation<null>,
) {
  if (!Array.isArray(value) || value.length > max) return refuse(field, `must be a list of at most ${max} ${what}.`);
  for (const [i, entry] of value.entries()) {
    const at = `${field}[${i}]`;
    if (!isRecord(entry)) return refuse(at, `must be an object (${what}).`);
    const checked = check(entry, at);
    if (!checked.ok) return checked;
  }
  return { ok: true as const, value: null };
}

function checkPrompt(entry: Record<string, unknown>, at: string): Validation<null> {
  const extra = unknownMember(entry, ['prompt', 'met'], at);
  if (extra) return extra;
  if (!isOneOf(LIVENESS_PROMPTS, entry.prompt)) return refuse(`${at}.prompt`, `must be one of ${LIVENESS_PROMPTS.join(', ')}.`);
  if (typeof entry.met !== 'boolean') return refuse(`${at}.met`, 'must be true or false.');
  return { ok: true, value: null };
}

function checkLiveness(value: unknown, field: string): Validation<null> {
  if (!isRecord(value)) return refuse(field, 'must be an object of result, prompts and reason.');
  const extra = unknownMember(value, ['result', 'prompts', 'reason'], field);
  if (extra) return extra;
  if (!isOneOf(LIVENESS_RESULTS, value.result)) return refuse(`${field}.result`, `must be one of ${LIVENESS_RESULTS.join(', ')}.`);
  const prompts = checkList(value.prompts, `${field}.prompts`, LIVENESS_PROMPTS.length, 'prompts and whether each was met', checkPrompt);
  if (!prompts.ok) return prompts;
  if (value.reason === undefined) return { ok: true, value: null };
  if (value.result !== 'unavailable') return refuse(`${field}.reason`, 'is given only when result is unavailable.');
  if (!isOneOf(LIVENESS_UNAVAILABLE_REASONS, value.reason))
    return refuse(`${field}.reason`, `must be one of ${LIVENESS_UNAVAILABLE_REASONS.join(', ')}.`);
  return { ok: true, value: null };
}

function checkSignal(entry: Record<string, unknown>, at: string): Validation<null> {
  const extra = unknownMember(entry, ['name', 'role', 'value'], at);
  if (extra) return extra;
  if (!isOneOf(INTEGRITY_SIGNALS, entry.name)) return refuse(`${at}.name`, `must be one of ${INTEGRITY_SIGNALS.join(', ')}.`);
  if (entry.role !== undefined && !isOneOf(IMAGE_ROLES, entry.role))
    return refuse(`${at}.role`, `must be one of ${IMAGE_ROLES.join(', ')}.`);
  const v = entry.value;
  const fits =
    v === undefined ||
    typeof v === 'boolean' ||
    (typeof v === 'number' && Number.isFinite(v)) ||
    (typeof v === 'string' && v.length <= signalValueMaxChars);
  if (!fits) return refuse(`${at}.value`, `must be text of at most ${signalValueMaxChars} characters, a finite number or true or false.`);
  return { ok: true, value: null };
}

/** An item a link may name: an image role, or `keyframe-N` with N from 1 to the keyframes' limit. */
function isAttestedItem(value: unknown): value is AttestedItem {
  if (isOneOf(IMAGE_ROLES, value)) return true;
  const n = typeof value === 'string' ? KEYFRAME_ITEM.exec(value)?.[1] : undefined;
  return n !== undefined && Number(n) <= keyframesMax;
}

function checkAttestation(value: unknown, field: string, items: number): Validation<null> {
  if (!isRecord(value)) return refuse(field, 'must be an object of links and head.');
  const extra = unknownMember(value, ['links', 'head'], field);
  if (extra) return extra;
  const seen = new Set<unknown>();
  const links = checkList(value.links, `${field}.links`, items, 'links, one per image and keyframe sent', (link, at) => {
    const unknown = unknownMember(link, ['item', 'nonce', 'sha256'], at);
    if (unknown) return unknown;
    if (!isAttestedItem(link.item) || seen.has(link.item))
      return refuse(`${at}.item`, `must be an image role or keyframe-1 to keyframe-${keyframesMax}, each at most once.`);
    seen.add(link.item);
    if (typeof link.nonce !== 'string' || !NONCE.test(link.nonce))
      return refuse(`${at}.nonce`, 'must be 16 to 128 characters of base64url.');
    if (typeof link.sha256 !== 'string' || !SHA256_HEX.test(link.sha256)) return refuse(`${at}.sha256`, 'must be 64 lowercase hex digits.');
    return { ok: true, value: null };
  });
  if (!links.ok) return links;
  if (typeof value.head !== 'string' || !SHA256_HEX.test(value.head)) return refuse(`${field}.head`, 'must be 64 lowercase hex digits.');
  return { ok: true, value: null };
}

/**
 * The first keyframe over `keyframeMaxBytes` decoded, as a 413, checked with the images' sizes so
 * that an oversized picture is 413 whatever the rest holds; null when none is.
 */
export function oversizedKeyframe<T>(integrity: unknown, text: ImageText<T>): Validation<never> | null {
  const keyframes = isRecord(integrity) ? integrity.keyframes : undefined;
  if (!Array.isArray(keyframes)) return null;
  const at = keyframes.findIndex((k) => text.is(k) && text.decodedLength(k) > keyframeMaxBytes);
  if (at < 0) return null;
  const field = `integrity.keyframes[${at}]`;
  return {
    ok: false,
    status: 413,
    error: { code: 'image_too_large', message: `${field} is larger than ${keyframeMaxBytes} bytes.`, field },
  };
}

function checkKeyframes<T>(value: unknown, text: ImageText<T>): Validation<{ base64: T; bytes: number }[]> {
  const field = 'integrity.keyframes';
  if (!Array.isArray(value) || value.length > keyframesMax)
    return refuse(field, `must be a list of at most ${keyframesMax} JPEG keyframes.`);
  const kept: { base64: T; bytes: number }[] = [];
  for (const [i, keyframe] of value.entries()) {
    if (!text.is(keyframe) || text.empty(keyframe) || !text.pure(keyframe) || text.sniff(keyframe) !== 'image/jpeg')
      return refuse(`${field}[${i}]`, 'must be a JPEG in pure base64 (no data: prefix).');
    kept.push({ base64: keyframe, bytes: text.decodedLength(keyframe) });
  }
  return { ok: true, value: kept };
}

/**
 * A creation's `integrity`, checked member by member against the `images` count it carries (an
 * attestation links at most every image and keyframe); absent when the body has none.
 */
export function validateCaptureIntegrity<T>(
  value: unknown,
  text: ImageText<T>,
  images: number,
): Validation<ValidCaptureIntegrity<T> | undefined> {
  if (value === undefined) return { ok: true, value: undefined };
  const field = 'integrity';
  if (!isRecord(value)) return refuse(field, 'must be an object of liveness, keyframes, signals and attestation.');
  const extra = unknownMember(value, ['liveness', 'keyframes', 'signals', 'attestation'], field);
  if (extra) return extra;
  const claim: ValidCaptureIntegrity<T> = {};
  if (value.liveness !== undefined) {
    const liveness = checkLiveness(value.liveness, `${field}.liveness`);
    if (!liveness.ok) return liveness;
    claim.liveness = value.liveness as unknown as LivenessReport;
  }
  if (value.keyframes !== undefined) {
    const keyframes = checkKeyframes(value.keyframes, text);
    if (!keyframes.ok) return keyframes;
    claim.keyframes = keyframes.value;
  }
  if (value.signals !== undefined) {
    const signals = checkList(value.signals, `${field}.signals`, signalsMax, 'signals', checkSignal);
    if (!signals.ok) return signals;
    claim.signals = value.signals as IntegritySignal[];
  }
  if (value.attestation !== undefined) {
    const attestation = checkAttestation(value.attestation, `${field}.attestation`, images + (claim.keyframes?.length ?? 0));
    if (!attestation.ok) return attestation;
    claim.attestation = value.attestation as unknown as CaptureAttestation;
  }
  return { ok: true, value: Object.keys(claim).length > 0 ? claim : undefined };
}
