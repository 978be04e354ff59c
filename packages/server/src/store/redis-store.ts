/**
 * State in Redis, shared by several instances behind a load balancer.
 *
 * Keys, all under the prefix (default `okit:`):
 * - `onboarding:<token>`: hash of the record (the history as one JSON array field); expires at
 *   `createdAt + maxAge`, and `retention` after reaching a terminal status if that is sooner.
 * - `in-process`: set of the tokens still IN_PROCESS; `created`, `finished`: sorted sets of
 *   tokens by creation and outcome time (ms), which `expire()` reads to find old records.
 * - `lease:<name>`: the owner id, with the lease's TTL. `rate:<key>`: a window's counter, with
 *   the window's TTL.
 * - sessions, their secrets, idempotency keys and the outbox, and an onboarding's `sessionId` and
 *   `moreAccessKeyHash:<hash>` fields: see redis-backend-state.ts.
 * - channel `changes`: every status change, with the record, published by the same Lua script
 *   that applies it. Each instance subscribes once to this one channel and fans changes out to
 *   its own listeners, so subscribing to an onboarding is immediate and cannot miss a change.
 *
 * Leases and rate windows follow the Redis server's clock (its TTLs), which every instance
 * shares; the injected clock only stamps status times.
 */
import { createHash, randomUUID } from 'node:crypto';
// The Redis client is loaded when a Redis store connects, not when this module is imported: a
// companion on another store never pays its memory (about 17 MB resident).
type RedisModule = typeof import('redis');
let redisModule: RedisModule | undefined;
import { TERMINAL_STATUSES, type OnboardingStatus } from '@onboarding-kit/contract';
import type { Logger } from '../logger.js';
import { ChangeFeed } from './shared/change-feed.js';
import { copyRecord } from './rules/copies.js';
import { StoreUnavailableError } from './errors.js';
import { msOf } from './rules/iso-time.js';
import type { SessionStatus } from '@onboarding-kit/contract';
import type {
  BackendPurgeCutoffs, BackendState, IdempotencyState, OutboxEntry, OutboxState, OutboxUpdate, SessionChangeListener, SessionRecord, SessionSecretKind,
} from './backend-state.js';
import { onboardingExtraFields, onboardingExtrasFrom, RedisBackendState } from './redis-backend-state.js';
import { ACQUIRE_LEASE, APPLY_STATUS, CONSUME_RATE, RELEASE_LEASE, RENEW_LEASE, RENEW_LEASES } from './redis-scripts.js';
import type {
  ApplyResult, ChangeListener, Clock, OnboardingRecord, RateLimitDecision, StatusUpdate, Store,
} from './store.js';

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
}

class LuaScript {
  readonly sha: string;
  constructor(readonly source: string) {
    this.sha = createHash('sha1').update(source).digest('hex');
  }
}

const SCRIPTS = {
  applyStatus: new LuaScript(APPLY_STATUS),
  acquireLease: new LuaScript(ACQUIRE_LEASE),
  renewLease: new LuaScript(RENEW_LEASE),
  renewLeases: new LuaScript(RENEW_LEASES),
  releaseLease: new LuaScript(RELEASE_LEASE),
  consumeRate: new LuaScript(CONSUME_RATE),
};

/** Leases per renewal script: Redis runs a script alone, so a huge one would hold every other client up. */
const RENEW_CHUNK = 500;

/** Replies that say the server cannot serve now (loading, read-only replica, out of memory...), not that a command is wrong. */
const UNAVAILABLE_REPLY = /^(LOADING|BUSY|READONLY|MASTERDOWN|OOM|CLUSTERDOWN|TRYAGAIN|NOREPLICAS|MISCONF)\b/;

function toStoreError(e: unknown): unknown {
  if (e instanceof StoreUnavailableError) return e;
  if (redisModule && e instanceof redisModule.ErrorReply) return UNAVAILABLE_REPLY.test(e.message) ? new StoreUnavailableError(`The Redis store cannot serve now (${e.message.split(' ')[0]}).`, { cause: e }) : e;
  // Everything else the client throws is about the connection: closed, offline, reset, timed out.
  if (e instanceof Error) return new StoreUnavailableError(`The Redis store is unreachable (${e.name}).`, { cause: e });
  return e;
}

type Client = ReturnType<RedisModule['createClient']>;

export class RedisStore implements Store, BackendState {
  readonly prefix: string;
  private readonly client: Client;
  private readonly sub: Client;
  private readonly feed = new ChangeFeed();
  private readonly instanceId = randomUUID();
  private readonly now: Clock;
  private readonly retention: RedisStoreOptions['retention'];
  private readonly logger: Logger | undefined;
  private readonly operationTimeoutMs: number;
  private reachable = true;
  private readonly connectedBefore = new Set<Client>();
  private closed = false;
  private readonly backend: RedisBackendState;

  /** Connects to `url` (`redis[s]://[user:password@]host:port[/db]`). Waits up to `startTimeoutMs` for Redis; after that, keeps trying in the background. */
  static async connect(url: string, options: RedisStoreOptions = {}): Promise<RedisStore> {
    redisModule ??= await import('redis');
    const store = new RedisStore(url, options);
    await store.start(options.startTimeoutMs ?? 5_000);
    return store;
  }

  private constructor(url: string, options: RedisStoreOptions) {
    this.prefix = options.prefix ?? 'okit:';
    this.now = options.now ?? Date.now;
    this.retention = options.retention;
    this.logger = options.logger;
    this.operationTimeoutMs = options.operationTimeoutMs ?? 5_000;
    this.client = redisModule!.createClient({
      url,
      // Fail at once while disconnected, rather than queue commands that would run late or never.
      disableOfflineQueue: true,
      // A connection through a NAT or load balancer can die silently; a ping finds out.
      pingInterval: 10_000,
      socket: { connectTimeout: 5_000, reconnectStrategy: (retries) => Math.min(50 * 2 ** retries, 2_000) },
    });
    // The subscriber's SUBSCRIBE must wait for its connection, so its queue stays on.
    this.sub = this.client.duplicate({ disableOfflineQueue: false });
    // node-redis emits 'error' on every failed attempt; unhandled, an 'error' event would crash the process.
    this.client.on('error', (e: unknown) => this.markUnreachable(e));
    this.sub.on('error', (e: unknown) => this.markUnreachable(e));
    this.client.on('ready', () => {
      this.markReachable();
      this.catchUp(this.client);
    });
    this.sub.on('ready', () => this.catchUp(this.sub));
    this.backend = new RedisBackendState(
      {
        client: this.client, prefix: this.prefix, op: (fn) => this.op(fn), script: (script, keys, args) => this.script(script, keys, args),
        instanceId: this.instanceId, now: this.now,
      },
      (token) => this.key('onboarding', token),
    );
  }

  private get channel(): string {
    return `${this.prefix}changes`;
  }

  private key(kind: 'onboarding' | 'lease' | 'rate', id: string): string {
    return `${this.prefix}${kind}:${id}`;
  }

  private get inProcessKey(): string {
    return `${this.prefix}in-process`;
  }

  private get createdKey(): string {
    return `${this.prefix}created`;
  }

  private get finishedKey(): string {
    return `${this.prefix}finished`;
  }

  private async start(timeoutMs: number): Promise<void> {
    const connected = Promise.all([
      this.client.connect(),
      this.sub.connect().then(() =>
        Promise.all([
          this.sub.subscribe(this.channel, (message) => this.onMessage(message)),
          this.sub.subscribe(`${this.prefix}session-changes`, (message) => this.backend.onSessionMessage(message)),
        ]),
      ),
    ]);
    // Until connected, failures arrive as 'error' events and operations report them; only closing ends the attempts.
    connected.catch(() => {});
    let timer: ReturnType<typeof setTimeout> | undefined;
    const ready = await Promise.race([
      connected.then(() => true, () => false),
      new Promise<boolean>((resolve) => (timer = setTimeout(() => resolve(false), timeoutMs))),
    ]);
    clearTimeout(timer);
    if (!ready) this.logger?.warn('Redis store not reachable yet; its operations fail with store_unavailable until it is', { prefix: this.prefix });
  }

  async create(input: Parameters<Store['create']>[0]): Promise<OnboardingRecord> {
    const record: OnboardingRecord = {
      ...input,
      updatedAt: input.createdAt,
      history: input.history ?? [{ status: input.status, at: input.createdAt, source: 'creation' }],
    };
    const token = record.tokenOnboarding;
    const key = this.key('onboarding', token);
    const createdMs = msOf(record.createdAt);
    await this.op(async () => {
      const m = this.client.multi().del(key).hSet(key, toHash(record));
      if (this.retention) m.pExpireAt(key, createdMs + this.retention.maxAgeMs);
      if (record.status === 'IN_PROCESS') m.sAdd(this.inProcessKey, token);
      else m.sRem(this.inProcessKey, token);
      m.zAdd(this.createdKey, { score: createdMs, value: token });
      if (record.finishedAt) m.zAdd(this.finishedKey, { score: msOf(record.finishedAt), value: token });
      else m.zRem(this.finishedKey, token);
      await m.exec();
    });
    this.feed.forget(token);
    return copyRecord(record);
  }

  async get(token: string): Promise<OnboardingRecord | null> {
    const hash = await this.op(() => this.client.hGetAll(this.key('onboarding', token)));
    return fromHash(hash as Record<string, string>);
  }

  async applyStatus(token: string, update: StatusUpdate): Promise<ApplyResult | null> {
    const at = update.at ?? new Date(this.now()).toISOString();
    const entry = JSON.stringify({ status: update.status, at, source: update.source });
    const reply = (await this.op(() =>
      this.script(SCRIPTS.applyStatus, [this.key('onboarding', token), this.inProcessKey, this.finishedKey], [
        token, update.status, at, String(msOf(at)), entry, update.externalId ?? '', TERMINAL_STATUSES.join(' '),
        this.channel, this.instanceId, this.retention ? String(this.retention.finishedMs) : '',
      ]),
    )) as [number, string[]] | null;
    if (!reply) return null;
    const record = fromHash(pairs(reply[1]));
    if (!record) return null;
    const changed = Number(reply[0]) === 1;
    // Local listeners hear at once; this instance skips its own message when it comes back from the channel.
    if (changed) this.feed.emitIfNewer(record);
    return { record, changed };
  }

  subscribe(token: string, listener: ChangeListener): () => void {
    return this.feed.subscribe(token, listener);
  }

  async listInProcess(): Promise<string[]> {
    return this.op(async () => {
      const tokens = await this.client.sMembers(this.inProcessKey);
      if (tokens.length === 0) return [];
      const pipeline = this.client.multi();
      for (const t of tokens) pipeline.exists(this.key('onboarding', t));
      const exists = (await pipeline.execAsPipeline()) as unknown as number[];
      // A record Redis expired by its TTL leaves its token behind in the set: drop it there too.
      const gone = tokens.filter((_, i) => Number(exists[i]) === 0);
      if (gone.length) await this.client.sRem(this.inProcessKey, gone);
      return tokens.filter((_, i) => Number(exists[i]) === 1);
    });
  }

  async expire({ finishedBefore, createdBefore }: { finishedBefore: Date; createdBefore: Date }): Promise<number> {
    return this.op(async () => {
      const [old, finished] = await Promise.all([
        this.client.zRange(this.createdKey, '-inf', `(${createdBefore.getTime()}`, { BY: 'SCORE' }),
        this.client.zRange(this.finishedKey, '-inf', `(${finishedBefore.getTime()}`, { BY: 'SCORE' }),
      ]);
      const tokens = [...new Set([...old, ...finished])];
      let deleted = 0;
      for (let i = 0; i < tokens.length; i += 200) {
        const m = this.client.multi();
        for (const t of tokens.slice(i, i + 200)) {
          m.del(this.key('onboarding', t)).sRem(this.inProcessKey, t).zRem(this.createdKey, t).zRem(this.finishedKey, t);
        }
        const replies = (await m.exec()) as unknown as number[];
        // Every fourth reply is a DEL: count the records that were still there (TTLs may have taken some).
        for (let j = 0; j < replies.length; j += 4) deleted += Number(replies[j]);
      }
      return deleted;
    });
  }

  async acquireLease(name: string, owner: string, ttlMs: number): Promise<boolean> {
    return (await this.op(() => this.script(SCRIPTS.acquireLease, [this.key('lease', name)], [owner, String(ttlMs)]))) === 1;
  }

  async renewLease(name: string, owner: string, ttlMs: number): Promise<boolean> {
    return (await this.op(() => this.script(SCRIPTS.renewLease, [this.key('lease', name)], [owner, String(ttlMs)]))) === 1;
  }

  async renewLeases(names: string[], owner: string, ttlMs: number): Promise<string[]> {
    const unique = [...new Set(names)];
    if (unique.length === 0) return [];
    const chunks: string[][] = [];
    for (let i = 0; i < unique.length; i += RENEW_CHUNK) chunks.push(unique.slice(i, i + RENEW_CHUNK));
    // The chunks go out together on the one connection (node-redis pipelines them): one round trip.
    const flags = await this.op(() =>
      Promise.all(chunks.map((chunk) => this.script(SCRIPTS.renewLeases, chunk.map((n) => this.key('lease', n)), [owner, String(ttlMs)]) as Promise<number[]>)),
    );
    return chunks.flatMap((chunk, c) => chunk.filter((_, i) => Number(flags[c]![i]) === 1));
  }

  async releaseLease(name: string, owner: string): Promise<boolean> {
    return (await this.op(() => this.script(SCRIPTS.releaseLease, [this.key('lease', name)], [owner]))) === 1;
  }

  async consumeRateLimit(key: string, limit: number, windowMs: number): Promise<RateLimitDecision> {
    const [allowed, count, left] = (await this.op(() =>
      this.script(SCRIPTS.consumeRate, [this.key('rate', key)], [String(limit), String(windowMs)]),
    )) as [number, number, number];
    return { allowed: allowed === 1, count: Number(count), retryAfterMs: Number(left) };
  }

  // The backend's state: sessions, idempotency keys and the outbox (redis-backend-state.ts).
  createSession(record: SessionRecord, secrets: { client: string; capture: string }): Promise<void> { return this.backend.createSession(record, secrets); }
  getSession(id: string): Promise<SessionRecord | null> { return this.backend.getSession(id); }
  findSessionBySecret(kind: SessionSecretKind, secretHash: string): Promise<SessionRecord | null> { return this.backend.findSessionBySecret(kind, secretHash); }
  addSessionSecret(id: string, kind: SessionSecretKind, secretHash: string): Promise<boolean> { return this.backend.addSessionSecret(id, kind, secretHash); }
  replaceSession(next: SessionRecord, expectedVersion: number): Promise<boolean> { return this.backend.replaceSession(next, expectedVersion); }
  subscribeSession(id: string, listener: SessionChangeListener): () => void { return this.backend.subscribeSession(id, listener); }
  putHandoffKey(hash: string, sessionId: string, liveUntilMs: number): Promise<boolean> { return this.backend.putHandoffKey(hash, sessionId, liveUntilMs); }
  findHandoffKey(hash: string): Promise<string | null> { return this.backend.findHandoffKey(hash); }
  listSessionsByReference(reference: string, limit: number): Promise<SessionRecord[]> { return this.backend.listSessionsByReference(reference, limit); }
  listSessionsByStatus(status: SessionStatus, options: { limit: number; expiresBefore?: Date }): Promise<SessionRecord[]> { return this.backend.listSessionsByStatus(status, options); }
  reserveIdempotencyKey(key: string, fingerprint: string, options: { ttlMs: number; pendingTtlMs: number }): Promise<IdempotencyState> { return this.backend.reserveIdempotencyKey(key, fingerprint, options); }
  completeIdempotencyKey(key: string, result: string, ttlMs: number): Promise<void> { return this.backend.completeIdempotencyKey(key, result, ttlMs); }
  releaseIdempotencyKey(key: string): Promise<void> { return this.backend.releaseIdempotencyKey(key); }
  addAccessKey(tokenOnboarding: string, accessKeyHash: string): Promise<boolean> { return this.backend.addAccessKey(tokenOnboarding, accessKeyHash); }
  enqueueNotification(entry: OutboxEntry): Promise<boolean> { return this.backend.enqueueNotification(entry); }
  dueNotifications(nowMs: number, limit: number): Promise<OutboxEntry[]> { return this.backend.dueNotifications(nowMs, limit); }
  updateNotification(id: string, update: OutboxUpdate): Promise<boolean> { return this.backend.updateNotification(id, update); }
  getNotification(id: string): Promise<OutboxEntry | null> { return this.backend.getNotification(id); }
  listNotifications(options: { state: OutboxState; failingOnly?: boolean; limit: number }): Promise<OutboxEntry[]> { return this.backend.listNotifications(options); }
  purgeBackendState(cutoffs: BackendPurgeCutoffs): Promise<number> { return this.backend.purgeBackendState(cutoffs); }

  async ping(): Promise<void> {
    await this.op(() => this.client.ping());
  }

  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    this.feed.clear();
    this.backend.sessionFeed.clear();
    for (const c of [this.sub, this.client]) {
      if (!c.isOpen) continue;
      // A connected client finishes what it was sent; one still trying to connect just stops.
      if (c.isReady) await c.close().catch(() => c.destroy());
      else c.destroy();
    }
  }

  /** Runs `fn` against Redis, turning "no answer" of any kind into StoreUnavailableError. */
  private async op<T>(fn: () => Promise<T>): Promise<T> {
    if (this.closed) throw new StoreUnavailableError('The Redis store is closed.');
    if (!this.client.isReady) throw new StoreUnavailableError('The Redis store is not connected.');
    let timer: ReturnType<typeof setTimeout> | undefined;
    const timeout = new Promise<never>((_, reject) => {
      timer = setTimeout(() => reject(new StoreUnavailableError(`The Redis store did not answer within ${this.operationTimeoutMs} ms.`)), this.operationTimeoutMs);
    });
    try {
      return await Promise.race([fn(), timeout]);
    } catch (e) {
      throw toStoreError(e);
    } finally {
      clearTimeout(timer);
    }
  }

  /** EVALSHA, loading the script with EVAL when the server does not have it (first use, restart, SCRIPT FLUSH). */
  private async script(script: LuaScript, keys: string[], args: string[]): Promise<unknown> {
    try {
      return await this.client.evalSha(script.sha, { keys, arguments: args });
    } catch (e) {
      if (e instanceof redisModule!.ErrorReply && e.message.startsWith('NOSCRIPT')) return this.client.eval(script.source, { keys, arguments: args });
      throw e;
    }
  }

  private onMessage(message: string): void {
    try {
      const { o: origin, r: hash } = JSON.parse(message) as { o?: string; r?: Record<string, string> };
      if (origin === this.instanceId || !hash) return;
      const record = fromHash(hash);
      if (record) this.feed.emitIfNewer(record);
    } catch (e) {
      this.logger?.warn('unreadable message on the Redis change channel', { error: e });
    }
  }

  /**
   * After the subscriber reconnects, changes published while it was away are lost to it: hand
   * every watched onboarding's current record to its listeners (unless they already have it or a
   * newer one), so none waits for news it missed. The subscriber may be back before the client
   * that reads, so either one's reconnection triggers it.
   */
  private catchUp(connection: Client): void {
    if (!this.connectedBefore.has(connection)) {
      this.connectedBefore.add(connection);
      return;
    }
    // Sessions' listeners re-read what they follow, whatever changed meanwhile.
    for (const id of this.backend.sessionFeed.ids()) this.backend.sessionFeed.emit(id);
    for (const token of this.feed.tokens()) {
      this.get(token)
        .then((record) => record && this.feed.emitIfNewer(record))
        .catch(() => {
          // The reading client is not back yet: its own reconnection catches up.
        });
    }
  }

  private markUnreachable(e: unknown): void {
    if (this.closed || !this.reachable) return;
    this.reachable = false;
    this.logger?.warn('Redis store unreachable; retrying', { error: e });
  }

  private markReachable(): void {
    if (this.reachable) return;
    this.reachable = true;
    this.logger?.info('Redis store reachable again');
  }
}

function toHash(r: OnboardingRecord): Record<string, string> {
  return {
    tokenOnboarding: r.tokenOnboarding,
    status: r.status,
    createdAt: r.createdAt,
    updatedAt: r.updatedAt,
    accessKeyHash: r.accessKeyHash,
    history: JSON.stringify(r.history.map(({ status, at, source }) => ({ status, at, source }))),
    ...(r.externalId !== undefined && { externalId: r.externalId }),
    ...(r.finishedAt !== undefined && { finishedAt: r.finishedAt }),
    ...onboardingExtraFields(r),
  };
}

function fromHash(h: Record<string, string>): OnboardingRecord | null {
  if (!h.status || !h.tokenOnboarding) return null;
  const history = (JSON.parse(h.history ?? '[]') as OnboardingRecord['history']).map(({ status, at, source }) => ({ status, at, source }));
  return {
    tokenOnboarding: h.tokenOnboarding,
    status: h.status as OnboardingStatus,
    createdAt: h.createdAt!,
    updatedAt: h.updatedAt!,
    ...(h.externalId !== undefined && { externalId: h.externalId }),
    accessKeyHash: h.accessKeyHash!,
    history,
    ...(h.finishedAt !== undefined && { finishedAt: h.finishedAt }),
    ...onboardingExtrasFrom(h),
  };
}

/** HGETALL as a Lua script returns it (a flat list) to an object. */
function pairs(flat: string[]): Record<string, string> {
  const out: Record<string, string> = {};
  for (let i = 0; i + 1 < flat.length; i += 2) out[flat[i]!] = flat[i + 1]!;
  return out;
}
