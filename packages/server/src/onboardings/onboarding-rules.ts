/**
 * The rules of an onboarding's creation and reads, as pure functions: who may open an onboarding,
 * what a session fixes, what makes two creations the same request, and the body the upstream is
 * sent.
 */
import { IMAGE_ROLES, type ImageRoleName, type ValidCreateOnboardingBytes } from '@onboarding-kit/contract';
import { createHash } from 'node:crypto';
import { keyMatches } from '../auth/access-key.js';
import { DomainError } from '../errors/domain-error.js';
import { fingerprint } from '../idempotency/idempotency-rules.js';
import type { SessionRecord } from '../store/backend-state.js';
import type { OnboardingRecord } from '../store/index.js';
import { EncodedJson } from '../upstream/upstream-client.js';

/** What an onboarding token looks like; anything else is not looked up. */
export const TOKEN_SHAPE = /^[A-Za-z0-9._~-]{1,128}$/;

/** Whether a presented key opens the onboarding: its first key or one a replay issued, all compared constant-time. */
export function accessKeyOpens(presented: string | undefined, record: OnboardingRecord | null): boolean {
  let opens = keyMatches(presented, record?.accessKeyHash);
  for (const hash of record?.moreAccessKeyHashes ?? []) opens = keyMatches(presented, hash) || opens;
  return opens;
}

export const sessionUnauthorized = () =>
  new DomainError('unauthorized', 'This session link is not valid: ask the service provider for a new one.', {
    realm: 'onboarding-session',
  });

/** A session fixes who is onboarded: another CPF/CNPJ, or a document type it does not offer, is refused. */
export function checkAgainstSession(valid: ValidCreateOnboardingBytes, session: SessionRecord): void {
  const fixed = session.taxId;
  if (fixed && (fixed.kind !== valid.taxId.kind || fixed.value !== valid.taxId.value)) {
    throw new DomainError(
      'session_mismatch',
      `This session is for another ${fixed.kind.toUpperCase()}: the one the service provider gave must be used.`,
      { field: fixed.kind },
    );
  }
  if (valid.documentType && session.documentTypes.length > 0 && !session.documentTypes.includes(valid.documentType.toUpperCase())) {
    throw new DomainError('session_mismatch', `This session accepts only these documents: ${session.documentTypes.join(', ')}.`, {
      field: 'documentType',
    });
  }
  if (valid.proofOfAddress && !session.steps?.includes('proof-of-address')) {
    throw new DomainError('session_mismatch', 'This session has no proof-of-address step: send no proofOfAddress.', {
      field: 'proofOfAddress',
    });
  }
}

/**
 * What makes two creations the same request: the person, the document, each photo's hash, the
 * proof of address's hash and the document reading.
 * Computed only when a session or an Idempotency-Key needs it.
 */
export function creationFingerprint(valid: ValidCreateOnboardingBytes): string {
  return fingerprint({
    taxId: valid.taxId,
    name: valid.name,
    documentType: valid.documentType,
    images: Object.fromEntries(Object.entries(valid.images).map(([role, img]) => [role, textFingerprint(img.base64)])),
    keptAnyway: valid.keptAnyway,
    // Absent members are left out of the print, so prints of creations without them stay as they were.
    documentReading: valid.documentReading,
    proofOfAddress: valid.proofOfAddress && textFingerprint(valid.proofOfAddress.base64),
  });
}

/** `fingerprint(text)` of a base64 text given as its bytes: SHA-256 of its JSON (`"..."`, no escapes in base64), so prints made before stay equal. */
function textFingerprint(base64: Uint8Array): string {
  return createHash('sha256').update('"').update(base64).update('"').digest('hex');
}

/**
 * The upstream creation body (docs/upstream-api.md#onboarding-creation): tax id, name, and each
 * image as a data URI; the JSON of that `OnboardingTokenRequest`, written in pieces around the
 * images' own bytes (base64 needs no escaping in JSON).
 */
export function upstreamRequest(valid: ValidCreateOnboardingBytes, fileTypes: Record<ImageRoleName, string>): EncodedJson {
  const head = {
    [valid.taxId.kind]: valid.taxId.value,
    document: valid.taxId.value,
    ...(valid.name && { name: valid.name }),
  };
  let text = `${JSON.stringify(head).slice(0, -1)},"documentFiles":[`;
  const pieces: Uint8Array[] = [];
  let first = true;
  for (const role of IMAGE_ROLES) {
    const image = valid.images[role];
    if (!image) continue;
    text += `${first ? '' : '"},'}{"documentFileType":${JSON.stringify(fileTypes[role])},"document":${JSON.stringify(`data:${image.mime};base64,`).slice(0, -1)}`;
    pieces.push(Buffer.from(text, 'utf8'), image.base64);
    text = '';
    first = false;
  }
  pieces.push(Buffer.from(`${first ? '' : '"}'}]}`, 'utf8'));
  return new EncodedJson(pieces);
}
