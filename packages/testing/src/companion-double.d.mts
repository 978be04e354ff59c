import type { Hono } from 'hono';

/** A session as a test sets it up (`POST __control { sessions: [...] }`); the double keeps only its secret's hash. */
export interface DoubleSessionInit {
  clientSecret: string;
  /** Default: a random `ses_...`. */
  id?: string;
  /** Default `open`; `submitted` or `completed` make it used, `expired` expired, `cancelled` cancelled (410 `session_cancelled`). */
  status?: 'open' | 'submitted' | 'completed' | 'expired' | 'cancelled';
  /** ISO time; default 30 minutes from now. */
  expiresAt?: string;
  prefill?: { cpf?: string; cnpj?: string; name?: string };
  documentTypes?: string[];
  /** Default `pt-BR`. */
  locale?: string;
  returnUrl?: string;
  /** The page offers the CPF and name its document's OCR reads (`POST /v1/session/document-prefill`). */
  prefillFromDocument?: boolean;
  /** Optional steps (`proof-of-address`). */
  steps?: string[];
}

/** Path prefix the double answers under: `/test-companion/<namespace>/...`. */
export declare const COMPANION_PREFIX: string;
/** The double as a Hono app (for driving it without a dev server). */
export declare function createCompanionDoubleApp(): Hono;
/** Web Test Runner / dev-server plugin that answers `/test-companion/...` before the dev server. */
export declare function companionDouble(): {
  name: string;
  serverStart(args: { server?: import('node:http').Server }): void;
  serverStop(): void;
};
