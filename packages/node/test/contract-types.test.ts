/**
 * The SDK declares its own types so that it installs alone; this file holds them to the
 * contract's. Most checks are types: `npx tsc -p tsconfig.json --noEmit` (part of `npm run lint`)
 * fails when one drifts. The lists are also compared when the test runs.
 *
 * What the companion answers must fit the SDK's types (contract -> SDK); where the contract and
 * the SDK describe the same thing in full, they must be equal. The SDK's members the contract does
 * not declare are named in PENDING below, and nowhere else.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import * as contract from '@onboarding-kit/contract';
import type * as C from '@onboarding-kit/contract';
import * as sdk from '@onboarding-kit/node';
import type * as S from '@onboarding-kit/node';

type Equal<A, B> = (<T>() => T extends A ? 1 : 2) extends <T>() => T extends B ? 1 : 2 ? true : false;
type Fits<A, B> = [A] extends [B] ? true : false;

// Equal in both directions.
export const sameErrorCodes: Equal<S.ApiErrorCode, C.ApiErrorCode> = true;
export const sameOnboardingStatus: Equal<S.OnboardingStatus, C.OnboardingStatus> = true;
export const sameKeptCheck: Equal<S.KeptCheck, C.KeptCheck> = true;
export const sameImageRole: Equal<S.ImageRoleName, C.ImageRoleName> = true;
export const sameCreateSession: Equal<S.CreateSessionParams, C.CreateSessionRequest> = true;
export const sameHistoryEntry: Equal<S.SessionHistoryEntry, C.SessionHistoryEntry> = true;
export const sameOutcomeKind: Equal<S.QueryOutcomeKind, C.OutcomeKind> = true;
export const sameUpstreamFailure: Equal<S.UpstreamFailure, C.UpstreamFailure> = true;
export const sameSessionIntegrity: Equal<S.SessionIntegrity, C.SessionIntegrity> = true;

// What the companion sends fits what the SDK declares.
export const statusesFit: Fits<C.SessionStatus, S.SessionStatus> = true;
export const notificationTypesFit: Fits<C.NotificationType, S.NotificationType> = true;
export const createdSessionFits: Fits<C.CreateSessionResponse, S.CreatedSession> = true;
export const sessionViewFits: Fits<C.SessionView, S.SessionView> = true;
export const outcomeFits: Fits<C.Outcome, S.QueryOutcome> = true;
export const keptAnywayFits: Fits<C.KeptAnyway, S.KeptAnyway> = true;

// And the SDK declares nothing the contract lacks.
export const noExtraViewMember: Equal<Exclude<keyof S.SessionView, keyof C.SessionView>, never> = true;
export const noExtraOnboardingMember: Equal<Exclude<keyof S.SessionOnboarding, keyof C.SessionOnboarding>, never> = true;
export const noExtraCreatedMember: Equal<keyof S.CreatedSession, keyof C.CreateSessionResponse> = true;
export const noExtraOutcomeMember: Equal<keyof S.QueryOutcome, keyof C.Outcome> = true;

// Every notification type of the SDK's union has its own `data`.
export const queryData: Equal<Extract<S.OnboardingNotification, { type: 'query.completed' }>['data'], S.QueryCompletedData> = true;
export const sessionData: Equal<Extract<S.OnboardingNotification, { type: 'session.expired' }>['data'], S.SessionView> = true;
export const everyTypeInUnion: Equal<S.OnboardingNotification['type'], S.NotificationType> = true;

test("the error codes are the catalogue's, in its order", () => {
  assert.deepEqual([...sdk.API_ERROR_CODES], contract.API_ERROR_CODES);
});

test("every session status and notification type of the contract is one of the SDK's", () => {
  for (const status of contract.SESSION_STATUSES) assert.ok((sdk.SESSION_STATUSES as readonly string[]).includes(status), status);
  for (const type of contract.NOTIFICATION_TYPES) assert.ok((sdk.NOTIFICATION_TYPES as readonly string[]).includes(type), type);
});
