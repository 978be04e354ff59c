import type { TestRunnerPlugin } from '@web/test-runner';
export interface CommandTrailEntry {
  command: string;
  detail: string;
  sentAt: number;
  answeredAt?: number;
  by?: string;
  failed?: string;
}
export interface CommandTrailPlugin extends TestRunnerPlugin {
  trail(sessionId: string): CommandTrailEntry[];
  describe(session: { id: string }): string[];
}
/** Keeps each test session's last server commands, sent and answered, for the failure recap. */
export declare function commandTrail(options?: {
  keep?: number;
  now?: () => number;
  /** A command no plugin has answered by then fails with an error naming it (none by default). */
  deadlineMs?: number;
}): CommandTrailPlugin;
