/**
 * Which refused CORS preflights are worth a warning: the first from each origin, then at most
 * one per origin per window, remembering a bounded number of origins (any client can send any
 * `Origin`, so neither the log nor the memory may grow with what strangers send). A page on an
 * origin the companion does not allow fails with nothing in the browser that names the setting:
 * the warning is where its developer learns of ONBOARDING_ALLOWED_ORIGINS.
 */
import type { Logger } from '../logger.js';

/** One warning per origin per this long. */
export const REFUSED_ORIGIN_WINDOW_MS = 10 * 60_000;
/** The origins remembered at once; past it, the one told longest ago is forgotten. */
const REFUSED_ORIGINS_REMEMBERED = 1_000;
/** An origin is a scheme, a host and a port: anything longer is cut in the log line. */
const ORIGIN_LOGGED_CHARS = 200;

export class RefusedOrigins {
  /** Origin -> when it was last told, oldest first (re-inserted when told again). */
  readonly #told = new Map<string, number>();
  readonly #windowMs: number;
  readonly #remembered: number;
  readonly #now: () => number;

  constructor(options: { windowMs?: number; remembered?: number; now?: () => number } = {}) {
    this.#windowMs = options.windowMs ?? REFUSED_ORIGIN_WINDOW_MS;
    this.#remembered = options.remembered ?? REFUSED_ORIGINS_REMEMBERED;
    this.#now = options.now ?? Date.now;
  }

  /** True when a preflight from `origin` should be told now (and it is remembered as told). */
  shouldTell(origin: string): boolean {
    const now = this.#now();
    const last = this.#told.get(origin);
    if (last !== undefined && now - last < this.#windowMs) return false;
    this.#told.delete(origin);
    this.#told.set(origin, now);
    if (this.#told.size > this.#remembered) this.#told.delete(this.#told.keys().next().value!);
    return true;
  }

  /** How many origins are remembered (for tests of the bound). */
  get size(): number {
    return this.#told.size;
  }

  /** Warns of a preflight refused for `origin`, unless it was told within the window. */
  warn(log: Logger, origin: string, path: string, allowedCount: number): void {
    const logged = origin.length > ORIGIN_LOGGED_CHARS ? `${origin.slice(0, ORIGIN_LOGGED_CHARS)}...` : origin;
    if (!this.shouldTell(logged)) return;
    log.warn(
      `CORS preflight refused: origin ${logged} is not allowed. To let pages on it call the companion, add it to ` +
        `ONBOARDING_ALLOWED_ORIGINS (option allowedOrigins), e.g. ONBOARDING_ALLOWED_ORIGINS=${logged}`,
      { origin: logged, path, allowedOrigins: allowedCount },
    );
  }
}
