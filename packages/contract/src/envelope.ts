/** Shapes of the upstream's messages (spec sections 2, 4, 5 and 6). */
import type { RequestField, ServiceId } from './catalog.js';

export type OnboardingStatus = 'IN_PROCESS' | 'APPROVED' | 'REFUSED' | 'ERROR';
export type TerminalStatus = Exclude<OnboardingStatus, 'IN_PROCESS'>;
export const ONBOARDING_STATUSES: readonly OnboardingStatus[] = ['IN_PROCESS', 'APPROVED', 'REFUSED', 'ERROR'];

export function isOnboardingStatus(value: unknown): value is OnboardingStatus {
  return typeof value === 'string' && (ONBOARDING_STATUSES as readonly string[]).includes(value);
}
export function isTerminalStatus(value: unknown): value is TerminalStatus {
  return value === 'APPROVED' || value === 'REFUSED' || value === 'ERROR';
}

/** Body of `POST /api/service-api` (spec 2.2). */
export type ServiceRequest = { service: ServiceId | (string & {}) } & Partial<Record<RequestField, string>>;

export interface EnvelopeStatus {
  code: number;
  message: string;
}

/** Response of `POST /api/service-api` and of standalone-query webhooks (spec 2.3). */
export interface ServiceEnvelope<R extends object = Record<string, unknown>> {
  result?: R;
  status?: EnvelopeStatus;
  onboardingStatus?: TerminalStatus;
  externalId?: string;
}

/** Error body of the dedicated endpoints (spec 4.3-4.5). */
export interface StatusBody {
  status: EnvelopeStatus;
}

/** Body of `POST /api/token-generate` (spec 5). */
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

/** Body of `POST /api/token-history-onboarding` (spec 2.4). */
export interface OnboardingTokenRequest {
  document?: string;
  cpf?: string;
  cnpj?: string;
  name?: string;
  documentFiles?: DocumentFile[];
}
export interface OnboardingTokenResponse {
  tokenOnboarding: string;
  dateHourProcess: string;
}

/** Element of the array of `GET /api/customer` (spec 2.5). */
export interface CustomerRecord {
  tokenCustomer: string;
  type?: string;
  documentKey: string;
  name?: string;
  addInformation?: string;
  active: boolean;
  imageUrl?: string;
}

/** `GET /api/onboarding/report/{token}` and the onboarding webhook (spec 2.6); members beyond these not shown. */
export interface OnboardingReport {
  tokenOnboarding: string;
  status: OnboardingStatus;
  fields?: unknown;
  services?: unknown;
}
