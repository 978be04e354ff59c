/**
 * State in Redis, shared by several instances behind a load balancer (key names: ./keys.ts).
 *
 * Leases and rate windows follow the Redis server's clock (its TTLs), which every instance
 * shares; the injected clock stamps status times and judges hand-off keys' liveness.
 */
import { randomUUID } from 'node:crypto';
import type { Logger } from '../../logger.js';
import { ChangeFeed } from '../core/change-feed.js';
import type { StorePrimitives } from '../core/primitives.js';
import { SessionFeed } from '../core/session-feed.js';
import { sealerFor } from '../core/data-sealer.js';
import { SharedStore } from '../core/shared-store.js';
import type { Clock } from '../store.js';
import { RedisConnection } from './connection.js';
import type { RedisContext } from './context.js';
import { RedisKeys } from './keys.js';
import { fromHash } from './onboarding-hash.js';
import { onboardingPrimitives } from './onboardings.js';
import { outboxPrimitives } from './outbox.js';
import { queryPrimitives } from './query-requests.js';
import { sessionPrimitives } from './sessions.js';
import { ttlPrimitives } from './ttl-keys.js';

export interface RedisStoreOptions {
  /** Key prefix, so several kits (or tests) can share one database (default `okit:`). */
  prefix?: string;
  /** Stamps status times when an update brings none (default `Date.now`). */
  now?: Clock;
  /** Lets Redis delete records by itself, with the companion's retention policy (default: no TTL). */
  retention?: { finishedMs: number; maxAgeMs: number };
  /** Told when Redis becomes unreachable and when it is back (once each, not per retry). */
  logger?: Logger;
  /** An operation that gets no answer in this time fails with StoreUnavailableError (default 5 s). */
  operationTimeoutMs?: number;
  /** How long `connect` waits for a first connection before returning a store that keeps trying (default 5 s). */
  startTimeoutMs?: number;
  /** Encrypts personal data at rest (`ONBOARDING_DATA_KEY`'s format, docs/backend-api.md#personal-data-at-rest). */
  dataKey?: string;
}

export class RedisStore extends SharedStore {
  readonly prefix: string;
  readonly #conn: RedisConnection;
  readonly #feed: ChangeFeed;
  readonly #sessionFeed: SessionFeed;
  readonly #instanceId: string;
  readonly #logger: Logger | undefined;

  /** Connects to `url` (`redis[s]://[user:password@]host:port[/db]`). Waits up to `startTimeoutMs` for Redis; after that, keeps trying in the background. */
  static async connect(url: string, options: RedisStoreOptions = {}): Promise<RedisStore> {
    // A malformed key is refused before any connection is made.
    sealerFor(options.dataKey);
    await RedisConnection.load();
    const store = new RedisStore(url, options);
    await store.#start(options.startTimeoutMs ?? 5_000);
    return store;
  }

  private constructor(url: string, options: RedisStoreOptions) {
    const now = options.now ?? Date.now;
    const feeds = { feed: new ChangeFeed(), sessionFeed: new SessionFeed() };
    const conn = new RedisConnection(url, {
      logger: options.logger,
      operationTimeoutMs: options.operationTimeoutMs ?? 5_000,
      onReconnect: () => this.#catchUp(),
    });
    const ctx: RedisContext = {
      conn,
      keys: new RedisKeys(options.prefix ?? 'okit:'),
      instanceId: randomUUID(),
      now,
      retention: options.retention,
    };
    super(redisPrimitives(ctx, feeds), now, sealerFor(options.dataKey));
    this.prefix = ctx.keys.prefix;
    this.#conn = conn;
    this.#feed = feeds.feed;
    this.#sessionFeed = feeds.sessionFeed;
    this.#instanceId = ctx.instanceId;
    this.#logger = options.logger;
  }

  close(): Promise<void> {
    return this.shutdown();
  }

  async #start(timeoutMs: number): Promise<void> {
    const keys = new RedisKeys(this.prefix);
    const ready = await this.#conn.start(timeoutMs, {
      [keys.changes]: (message) => this.#onChange(message),
      [keys.sessionChanges]: (message) => this.#onSessionChange(message),
    });
    if (!ready)
      this.#logger?.warn('Redis store not reachable yet; its operations fail with store_unavailable until it is', { prefix: this.prefix });
  }

  /** A message of the change channel: `{ o: origin instance, r: the record's hash }`. */
  #onChange(message: string): void {
    try {
      const { o: origin, r: hash } = JSON.parse(message) as { o?: string; r?: Record<string, string> };
      if (origin === this.#instanceId || !hash) return;
      const record = fromHash(hash);
      if (record) this.#feed.emitIfNewer(record);
    } catch (e) {
      this.#logger?.warn('unreadable message on the Redis change channel', { error: e });
    }
  }

  /** A message of the session channel: `<instance id> <session id>`. */
  #onSessionChange(message: string): void {
    const sep = message.indexOf(' ');
    if (sep > 0 && message.slice(0, sep) !== this.#instanceId) this.#sessionFeed.emit(message.slice(sep + 1));
  }

  /**
   * After a reconnection, changes published while away are lost to this instance: hand every
   * watched onboarding's current record to its listeners (unless they already have it or a newer
   * one), and tell sessions' listeners to re-read, so none waits for news it missed.
   */
  #catchUp(): void {
    for (const id of this.#sessionFeed.ids()) this.#sessionFeed.emit(id);
    for (const token of this.#feed.tokens()) {
      this.get(token)
        .then((record) => record && this.#feed.emitIfNewer(record))
        .catch(() => {
          // The reading client is not back yet: its own reconnection catches up.
        });
    }
  }
}

function redisPrimitives(ctx: RedisContext, feeds: Pick<StorePrimitives, 'feed' | 'sessionFeed'>): StorePrimitives {
  const { purgeSessions, ...sessions } = sessionPrimitives(ctx);
  const { purgeEntries, ...outbox } = outboxPrimitives(ctx);
  return {
    ...feeds,
    ...onboardingPrimitives(ctx),
    ...ttlPrimitives(ctx),
    ...sessions,
    ...outbox,
    ...queryPrimitives(ctx),
    async purge(cutoffs) {
      return (await purgeSessions(cutoffs)) + (await purgeEntries(cutoffs.outboxBeforeMs));
    },
    async ping() {
      await ctx.conn.op(() => ctx.conn.client.ping());
    },
    async close() {
      feeds.feed.clear();
      feeds.sessionFeed.clear();
      await ctx.conn.close();
    },
  };
}
