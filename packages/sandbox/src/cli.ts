/**
 * Runs the sandbox on its own: `npm run sandbox` from the repository root.
 * Environment: PORT, HOST, SANDBOX_CLIENT, SANDBOX_SECRET, SANDBOX_WEBHOOK_URL,
 * SANDBOX_WEBHOOK_KEY, SANDBOX_PROCESSING_MS, SANDBOX_TOKEN_TTL_S, SANDBOX_CONTROL (`1` mounts the
 * unauthenticated control routes). Prints its URL, never a secret.
 */
import { DEFAULTS } from './options.js';
import { serveSandbox } from './serve.js';

function numberFromEnv(name: string, fallback: number): number {
  const raw = process.env[name];
  if (raw === undefined || raw === '') return fallback;
  const value = Number(raw);
  if (!Number.isFinite(value) || value < 0) {
    console.error(`[sandbox] ${name} must be a number >= 0`);
    process.exit(1);
  }
  return value;
}

const env = process.env;
const served = await serveSandbox({
  port: numberFromEnv('PORT', DEFAULTS.port),
  host: env.HOST || DEFAULTS.host,
  client: env.SANDBOX_CLIENT || DEFAULTS.client,
  secret: env.SANDBOX_SECRET || DEFAULTS.secret,
  ...(env.SANDBOX_WEBHOOK_URL && { webhookUrl: env.SANDBOX_WEBHOOK_URL }),
  webhookKey: env.SANDBOX_WEBHOOK_KEY || DEFAULTS.webhookKey,
  processingMs: numberFromEnv('SANDBOX_PROCESSING_MS', DEFAULTS.processingMs),
  tokenTtlS: numberFromEnv('SANDBOX_TOKEN_TTL_S', DEFAULTS.tokenTtlS),
  controlApi: env.SANDBOX_CONTROL === '1',
});

console.log(`[sandbox] upstream simulator listening on ${served.url}`);
console.log(`[sandbox] control routes (/__sandbox): ${env.SANDBOX_CONTROL === '1' ? 'on' : 'off (SANDBOX_CONTROL not set)'}`);
console.log(
  `[sandbox] webhooks: ${env.SANDBOX_WEBHOOK_URL ? new URL(env.SANDBOX_WEBHOOK_URL).origin : 'off (SANDBOX_WEBHOOK_URL not set)'}`,
);

let stopping = false;
const stop = (signal: string) => {
  if (stopping) return;
  stopping = true;
  console.log(`[sandbox] ${signal}: shutting down`);
  served.close().then(
    () => process.exit(0),
    () => process.exit(1),
  );
};
process.on('SIGTERM', () => stop('SIGTERM'));
process.on('SIGINT', () => stop('SIGINT'));
