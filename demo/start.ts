/**
 * `npm start`: the companion, the demo page and (unless ONBOARDING_BASE_URL is set) the embedded
 * sandbox, in one server. The sandbox is mounted at /sandbox and reached over real loopback HTTP
 * as the upstream base URL; its webhooks come back to the companion's /v1/webhooks with the same
 * key. This runner is the only place that knows the server and the sandbox both.
 */
import { Hono } from 'hono';
import { createCompanion, listen } from '@onboarding-kit/server';
import { createSandbox, type Sandbox } from '@onboarding-kit/sandbox';
import { readConfig } from './config.js';
import { demoDistDir, demoRoutes } from './demo-routes.js';

const read = readConfig(process.env);
if (!read.ok) {
  console.error(`onboarding-kit: invalid configuration:\n${read.errors.map((e) => `  - ${e}`).join('\n')}`);
  process.exit(1);
}
const config = read.config;
const embedded = config.baseUrl === undefined;

const root = new Hono();
// The server must be listening before the sandbox and companion exist: both need its address.
let ready: ((req: Request, env: unknown) => Response | Promise<Response>) | undefined;
const served = await listen((req, env) => (ready ? ready(req, env) : new Response('starting', { status: 503 })), { port: config.port, host: config.host });

let sandbox: Sandbox | undefined;
if (embedded) {
  sandbox = createSandbox({
    client: config.client,
    secret: config.secret,
    webhookKey: config.webhookKey,
    webhookUrl: `${served.url}/v1/webhooks`,
    ...(config.sandboxProcessingMs !== undefined && { processingMs: config.sandboxProcessingMs }),
  });
  root.route('/sandbox', sandbox.app);
}

const companion = createCompanion({
  baseUrl: config.baseUrl ?? `${served.url}/sandbox`,
  environment: config.environment,
  client: config.client,
  secret: config.secret,
  webhookKey: config.webhookKey,
  allowedOrigins: config.allowedOrigins,
  imageMaxBytes: config.imageMaxBytes,
  rateLimit: config.rateLimit,
  ...(config.adminKey && { adminKey: config.adminKey }),
});
root.route('/', companion);
// The demo pages and the element's bundles (built by `npm run build`), with the demo's CSP.
root.route('/', demoRoutes({ distDir: demoDistDir(process.env) }));
root.notFound((c) => c.json({ error: { code: 'not_found', message: 'No such route.' } }, 404));
ready = (req, env) => root.fetch(req, env as never);

console.log(`onboarding-kit demo: ${served.url}/ (${config.environment} environment, upstream: ${embedded ? `embedded sandbox at ${served.url}/sandbox` : new URL(config.baseUrl!).origin})`);

let stopping = false;
async function shutdown(signal: string): Promise<void> {
  if (stopping) return;
  stopping = true;
  console.log(`onboarding-kit demo: ${signal}, shutting down`);
  await companion.close(); // ends open event streams and polling
  sandbox?.close();
  await served.close();
  process.exit(0);
}
process.on('SIGTERM', () => void shutdown('SIGTERM'));
process.on('SIGINT', () => void shutdown('SIGINT'));
