/** Shapes of the upstream's messages (docs/upstream-api.md). */
import type { RequestField, ServiceId } from './catalog.js';
import { isNonEmptyString, isRecord } from './guards.js';

export type OnboardingStatus = 'IN_PROCESS' | 'APPROVED' | 'REFUSED' | 'ERROR';
export type TerminalStatus = Exclude<OnboardingStatus, 'IN_PROCESS'>;
export const ONBOARDING_STATUSES: readonly OnboardingStatus[] = ['IN_PROCESS', 'APPROVED', 'REFUSED', 'ERROR'];

export function isOnboardingStatus(value: unknown): value is OnboardingStatus {
  return typeof value === 'string' && (ONBOARDING_STATUSES as readonly string[]).includes(value);
}
/** The statuses an onboarding never leaves (docs/upstream-api.md#onboarding-status). */
export const TERMINAL_STATUSES: readonly TerminalStatus[] = ['APPROVED', 'REFUSED', 'ERROR'];
/** Whether `value` is a final outcome: event streams end and polling stops on it. */
export function isTerminalStatus(value: unknown): value is TerminalStatus {
  return value === 'APPROVED' || value === 'REFUSED' || value === 'ERROR';
}

/** Body of `POST /api/service-api` (docs/upstream-api.md#request-fields). */
export type ServiceRequest = { service: ServiceId | (string & {}) } & Partial<Record<RequestField, string>>;

export interface EnvelopeStatus {
  code: number;
  message: string;
}

/** Response of `POST /api/service-api` and of standalone-query webhooks (docs/upstream-api.md#response-envelope). */
export interface ServiceEnvelope<R extends object = Record<string, unknown>> {
  result?: R;
  status?: EnvelopeStatus;
  onboardingStatus?: TerminalStatus;
  externalId?: string;
}

/** Error body of the dedicated endpoints (docs/upstream-api.md#errors-and-classification). */
export interface StatusBody {
  status: EnvelopeStatus;
}

/** Body of `POST /api/token-generate` (docs/upstream-api.md#authentication-and-token-lifetime). */
export interface TokenRequest {
  client: string;
  secret: string;
}
export interface TokenResponse {
  access_token: string;
  /** Seconds. */
  expires_in: number;
}

export interface DocumentFile {
  documentFileType?: string;
  /** Data URI (`data:image/jpeg;base64,...`). */
  document?: string;
  documentUrl?: string;
}

/** Body of `POST /api/token-history-onboarding` (docs/upstream-api.md#onboarding-creation). */
export interface OnboardingTokenRequest {
  document?: string;
  cpf?: string;
  cnpj?: string;
  name?: string;
  documentFiles?: DocumentFile[];
}
export interface OnboardingTokenResponse {
  tokenOnboarding: string;
  /** Present when the upstream sent it; never made up. */
  dateHourProcess?: string;
}

/** Element of the array of `GET /api/customer` (docs/upstream-api.md#customer-lookup). */
export interface CustomerRecord {
  tokenCustomer: string;
  type?: string;
  documentKey: string;
  name?: string;
  addInformation?: string;
  active: boolean;
  imageUrl?: string;
}

/**
 * `GET /api/onboarding/report/{token}` and the onboarding webhook (docs/upstream-api.md#onboarding-report).
 * Members the upstream sends beyond these are kept as sent; the kit reads none of them.
 */
export interface OnboardingReport {
  tokenOnboarding: string;
  status: OnboardingStatus;
  /** What support asks for about an `ERROR` (docs/upstream-api.md, rule 2); present only when non-empty. */
  externalId?: string;
  fields?: unknown;
  services?: unknown;
  [member: string]: unknown;
}

/**
 * The report as the kit reads it: `null` unless it names a token and a known status. An
 * `externalId` that is not a non-empty string is dropped, so a present one can be trusted.
 */
export function parseOnboardingReport(body: unknown): OnboardingReport | null {
  if (!isRecord(body)) return null;
  const { tokenOnboarding, status, externalId, ...rest } = body;
  if (typeof tokenOnboarding !== 'string' || !tokenOnboarding || !isOnboardingStatus(status)) return null;
  return { ...rest, tokenOnboarding, status, ...(isNonEmptyString(externalId) && { externalId }) };
}
