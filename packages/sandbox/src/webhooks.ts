/**
 * Webhook delivery (docs/upstream-api.md#webhooks): a JSON POST to the product's URL with
 * `id-service-token`. Like the upstream, there is no automatic resend; a failed delivery is logged
 * (origin only: a URL may hold secrets) and forgotten. Faults can drop or duplicate deliveries.
 */
import { realClock, type SandboxClock } from './clock.js';
import type { FaultState } from './faults.js';
import type { StatsCounter } from './stats.js';

export type Logger = (line: string) => void;

export class WebhookSender {
  readonly #timers = new Set<unknown>();
  readonly #inflight = new Set<Promise<void>>();
  #closed = false;

  constructor(
    private readonly url: string | undefined,
    private readonly key: string,
    private readonly faults: FaultState,
    private readonly stats: StatsCounter,
    private readonly log: Logger,
    private readonly clock: SandboxClock = realClock,
  ) {}

  get configured(): boolean {
    return this.url !== undefined;
  }

  /** Delivers now; resolves when every attempt has finished (never rejects). */
  send(payload: unknown): Promise<void> {
    if (!this.url || this.#closed || this.faults.current.dropWebhooks) return Promise.resolve();
    const times = this.faults.current.duplicateWebhooks ? 2 : 1;
    const body = JSON.stringify(payload);
    const run = (async () => {
      for (let i = 0; i < times; i++) await this.#post(this.url!, body);
    })();
    this.#inflight.add(run);
    void run.finally(() => this.#inflight.delete(run));
    return run;
  }

  /** Delivers after `delayMs` (standalone queries: "about 10 seconds after the HTTP response"). */
  sendLater(payload: unknown, delayMs: number): void {
    if (!this.url || this.#closed) return;
    const timer = this.clock.setTimeout(() => {
      this.#timers.delete(timer);
      void this.send(payload);
    }, delayMs);
    this.#timers.add(timer);
  }

  get pendingTimers(): number {
    return this.#timers.size;
  }

  close(): void {
    this.#closed = true;
    for (const timer of this.#timers) this.clock.clearTimeout(timer);
    this.#timers.clear();
  }

  async #post(url: string, body: string): Promise<void> {
    try {
      const res = await fetch(url, {
        method: 'POST',
        headers: { 'content-type': 'application/json', 'id-service-token': this.key },
        body,
        signal: AbortSignal.timeout(10_000),
      });
      await res.body?.cancel();
      this.stats.webhooksSent++;
      if (!res.ok) this.log(`[sandbox] webhook to ${new URL(url).origin} answered HTTP ${res.status}`);
    } catch (error) {
      this.log(`[sandbox] webhook to ${new URL(url).origin} failed: ${(error as Error).name}`);
    }
  }
}
