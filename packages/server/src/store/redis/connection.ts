/**
 * The Redis store's two connections (commands, and the subscriber the channels need), and how an
 * operation runs on them: never queued while disconnected, bounded in time, and any "no answer"
 * turned into StoreUnavailableError. Outages and recoveries are logged once each, not per retry.
 */
import type { Logger } from '../../logger.js';
import { StoreUnavailableError } from '../errors.js';
import type { LuaScript } from './scripts/lua.js';

type RedisModule = typeof import('redis');
export type RedisClient = ReturnType<RedisModule['createClient']>;

// The Redis client is loaded when a Redis store connects, not when this module is imported: a
// companion on another store never pays its memory (about 17 MB resident).
let redisModule: RedisModule | undefined;

/** Replies that say the server cannot serve now (loading, read-only replica, out of memory...), not that a command is wrong. */
const UNAVAILABLE_REPLY = /^(LOADING|BUSY|READONLY|MASTERDOWN|OOM|CLUSTERDOWN|TRYAGAIN|NOREPLICAS|MISCONF)\b/;

function toStoreError(e: unknown): unknown {
  if (e instanceof StoreUnavailableError) return e;
  if (e instanceof redisModule!.ErrorReply)
    return UNAVAILABLE_REPLY.test(e.message)
      ? new StoreUnavailableError(`The Redis store cannot serve now (${e.message.split(' ')[0]}).`, { cause: e })
      : e;
  // Everything else the client throws is about the connection: closed, offline, reset, timed out.
  if (e instanceof Error) return new StoreUnavailableError(`The Redis store is unreachable (${e.name}).`, { cause: e });
  return e;
}

export interface ConnectionOptions {
  logger: Logger | undefined;
  operationTimeoutMs: number;
  /** Told when a connection is back after having been lost (changes published meanwhile were missed). */
  onReconnect: () => void;
}

export class RedisConnection {
  readonly client: RedisClient;
  private readonly sub: RedisClient;
  private reachable = true;
  private closed = false;
  private readonly connectedBefore = new Set<RedisClient>();

  static async load(): Promise<void> {
    redisModule ??= await import('redis');
  }

  constructor(
    url: string,
    private readonly options: ConnectionOptions,
  ) {
    // Stryker disable all: tunables of the client. `op` refuses to send while disconnected whatever the
    // queue setting, and no deterministic test tells one ping interval or retry pace from another.
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
    // Stryker restore all
    // node-redis emits 'error' on every failed attempt; unhandled, an 'error' event would crash the process.
    this.client.on('error', (e: unknown) => this.markUnreachable(e));
    this.sub.on('error', (e: unknown) => this.markUnreachable(e));
    this.client.on('ready', () => {
      this.markReachable();
      this.reconnected(this.client);
    });
    this.sub.on('ready', () => this.reconnected(this.sub));
  }

  /** Connects and subscribes; true when done within `timeoutMs`, else the attempts go on in the background. */
  async start(timeoutMs: number, channels: Record<string, (message: string) => void>): Promise<boolean> {
    const connected = Promise.all([
      this.client.connect(),
      this.sub
        .connect()
        .then(() => Promise.all(Object.entries(channels).map(([channel, listener]) => this.sub.subscribe(channel, listener)))),
    ]);
    // Until connected, failures arrive as 'error' events and operations report them; only closing ends the attempts.
    connected.catch(() => {});
    let timer: ReturnType<typeof setTimeout> | undefined;
    const ready = await Promise.race([
      connected.then(
        () => true,
        () => false,
      ),
      new Promise<boolean>((resolve) => (timer = setTimeout(() => resolve(false), timeoutMs))),
    ]);
    clearTimeout(timer);
    return ready;
  }

  /** Runs `fn` against Redis, turning "no answer" of any kind into StoreUnavailableError. */
  async op<T>(fn: () => Promise<T>): Promise<T> {
    if (this.closed) throw new StoreUnavailableError('The Redis store is closed.');
    if (!this.client.isReady) throw new StoreUnavailableError('The Redis store is not connected.');
    let timer: ReturnType<typeof setTimeout> | undefined;
    const timeout = new Promise<never>((_, reject) => {
      timer = setTimeout(
        () => reject(new StoreUnavailableError(`The Redis store did not answer within ${this.options.operationTimeoutMs} ms.`)),
        this.options.operationTimeoutMs,
      );
    });
    try {
      return await Promise.race([fn(), timeout]);
    } catch (e) {
      throw toStoreError(e);
    } finally {
      clearTimeout(timer);
    }
  }

  /** A script as one operation. */
  run(script: LuaScript, keys: string[], args: string[]): Promise<unknown> {
    return this.op(() => this.script(script, keys, args));
  }

  /** EVALSHA, loading the script with EVAL when the server does not have it (first use, restart, SCRIPT FLUSH). */
  async script(script: LuaScript, keys: string[], args: string[]): Promise<unknown> {
    try {
      return await this.client.evalSha(script.sha, { keys, arguments: args });
    } catch (e) {
      if (e instanceof redisModule!.ErrorReply && e.message.startsWith('NOSCRIPT'))
        return this.client.eval(script.source, { keys, arguments: args });
      throw e;
    }
  }

  async close(): Promise<void> {
    this.closed = true;
    for (const c of [this.sub, this.client]) {
      if (!c.isOpen) continue;
      // A connected client finishes what it was sent; one still trying to connect just stops.
      if (c.isReady) await c.close().catch(() => c.destroy());
      else c.destroy();
    }
  }

  /**
   * The subscriber may be back before the client that reads, so either one's reconnection is
   * told; a first connection is not a reconnection.
   */
  private reconnected(connection: RedisClient): void {
    if (!this.connectedBefore.has(connection)) {
      this.connectedBefore.add(connection);
      return;
    }
    this.options.onReconnect();
  }

  private markUnreachable(e: unknown): void {
    if (this.closed || !this.reachable) return;
    this.reachable = false;
    this.options.logger?.warn('Redis store unreachable; retrying', { error: e });
  }

  private markReachable(): void {
    if (this.reachable) return;
    this.reachable = true;
    this.options.logger?.info('Redis store reachable again');
  }
}
