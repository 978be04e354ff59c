import type { Reporter } from '@web/test-runner';
/** A reporter that repeats every failure (engine, file, test, error) at the end of the run. */
export declare function failureRecap(): Reporter;
/** The recap's lines for a run's sessions (WTR TestSession objects); empty when all passed. */
export declare function recapLines(sessions: readonly unknown[]): string[];
