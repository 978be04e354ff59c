/**
 * How a status update changes a record: idempotent (a repeat changes nothing) and monotonic (a
 * terminal status is final, even against another terminal one). The Redis store applies the same
 * rules inside its Lua script (redis-scripts.ts), where they must stay in step with this file.
 */
import { isTerminalStatus } from '@onboarding-kit/contract';
import { copyRecord } from './change-feed.js';
import type { OnboardingRecord, StatusUpdate } from './store.js';

export interface StatusOutcome {
  record: OnboardingRecord;
  /** The status moved (history grew, subscribers are told). */
  changed: boolean;
  /** Something was written: a change, or the first externalId on a repeat of the current status. */
  touched: boolean;
}

export function applyStatusRules(current: OnboardingRecord, update: StatusUpdate, at: string): StatusOutcome {
  const record = copyRecord(current);
  if (isTerminalStatus(current.status) || current.status === update.status) {
    // A repeat may still carry the externalId an earlier message lacked; it fills the gap, never replaces.
    if (!current.externalId && update.externalId && current.status === update.status) {
      record.externalId = update.externalId;
      return { record, changed: false, touched: true };
    }
    return { record, changed: false, touched: false };
  }
  record.status = update.status;
  record.updatedAt = at;
  if (update.externalId) record.externalId = update.externalId;
  if (isTerminalStatus(update.status)) record.finishedAt = at;
  record.history.push({ status: update.status, at, source: update.source });
  return { record, changed: true, touched: true };
}
