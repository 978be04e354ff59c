/**
 * Where the companion keeps its state: onboardings, the hashes of their access keys, their status
 * history, and a change feed. Routes and the relay only talk to this interface, so a shared store
 * (Redis with pub/sub, for several instances behind a load balancer) can replace the in-memory
 * default without touching them.
 */
import type { OnboardingStatus } from '@onboarding-kit/contract';

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
}

export interface StatusUpdate {
  status: OnboardingStatus;
  source: StatusSource;
  externalId?: string;
  /** Defaults to now. */
  at?: string;
}

export interface ApplyResult {
  record: OnboardingRecord;
  /** False when the update repeated the current status or tried to leave a terminal one. */
  changed: boolean;
}

export type ChangeListener = (record: OnboardingRecord) => void;

export interface Store {
  /** Stores a new onboarding (status IN_PROCESS, one `creation` history entry). */
  create(record: Omit<OnboardingRecord, 'history' | 'updatedAt' | 'finishedAt'> & { history?: StatusEvent[] }): Promise<OnboardingRecord>;
  get(tokenOnboarding: string): Promise<OnboardingRecord | null>;
  /**
   * Applies a status change: idempotent (a repeat changes nothing) and monotonic (a terminal
   * status never moves). `null` for an unknown token. Subscribers hear about real changes only.
   */
  applyStatus(tokenOnboarding: string, update: StatusUpdate): Promise<ApplyResult | null>;
  /** Listens to changes of one onboarding; returns the unsubscribe function. */
  subscribe(tokenOnboarding: string, listener: ChangeListener): () => void;
  /** Tokens still IN_PROCESS (for a poller resuming after a restart). */
  listInProcess(): Promise<string[]>;
  /** Deletes onboardings finished before `finishedBefore`, and any created before `createdBefore`. Returns how many. */
  expire(cutoffs: { finishedBefore: Date; createdBefore: Date }): Promise<number>;
  close?(): Promise<void>;
}
