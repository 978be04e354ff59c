/** The default store: in process memory, for one companion instance. */
import { isTerminalStatus } from '@onboarding-kit/contract';
import type { ApplyResult, ChangeListener, OnboardingRecord, StatusUpdate, Store } from './store.js';

const copy = (r: OnboardingRecord): OnboardingRecord => ({ ...r, history: r.history.map((h) => ({ ...h })) });

export class MemoryStore implements Store {
  private readonly records = new Map<string, OnboardingRecord>();
  private readonly listeners = new Map<string, Set<ChangeListener>>();

  async create(input: Parameters<Store['create']>[0]): Promise<OnboardingRecord> {
    const record: OnboardingRecord = {
      ...input,
      updatedAt: input.createdAt,
      history: input.history ?? [{ status: input.status, at: input.createdAt, source: 'creation' }],
    };
    this.records.set(record.tokenOnboarding, record);
    return copy(record);
  }

  async get(token: string): Promise<OnboardingRecord | null> {
    const r = this.records.get(token);
    return r ? copy(r) : null;
  }

  async applyStatus(token: string, update: StatusUpdate): Promise<ApplyResult | null> {
    const r = this.records.get(token);
    if (!r) return null;
    // Terminal is final: a late or out-of-order event never moves it, not even to another terminal.
    if (isTerminalStatus(r.status) || r.status === update.status) {
      if (!r.externalId && update.externalId && r.status === update.status) r.externalId = update.externalId;
      return { record: copy(r), changed: false };
    }
    const at = update.at ?? new Date().toISOString();
    r.status = update.status;
    r.updatedAt = at;
    if (update.externalId) r.externalId = update.externalId;
    if (isTerminalStatus(update.status)) r.finishedAt = at;
    r.history.push({ status: update.status, at, source: update.source });
    const snapshot = copy(r);
    for (const listener of this.listeners.get(token) ?? []) {
      try {
        listener(copy(snapshot));
      } catch {
        // One broken subscriber must not keep the news from the others.
      }
    }
    return { record: snapshot, changed: true };
  }

  subscribe(token: string, listener: ChangeListener): () => void {
    let set = this.listeners.get(token);
    if (!set) this.listeners.set(token, (set = new Set()));
    set.add(listener);
    return () => {
      set.delete(listener);
      if (set.size === 0 && this.listeners.get(token) === set) this.listeners.delete(token);
    };
  }

  async listInProcess(): Promise<string[]> {
    return [...this.records.values()].filter((r) => r.status === 'IN_PROCESS').map((r) => r.tokenOnboarding);
  }

  async expire({ finishedBefore, createdBefore }: { finishedBefore: Date; createdBefore: Date }): Promise<number> {
    let n = 0;
    for (const [token, r] of this.records) {
      const finished = r.finishedAt !== undefined && Date.parse(r.finishedAt) < finishedBefore.getTime();
      if (finished || Date.parse(r.createdAt) < createdBefore.getTime()) {
        this.records.delete(token);
        n++;
      }
    }
    return n;
  }

  /** How many onboardings are held (for tests and health checks). */
  get size(): number {
    return this.records.size;
  }
}
