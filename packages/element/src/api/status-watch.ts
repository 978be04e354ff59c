/**
 * Follows an onboarding until it reaches a terminal status: the SSE stream first, then, when the
 * stream fails or ends without a terminal status, polling `GET /onboardings/{token}` with
 * exponential backoff, bounded in total time.
 */
import { isTerminalStatus, type OnboardingState, type OnboardingStatus, type TerminalStatus } from '@onboarding-kit/contract';
import { getOnboarding, streamStatus } from './companion-client.js';
import { CompanionError } from './errors.js';

export interface PollOptions {
  /** First wait before a poll, doubled after each poll up to `maxDelayMs`. */
  initialDelayMs: number;
  maxDelayMs: number;
  /** Give up (code `status_timeout`) after this long polling. */
  totalMs: number;
}

/**
 * Quick at first (most outcomes come within seconds), then once a minute for as long as the
 * companion itself keeps polling the upstream (48 h): a manual review takes hours, and a page left
 * open must still learn its outcome.
 */
const DEFAULT_POLL: PollOptions = { initialDelayMs: 1000, maxDelayMs: 60_000, totalMs: 48 * 60 * 60_000 };

/** How the watch tells time and waits between polls; tests pass one that moves without waiting. */
export interface WatchClock {
  now(): number;
  /** Resolves after `ms`; rejects with code `aborted` when `signal` aborts first. */
  sleep(ms: number, signal?: AbortSignal): Promise<void>;
}

export interface WatchOptions {
  onStatus: (state: OnboardingState) => void;
  signal?: AbortSignal;
  poll?: Partial<PollOptions>;
  /** Default: the real clock. */
  clock?: WatchClock;
  /**
   * Whether the companion can be reached: false when a poll fails for a reason worth trying again
   * (the stream has already failed by then), true again when a status arrives.
   */
  onReachable?: (reachable: boolean) => void;
}

/** A state the onboarding never leaves (APPROVED, REFUSED or ERROR). */
export type FinalState = OnboardingState & { status: TerminalStatus };

const isFinal = (state: OnboardingState): state is FinalState => isTerminalStatus(state.status);

function sleep(ms: number, signal?: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal?.aborted) return reject(new CompanionError({ code: 'aborted', message: 'Cancelled.', status: 0 }));
    const timer = setTimeout(() => {
      signal?.removeEventListener('abort', onAbort);
      resolve();
    }, ms);
    const onAbort = () => {
      clearTimeout(timer);
      reject(new CompanionError({ code: 'aborted', message: 'Cancelled.', status: 0 }));
    };
    signal?.addEventListener('abort', onAbort, { once: true });
  });
}

const realClock: WatchClock = { now: () => Date.now(), sleep };

export async function watchStatus(base: string, token: string, accessKey: string, options: WatchOptions): Promise<FinalState> {
  const { onStatus, signal } = options;
  const poll = { ...DEFAULT_POLL, ...options.poll };
  const clock = options.clock ?? realClock;
  let seen: OnboardingState | null = null;
  const record = (state: OnboardingState) => {
    seen = state;
    options.onReachable?.(true);
    onStatus(state);
  };
  try {
    await streamStatus(base, token, accessKey, record, signal);
  } catch (error) {
    if (signal?.aborted) throw error;
    // Otherwise fall through to polling: proxies and flaky networks break streams.
  }
  // A final status that arrived just before the stream broke still counts.
  const streamed = seen as OnboardingState | null;
  if (streamed && isFinal(streamed)) return streamed;
  const deadline = clock.now() + poll.totalMs;
  let delay = poll.initialDelayMs;
  let lastStatus: OnboardingStatus | null = streamed?.status ?? null;
  for (;;) {
    await clock.sleep(delay, signal);
    try {
      const state = await getOnboarding(base, token, accessKey, signal);
      options.onReachable?.(true);
      if (state.status !== lastStatus) {
        lastStatus = state.status;
        onStatus(state);
      }
      if (isFinal(state)) return state;
    } catch (error) {
      if (!(error instanceof CompanionError) || !error.retryable) throw error;
      options.onReachable?.(false);
    }
    if (clock.now() + delay > deadline) {
      throw new CompanionError({ code: 'status_timeout', message: 'No final status arrived in time.', status: 0 });
    }
    delay = Math.min(delay * 2, poll.maxDelayMs);
  }
}
