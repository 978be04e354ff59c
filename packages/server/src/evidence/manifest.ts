/** The JSON documents of an evidence archive besides the upstream's own report. */
import type { KeptAnyway } from '@onboarding-kit/contract';
import type { Measured } from './measure.js';

export type HistorySource = 'creation' | 'webhook' | 'poll';

export interface EvidenceHistoryEntry {
  status: string;
  at: string;
  source: HistorySource;
}

/** One file of the archive as the manifest lists it. */
export interface ManifestFile extends Measured {
  name: string;
}

/** Something the archive should hold but does not, and why. */
export interface ManifestGap {
  name: string;
  reason: string;
}

export const EVIDENCE_FORMAT = 'onboarding-kit-evidence/1';

/** The gap's reason when the archive is made for a token this companion did not create or no longer remembers. */
export const HISTORY_ABSENT = 'status history absent: this companion has no record of the onboarding (not created here, or past retention)';

/** `manifest.json`, written last so it can list the size and hash of every other entry. */
export interface EvidenceManifest {
  format: typeof EVIDENCE_FORMAT;
  tokenOnboarding: string;
  externalId?: string;
  environment: string;
  status: string;
  /** When the onboarding was created; absent when this companion has no record of it. */
  createdAt?: string;
  /** When this archive was produced. */
  archivedAt: string;
  kitVersion: string;
  /**
   * Photos the person kept although a check of the page refused them, by role: the check that
   * failed (`{}`: none). Absent when this companion has no record of the onboarding.
   */
  keptAnyway?: KeptAnyway;
  /** `AES-256` when every entry is encrypted with the archive password. */
  encryption: 'AES-256' | 'none';
  /** Every other entry, in archive order, with its size in bytes and lowercase hex SHA-256. */
  files: ManifestFile[];
  gaps: ManifestGap[];
}

/**
 * `support.json` for an onboarding in ERROR: what the upstream's support asks for to investigate a
 * technical failure (docs/upstream-api.md#errors-and-classification; docs/upstream-api.md, rule 2).
 */
export interface SupportRequest {
  tokenOnboarding: string;
  externalId?: string;
  /** When the onboarding moved to ERROR (from the status history), else when the archive was made. */
  time: string;
  environment: string;
  service?: string;
  status: 'ERROR';
  note: string;
}

export function supportRequest(args: {
  tokenOnboarding: string;
  externalId?: string;
  environment: string;
  service?: string;
  history: readonly EvidenceHistoryEntry[];
  archivedAt: string;
}): SupportRequest {
  const erroredAt = args.history.find((h) => h.status === 'ERROR')?.at;
  return {
    tokenOnboarding: args.tokenOnboarding,
    ...(args.externalId && { externalId: args.externalId }),
    time: erroredAt ?? args.archivedAt,
    environment: args.environment,
    ...(args.service && { service: args.service }),
    status: 'ERROR',
    note: 'ERROR is a technical failure upstream: give its support the externalId, time, environment and service above.',
  };
}

/** Only the three documented members of each history entry, in the store's order. */
export function historyDocument(history: readonly EvidenceHistoryEntry[]): EvidenceHistoryEntry[] {
  return history.map(({ status, at, source }) => ({ status, at, source }));
}
