/**
 * How a status update changes an onboarding: idempotent (a repeat changes nothing) and monotonic
 * (a terminal status is final, even against another terminal one). The Redis store applies the
 * same rule inside its Lua script; `STATUS_TRANSITIONS` is the table the conformance suite runs
 * against every store, the script included, so the two cannot drift apart unnoticed.
 */
import { isTerminalStatus, ONBOARDING_STATUSES, type OnboardingStatus } from '@onboarding-kit/contract';
import type { OnboardingRecord, StatusUpdate } from '../store.js';
import { copyRecord } from './copies.js';

export interface StatusOutcome {
  record: OnboardingRecord;
  /** The status moved (history grew, subscribers are told). */
  changed: boolean;
  /** Something was written: a change, or the first externalId on a repeat of the current status. */
  touched: boolean;
}

/** Whether an onboarding in `from` moves to `to`. */
export const statusMoves = (from: OnboardingStatus, to: OnboardingStatus): boolean => !isTerminalStatus(from) && from !== to;

/** Every pair of statuses and whether an update moves the first to the second. */
export const STATUS_TRANSITIONS: ReadonlyArray<{ from: OnboardingStatus; to: OnboardingStatus; moves: boolean }> =
  ONBOARDING_STATUSES.flatMap((from) => ONBOARDING_STATUSES.map((to) => ({ from, to, moves: statusMoves(from, to) })));

export function applyStatusRules(current: OnboardingRecord, update: StatusUpdate, at: string): StatusOutcome {
  const record = copyRecord(current);
  if (!statusMoves(current.status, update.status)) {
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
