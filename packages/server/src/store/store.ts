/**
 * Where the companion keeps its state: onboardings, the hashes of their access keys, their status
 * history, and a change feed. Routes and the relay only talk to this interface, so a shared store
 * (Redis with pub/sub, for several instances behind a load balancer) can replace the in-memory
 * default without touching them.
 *
 * Every operation of a store that cannot be reached rejects with `StoreUnavailableError`
 * (./errors.ts), never hangs and never crashes the process; the store recovers by itself. Such a
 * rejection does not say the operation did not happen: its outcome is unknown (see the error).
 */
import type { KeptAnyway, OnboardingStatus } from '@onboarding-kit/contract';
import type { BackendState } from './backend-state.js';

export type StatusSource = 'creation' | 'webhook' | 'poll';

export interface StatusEvent {
  status: OnboardingStatus;
  /** ISO 8601. */
  at: string;
  source: StatusSource;
}

export interface OnboardingRecord {
  tokenOnboarding: string;
  status: OnboardingStatus;
  createdAt: string;
  updatedAt: string;
  externalId?: string;
  /** SHA-256 of the page's access key, hex. The key itself is never stored. */
  accessKeyHash: string;
  history: StatusEvent[];
  /** When a terminal status was reached (ISO 8601); drives retention. */
  finishedAt?: string;
  /** The session this onboarding was created in (docs/backend-api.md#sessions). */
  sessionId?: string;
  /** Hashes of further access keys issued by idempotent replays of the creation; each opens the onboarding as `accessKeyHash` does. */
  moreAccessKeyHashes?: string[];
  /** Photos the person kept although a check of the page refused them, as the creation declared them. */
  keptAnyway?: KeptAnyway;
}

export interface StatusUpdate {
  status: OnboardingStatus;
  source: StatusSource;
  externalId?: string;
  /** Defaults to now. */
  at?: string;
  /**
   * The `services` member of the upstream report that brought this status. Never kept on the
   * onboarding (whose record holds no personal data): the status hook hands it to the session,
   * which keeps it sealed (sessions/status-hook.ts).
   */
  services?: unknown;
}

export interface ApplyResult {
  record: OnboardingRecord;
  /** False when the update repeated the current status or tried to leave a terminal one. */
  changed: boolean;
}

export type ChangeListener = (record: OnboardingRecord) => void;

/** Milliseconds since the epoch; injected so expiry, leases and rate windows can be tested without waiting. */
export type Clock = () => number;

export interface RateLimitDecision {
  allowed: boolean;
  /** Requests counted in the current window (a refused one is not counted). */
  count: number;
  /** Until the window ends and the count starts again from zero. */
  retryAfterMs: number;
}

/** Every store also keeps the backend's state: sessions, idempotency keys and the notification outbox (./backend-state.ts). */
export interface Store extends BackendState {
  /** Stores a new onboarding (status IN_PROCESS, one `creation` history entry). */
  create(record: Omit<OnboardingRecord, 'history' | 'updatedAt' | 'finishedAt'> & { history?: StatusEvent[] }): Promise<OnboardingRecord>;
  get(tokenOnboarding: string): Promise<OnboardingRecord | null>;
  /**
   * Applies a status change: idempotent (a repeat changes nothing) and monotonic (a terminal
   * status never moves). `null` for an unknown token. Subscribers hear about real changes only.
   */
  applyStatus(tokenOnboarding: string, update: StatusUpdate): Promise<ApplyResult | null>;
  /**
   * Listens to changes of one onboarding, wherever they were applied (a shared store delivers
   * changes made by other instances too), in order, each once; returns the unsubscribe function.
   * After a gap in a shared store's feed (a reconnection), listeners are given the current record
   * unless they already had it, so a change made during the gap is not lost; one subscribed
   * shortly before the gap may so get a record it has already read, and must tolerate that.
   */
  subscribe(tokenOnboarding: string, listener: ChangeListener): () => void;
  /** Tokens still IN_PROCESS (for a poller resuming after a restart). */
  listInProcess(): Promise<string[]>;
  /**
   * Replaces an onboarding's record with `redact(record)` (rules/redaction.ts), its listeners not
   * told; false for an unknown token.
   */
  redactOnboarding(tokenOnboarding: string, redact: (record: OnboardingRecord) => OnboardingRecord): Promise<boolean>;
  /** Deletes onboardings finished before `finishedBefore`, and any created before `createdBefore`. Returns how many. */
  expire(cutoffs: { finishedBefore: Date; createdBefore: Date }): Promise<number>;
  /**
   * Takes the lease `name` for `owner` for `ttlMs` if it is free, has lapsed or is already
   * `owner`'s (then it is extended). One holder at a time across every instance on the store, and
   * an instance that dies stops holding it `ttlMs` after its last renewal.
   */
  acquireLease(name: string, owner: string, ttlMs: number): Promise<boolean>;
  /** Extends `owner`'s lease; false when it lapsed or someone else holds it (stop the work it guards). */
  renewLease(name: string, owner: string, ttlMs: number): Promise<boolean>;
  /**
   * `renewLease` for many leases in one round trip (one transaction, one script): each lease is
   * renewed, on its own terms, only if `owner` still holds it. Returns the names renewed, each
   * once; a name missing from the answer lapsed or is someone else's. An instance holding
   * thousands of leases so pays one commit per renewal period, not one per lease.
   */
  renewLeases(names: string[], owner: string, ttlMs: number): Promise<string[]>;
  /** Gives the lease up at once; false when `owner` did not hold it. */
  releaseLease(name: string, owner: string): Promise<boolean>;
  /**
   * Counts one request of `key` in a fixed window of `windowMs` that starts with the key's first
   * counted request, unless `limit` requests were already counted: refused requests do not count,
   * so a client that keeps knocking is let in again when the window ends. A `limit` of 0 counts
   * nothing: it reads the window (its count and when it ends).
   */
  consumeRateLimit(key: string, limit: number, windowMs: number): Promise<RateLimitDecision>;
  /**
   * Takes one of the `limit` places under `key` for `holder` (rules/places.ts): false when
   * `limit` others hold theirs, across every instance on the store. A place lapses `ttlMs` after
   * it was taken, so an instance that dies holding it blocks no one for longer; the same holder
   * asking again keeps its one place, extended.
   */
  takePlace(key: string, holder: string, limit: number, ttlMs: number): Promise<boolean>;
  /** Gives `holder`'s place under `key` back at once; false when it held none (or it had lapsed). */
  leavePlace(key: string, holder: string): Promise<boolean>;
  /** Whether personal data is encrypted at rest (a data key was given); the kit's stores say, a store of one's own may not. */
  readonly sealsPersonalData?: boolean;
  /** Resolves when the store answers (for health checks). */
  ping(): Promise<void>;
  close?(): Promise<void>;
}
