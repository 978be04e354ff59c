/**
 * The real stack (`startStack({ record: true })`) as a process of its own, for test runners that
 * cannot load TypeScript sources themselves (the Web Test Runner config, through
 * `@onboarding-kit/testing/stack-plugin`). Run as `node --conditions=source --import tsx` like
 * `npm start`, so the server and the sandbox are loaded the way they run.
 *
 * Environment: STACK_ALLOWED_ORIGINS (comma separated: the pages allowed to call the companion),
 * STACK_PROCESSING_MS (how long the sandbox keeps an onboarding IN_PROCESS).
 * Prints one line `{"stack":{"url":...,"sandboxUrl":...}}` when ready; stops on SIGTERM, SIGINT
 * or when its stdin closes (the parent died), so it never outlives the runner.
 */
import { createJsonLogger } from '@onboarding-kit/server';
import { IT_API_KEY, startStack } from './stack.js';

const origins = (process.env.STACK_ALLOWED_ORIGINS ?? '')
  .split(',')
  .map((o) => o.trim())
  .filter(Boolean);
const processingMs = Number(process.env.STACK_PROCESSING_MS ?? '300');

const stack = await startStack({
  record: true,
  sandbox: { processingMs },
  companion: {
    allowedOrigins: origins,
    // Sessions (and their hand-off) are opened by the backend with this key: the plugin's 'stack-session'.
    apiKeys: [IT_API_KEY],
    // Errors only, on stderr (the runner shows them): tests provoke 4xx answers, which log warnings.
    logger: createJsonLogger({ sink: (line) => process.stderr.write(`${line}\n`), level: 'error' }),
  },
});
process.stdout.write(`${JSON.stringify({ stack: { url: stack.url, sandboxUrl: stack.sandboxUrl } })}\n`);

let stopping: Promise<void> | undefined;
function stop(): Promise<void> {
  // Open event streams are ended by close(); a request still in flight is not worth waiting for.
  stopping ??= Promise.race([stack.close(), new Promise<void>((resolve) => setTimeout(resolve, 3_000).unref())]).then(() =>
    process.exit(0),
  );
  return stopping;
}
process.on('SIGTERM', () => void stop());
process.on('SIGINT', () => void stop());
process.stdin.on('end', () => void stop());
process.stdin.on('error', () => void stop());
process.stdin.resume();
