import type { Hono } from 'hono';
import type { Faults } from './options.js';
import type { SandboxStats } from './stats.js';

export interface Sandbox {
  /** Mount it, or call `app.request()` / `app.fetch`. */
  app: Hono;
  setFaults(f: Partial<Faults>): void;
  resetFaults(): void;
  /** Every issued token becomes invalid: the next protected call gets a real HTTP 401. */
  expireTokens(): void;
  /** Manual review decision for an onboarding still IN_PROCESS; resolves once its webhook attempt is over. */
  decide(token: string, status: 'APPROVED' | 'REFUSED' | 'ERROR'): Promise<void>;
  stats(): SandboxStats;
  /** Clears every timer (processing, delayed webhooks). */
  close(): void;
}
