/**
 * `npm start`: the companion, the demo page and (unless ONBOARDING_BASE_URL is set) the embedded
 * sandbox, in one server. The sandbox is mounted at /sandbox and reached over real loopback HTTP
 * as the upstream base URL; its webhooks come back to the companion's /v1/webhooks with the same
 * key. State lives in the store ONBOARDING_STORE names (a SQLite file by default), so a restart
 * loses nothing. This runner is the only place that knows the server and the sandbox both.
 *
 * It also plays the integrator's backend (demo/backend.ts): with an API key it makes up at each
 * start, it opens a session per visit over loopback HTTP and puts only the client secret in the
 * page; unless ONBOARDING_NOTIFY_URL is set, the notifications come back to its own receiver,
 * signed with a secret it also makes up.
 */
import { randomBytes } from 'node:crypto';
import { Hono } from 'hono';
import {
  closeOnSignals,
  createCompanion,
  createJsonLogger,
  companionOptions,
  configSecrets,
  configuredBrand,
  createStore,
  listen,
  parseStoreUrl,
  redactingLogger,
  sandboxOptions,
  storeRetention,
  type BrandInput,
  type Store,
} from '@onboarding-kit/server';
import { createSandbox, type Sandbox } from '@onboarding-kit/sandbox';
import { createDemoBackend, renderWithSession } from './backend.js';
import { readConfig } from './config.js';
import { demoDistDir, demoRoutes } from './demo-routes.js';

// The demo sets no retention, so the companion keeps its defaults: the store is given them as the companion resolves them.
const DEMO_RETENTION = storeRetention({});

const read = readConfig(process.env);
if (!read.ok) {
  console.error(`onboarding-kit: invalid configuration:\n${read.errors.map((e) => `  - ${e}`).join('\n')}`);
  process.exit(1);
}
const config = read.config;
// The hosted page's brand: its file read and its logo looked at now, so a bad one stops the start.
let brand: BrandInput;
try {
  brand = configuredBrand(config);
} catch (e) {
  console.error(`onboarding-kit: invalid configuration:\n  - ${(e as Error).message}`);
  process.exit(1);
}
const embedded = config.baseUrl === undefined;
// Made up at each start and never printed: 256 random bits, well over the 32 characters asked of keys.
const demoApiKey = randomBytes(32).toString('base64url');
const ownReceiver = config.notify === undefined;
const demoNotifySecret = randomBytes(32).toString('base64url');
// The store, the HTTP layer and the shutdown log before the companion exists: redacted the same way from the start.
const logger = redactingLogger(createJsonLogger({ format: config.logFormat, level: config.logLevel }), () => [
  ...configSecrets(config),
  demoApiKey,
  ...(ownReceiver ? [demoNotifySecret] : []),
]);

const storeKind = parseStoreUrl(config.store);
let store: Store;
try {
  store = await createStore(config.store, {
    redisPrefix: config.redisPrefix,
    retention: DEMO_RETENTION,
    logger,
    ...(config.dataKey !== undefined && { dataKey: config.dataKey }),
  });
} catch (e) {
  // The store's own messages name the problem (an unwritable folder, a database of a newer kit) and never the URL.
  console.error(`onboarding-kit: the store (ONBOARDING_STORE) could not be opened: ${(e as Error).message}`);
  process.exit(1);
}
if (storeKind.kind === 'memory')
  logger.warn('ONBOARDING_STORE=memory: every onboarding is lost when this process ends; use sqlite:<path> or redis://... to keep them');

const root = new Hono();
// The server must be listening before the sandbox and companion exist: both need its address.
let ready: ((req: Request, env: unknown) => Response | Promise<Response>) | undefined;
const served = await listen((req, env) => (ready ? ready(req, env) : new Response('starting', { status: 503 })), {
  port: config.port,
  host: config.host,
  logger,
});

// The backend reaches the companion as any backend would: over HTTP, here on loopback (a wildcard
// listening address is not one to connect to).
const loopbackUrl = served.url.replace(/^http:\/\/(?:0\.0\.0\.0|\[::\])(?=:)/, (m) =>
  m.includes('[') ? 'http://[::1]' : 'http://127.0.0.1',
);

let sandbox: Sandbox | undefined;
if (embedded) {
  sandbox = createSandbox(sandboxOptions(config, served.url));
  root.route('/sandbox', sandbox.app);
}

const options = companionOptions(config, {
  baseUrl: config.baseUrl ?? `${served.url}/sandbox`,
  publicUrl: config.publicUrl ?? served.url,
  brand,
  store,
  logger,
});
const companion = createCompanion({
  ...options,
  // The demo backend only opens sessions: its key can do nothing else.
  apiKeys: [...config.apiKeys, { key: demoApiKey, scopes: ['sessions'] }],
  notify: options.notify ?? { url: `${loopbackUrl}/demo/notifications`, secret: demoNotifySecret },
});
const backend = createDemoBackend({
  companionUrl: loopbackUrl,
  apiKey: demoApiKey,
  ...(ownReceiver && { receiver: { secret: demoNotifySecret } }),
  logger,
});
root.route('/', companion);
root.route('/', backend.app);
// The demo pages (built by `npm run build`), each visit with a session of its own, and the element's bundles, with the demo's CSP.
root.route(
  '/',
  demoRoutes({
    distDir: demoDistDir(process.env),
    async renderPage(html, visit) {
      const locale = visit.query.get('locale');
      try {
        const session = await backend.openSession({
          page: visit.path,
          ...(locale && ['pt-BR', 'en', 'es'].includes(locale) && { locale }),
        });
        return renderWithSession(html, session.clientSecret);
      } catch {
        // Already logged: the page still loads, and with sessions optional the flow still works without one.
        return html;
      }
    },
  }),
);
root.notFound((c) => c.json({ error: { code: 'not_found', message: 'No such route.' } }, 404));
ready = (req, env) => root.fetch(req, env as never);

// A Redis URL may hold a password: only its kind is printed.
const where =
  storeKind.kind === 'sqlite'
    ? `sqlite ${storeKind.target}`
    : storeKind.kind === 'redis'
      ? `redis (prefix ${config.redisPrefix})`
      : 'memory';
console.log(
  `onboarding-kit demo: ${served.url}/ (${config.environment} environment, upstream: ${embedded ? `embedded sandbox at ${served.url}/sandbox` : new URL(config.baseUrl!).origin}, store: ${where})`,
);
// The notify URL may carry credentials of its own: only its origin is printed.
console.log(
  `onboarding-kit demo: sessions ${config.sessions}; a demo API key made up for this run (never shown) opens one per visit; notifications to ${ownReceiver ? `the demo's own receiver, ${served.url}/demo/notifications` : new URL(config.notify!.url).origin}`,
);

// SIGTERM: stop accepting, end event streams with a `retry:` hint, hand polling over, let requests
// in flight finish, flush the store, and exit as soon as nothing is left. A second signal, or the
// timeout, exits at once.
closeOnSignals(
  {
    shutdownTimeoutMs: companion.shutdownGraceMs + 5_000,
    async close() {
      served.stopAccepting();
      await companion.close();
      sandbox?.close();
      await served.close({ graceMs: 2_000 });
    },
  },
  { logger },
);
