import type { Reporter } from '@web/test-runner';
/** A reporter that repeats every failure (engine, file, test, error) at the end of the run. */
export declare function failureRecap(options?: {
  /** More lines about a session that failed as a whole (stalled, crashed), e.g. `commandTrail().describe`. */
  notes?: (session: { id: string }) => string[];
}): Reporter;
/** The recap's lines for a run's sessions (WTR TestSession objects); empty when all passed. */
export declare function recapLines(sessions: readonly unknown[], notes?: (session: { id: string }) => string[]): string[];
