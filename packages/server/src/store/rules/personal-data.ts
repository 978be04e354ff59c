/**
 * Personal data at rest (docs/backend-api.md#personal-data-at-rest): which stored fields hold it,
 * how data keys are written, and the text a sealed value is kept as. Pure: the cipher itself
 * (AES-256-GCM through Web Crypto) is ../core/data-sealer.ts, which every store reaches through
 * the shared store, so the memory, SQLite and Redis stores seal the same fields the same way.
 *
 * What a store holds and where the personal data is:
 * - a session: the CPF/CNPJ and name the backend prefilled, the backend's `metadata` and
 *   `returnUrl` (free text that may name the person), the upstream report's `services` member
 *   (whose inside is not shown, so it is taken to hold the person) and the answers a computer
 *   carried to the phone with a hand-off (consent time, CPF, name, document type), the instant checks' results, the
 *   page's document reading, its document prefill and the liveness challenge's keyframes (the
 *   person's face) are sealed together in `sealed`; what the
 *   store indexes or the routes match on (id, `reference`, status, times, hashes) stays plain;
 * - a notification in the outbox: its whole body (the session view, a query's result);
 * - a standalone query request: its outcome (the upstream's answer about a person or company);
 *   its id, service, key, status and times stay plain;
 * - onboardings, status history, idempotency keys, leases, rate windows and hand-off keys hold
 *   tokens, hashes, statuses and times only: nothing to seal.
 */
import type { OutboxEntry, SessionRecord } from '../backend-state.js';

/** One data key: its id (written beside every ciphertext it seals) and its 32 bytes. */
export interface DataKey {
  id: string;
  bytes: Uint8Array;
}

/** The fields of a session that are personal data, sealed together (`splitSession` and `joinSession` list them). */
type PersonalField =
  | 'taxId'
  | 'name'
  | 'metadata'
  | 'returnUrl'
  | 'reportServices'
  | 'handoffAnswers'
  | 'checks'
  | 'documentReading'
  | 'documentPrefill'
  | 'keyframes';
export type SessionPersonalData = Partial<Pick<SessionRecord, PersonalField>>;

/** A sealed value: `pd1.<key id>.<iv>.<ciphertext and tag>`, both base64url (12-byte IV, 16-byte GCM tag). */
const SEALED_PREFIX = 'pd1.';
const SEALED = /^pd1\.([A-Za-z0-9_-]{1,32})\.([A-Za-z0-9_-]{16})\.([A-Za-z0-9_-]{22,})$/;
const KEY_ID = /^[A-Za-z0-9_-]{1,32}$/;
const BASE64 = /^(?:[A-Za-z0-9+/]*={0,2}|[A-Za-z0-9_-]*)$/;
const DATA_KEY_BYTES = 32;
export const IV_BYTES = 12;

export interface SealedParts {
  keyId: string;
  iv: Uint8Array<ArrayBuffer>;
  ciphertext: Uint8Array<ArrayBuffer>;
}

export const isSealed = (text: string): boolean => text.startsWith(SEALED_PREFIX);

export function sealedText({ keyId, iv, ciphertext }: SealedParts): string {
  return `${SEALED_PREFIX}${keyId}.${Buffer.from(iv).toString('base64url')}.${Buffer.from(ciphertext).toString('base64url')}`;
}

/** The parts of a sealed value, or null when `text` is not one this kit writes. */
export function sealedParts(text: string): SealedParts | null {
  const m = SEALED.exec(text);
  if (!m) return null;
  return { keyId: m[1]!, iv: new Uint8Array(Buffer.from(m[2]!, 'base64url')), ciphertext: new Uint8Array(Buffer.from(m[3]!, 'base64url')) };
}

/** The key id of a sealed value (for messages), or null. */
export const sealedKeyId = (text: string): string | null => SEALED.exec(text)?.[1] ?? null;

/**
 * What a ciphertext is bound to (the GCM additional data): a sealed value copied onto another
 * record, or another kind of record, does not open.
 */
export const sessionBinding = (id: string): string => `session:${id}`;
export const outboxBinding = (id: string): string => `outbox:${id}`;
export const queryBinding = (id: string): string => `query:${id}`;

/**
 * `ONBOARDING_DATA_KEY`: `<id>:<base64 of 32 bytes>[,<id>:<base64>...]`; the first key seals,
 * every key opens. Errors name the entry by its place and never repeat key material.
 */
export function parseDataKeys(text: string): { ok: true; keys: DataKey[] } | { ok: false; error: string } {
  const entries = text.split(',').map((e) => e.trim());
  const keys: DataKey[] = [];
  for (const [i, entry] of entries.entries()) {
    const at = entry.indexOf(':');
    const id = at < 0 ? '' : entry.slice(0, at);
    const raw = at < 0 ? '' : entry.slice(at + 1);
    const place = `entry ${i + 1}`;
    if (!KEY_ID.test(id))
      return { ok: false, error: `${place} must be <id>:<base64 of 32 bytes>, the id 1 to 32 letters, digits, "-" or "_".` };
    const bytes = BASE64.test(raw) ? Buffer.from(raw, raw.includes('-') || raw.includes('_') ? 'base64url' : 'base64') : undefined;
    if (!bytes || bytes.length !== DATA_KEY_BYTES)
      return {
        ok: false,
        error: `${place} (key id "${id}") must hold exactly ${DATA_KEY_BYTES} bytes in base64 (openssl rand -base64 32).`,
      };
    if (keys.some((k) => k.id === id)) return { ok: false, error: `${place}: key id "${id}" is given twice.` };
    keys.push({ id, bytes: new Uint8Array(bytes) });
  }
  return { ok: true, keys };
}

/** A session without its personal fields, and those fields (null when it has none worth sealing). */
export function splitSession(s: SessionRecord): { rest: SessionRecord; personal: SessionPersonalData | null } {
  const {
    taxId,
    name,
    metadata,
    returnUrl,
    reportServices,
    handoffAnswers,
    checks,
    documentReading,
    documentPrefill,
    keyframes,
    sealed: _sealed,
    ...rest
  } = s;
  const personal: SessionPersonalData = {
    ...(taxId && { taxId }),
    ...(name !== undefined && { name }),
    ...(Object.keys(metadata).length > 0 && { metadata }),
    ...(returnUrl !== undefined && { returnUrl }),
    ...(reportServices !== undefined && { reportServices }),
    ...(handoffAnswers !== undefined && { handoffAnswers }),
    ...(checks !== undefined && { checks }),
    ...(documentReading !== undefined && { documentReading }),
    ...(documentPrefill !== undefined && { documentPrefill }),
    ...(keyframes !== undefined && { keyframes }),
  };
  // `metadata` is required: the stored form keeps an empty one, so a record read without opening is still well formed.
  return { rest: { ...rest, metadata: {} }, personal: Object.keys(personal).length > 0 ? personal : null };
}

/** The stored form of a session: the plain part with the sealed personal fields beside it. */
export const sealedSession = (rest: SessionRecord, sealed: string): SessionRecord => ({ ...rest, sealed });

/** A stored session with its opened personal fields back in place. */
export function joinSession(stored: SessionRecord, personal: SessionPersonalData): SessionRecord {
  const { sealed: _sealed, ...rest } = stored;
  return { ...rest, ...personal, metadata: personal.metadata ?? rest.metadata };
}

/** The stored form of an outbox entry: its body sealed. */
export const sealedEntry = (entry: OutboxEntry, sealedBody: string): OutboxEntry => ({ ...entry, body: sealedBody });
