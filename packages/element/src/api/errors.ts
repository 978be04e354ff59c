import type { ApiErrorCode } from '@onboarding-kit/contract';

/** Codes of the companion's error bodies plus what can go wrong before a body arrives. */
export type CompanionErrorCode =
  | ApiErrorCode
  | 'network'
  | 'timeout'
  | 'aborted'
  | 'invalid_response'
  | 'http_error'
  | 'status_timeout'
  | (string & {});

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
