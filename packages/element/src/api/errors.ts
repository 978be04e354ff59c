import type { ApiErrorCode } from '@onboarding-kit/contract';

/** What can go wrong on the page's side, before or without an error body from the companion. */
export type ClientErrorCode = 'network' | 'timeout' | 'aborted' | 'invalid_response' | 'http_error' | 'status_timeout' | 'session_invalid';

/** Codes of the companion's error bodies (the contract's catalogue) plus the page's own. */
export type CompanionErrorCode = ApiErrorCode | ClientErrorCode;

export interface CompanionErrorInit {
  code: CompanionErrorCode;
  message: string;
  /** HTTP status; 0 when no response arrived (network failure, timeout, abort). */
  status: number;
  field?: string;
  externalId?: string;
}

/** Every failure of the companion client, typed by `code`. Never carries the access key. */
export class CompanionError extends Error {
  readonly code: CompanionErrorCode;
  readonly status: number;
  readonly field: string | undefined;
  readonly externalId: string | undefined;

  constructor(init: CompanionErrorInit) {
    super(init.message);
    this.name = 'CompanionError';
    this.code = init.code;
    this.status = init.status;
    this.field = init.field;
    this.externalId = init.externalId;
  }

  /** Worth trying the same request again (network trouble, timeouts, 429 and 5xx). */
  get retryable(): boolean {
    return this.status === 0 ? this.code !== 'aborted' : this.status === 429 || this.status >= 500;
  }
}
