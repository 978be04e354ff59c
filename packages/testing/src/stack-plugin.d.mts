/** What `executeServerCommand('stack-record', { namespace })` answers. */
export interface StackRecord {
  uploadAttempts: number;
  uploads: { body: unknown; headers: { contentType: string | null } }[];
  onboardings: { token: string; accessKey: string }[];
  requests: { method: string; url: string; authorization: string | null }[];
}

/** Web Test Runner plugin: the real companion and sandbox in a child process, reached cross-origin. */
export declare function realStack(options?: { processingMs?: number }): {
  name: string;
  serverStart(args: { server?: import('node:http').Server; config: { hostname?: string } }): Promise<void>;
  serverStop(): Promise<void>;
  executeCommand(args: { command: string; payload?: unknown }): Promise<unknown>;
};
