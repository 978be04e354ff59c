/**
 * At most `limit` creations under way at once per client address and per session, counted in the
 * store (rules/places.ts) so that every instance on it shares one count: a few slow uploads from
 * one client cannot take every creation turn, however many instances the load balancer spreads
 * them over. A place lapses with the creation's claim (CREATION_HOLD_MS), so an instance that dies
 * mid-creation blocks that client no longer than its claim. A limit of 0 counts nothing.
 */
import { randomUUID } from 'node:crypto';
import { CREATION_HOLD_MS } from '../config/defaults.js';
import { DomainError } from '../errors/domain-error.js';
import type { Store } from '../store/index.js';

/** Seconds a creation refused for too many at once from its client is told to wait. */
const RETRY_AFTER_S = 1;

const NOTHING = async () => {};

export class CreationPlaces {
  constructor(
    private readonly store: Pick<Store, 'takePlace' | 'leavePlace'>,
    readonly limit: number,
  ) {}

  /**
   * A place under `key` (`address:<client>`, `session:<id>`) for one creation, or 429
   * `rate_limited` naming `who`. Resolves to what gives it back; giving back twice does nothing.
   */
  async enter(key: string, who: string): Promise<() => Promise<void>> {
    if (this.limit === 0) return NOTHING;
    const holder = randomUUID();
    if (!(await this.store.takePlace(`creation:${key}`, holder, this.limit, CREATION_HOLD_MS)))
      throw new DomainError('rate_limited', `Too many onboardings are being created at once ${who}; wait for them to finish.`, {
        retryAfterS: RETRY_AFTER_S,
      });
    let left = false;
    return async () => {
      if (left) return;
      left = true;
      // A place the store could not take back lapses with the claim by itself: the answer is not held for it.
      await this.store.leavePlace(`creation:${key}`, holder).catch(() => {});
    };
  }
}
