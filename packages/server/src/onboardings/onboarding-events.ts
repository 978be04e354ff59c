/**
 * An onboarding's event stream (`GET /v1/onboardings/{token}/events`): a `status` event with the
 * onboarding's state each time it changes (never the same state twice), until a terminal status.
 */
import { isTerminalStatus } from '@onboarding-kit/contract';
import type { OnboardingRecord } from '../store/index.js';
import { EventStream, type EventStreamDeps } from '../transport/index.js';

export interface OnboardingEventDeps extends EventStreamDeps {
  /** The record now (`null`: gone, which ends the stream). */
  read(token: string): Promise<OnboardingRecord | null>;
  /** Calls `listener` on every change of the onboarding; returns the unsubscribe. */
  subscribe(token: string, listener: () => void): () => void;
  /** The state a page sees, as JSON-able data. */
  state(record: OnboardingRecord): unknown;
}

export class OnboardingEvents extends EventStream<OnboardingEventDeps> {
  private unsubscribe: (() => void) | undefined;
  /** The last state sent, as its JSON. */
  private last = '';

  constructor(
    private readonly token: string,
    deps: OnboardingEventDeps,
    requestId: string,
  ) {
    super(deps, requestId);
  }

  protected get failureMessage(): string {
    return 'event stream ended with an error';
  }

  protected open(): void {
    this.unsubscribe = this.deps.subscribe(this.token, () => this.poke());
  }

  protected release(): void {
    this.unsubscribe?.();
  }

  protected async send(): Promise<boolean> {
    const record = await this.deps.read(this.token);
    if (!record) return true;
    const data = JSON.stringify(this.deps.state(record));
    if (data !== this.last) {
      this.last = data;
      this.write(`event: status\ndata: ${data}\n\n`);
    }
    return isTerminalStatus(record.status);
  }
}
