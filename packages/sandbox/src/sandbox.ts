/** `createSandbox()`: composes the state, the sub-apps and the one error handler. */
import { Hono } from 'hono';
import { TokenIssuer } from './auth/tokens.js';
import { realClock } from './clock.js';
import type { SandboxDeps } from './context.js';
import { DocumentoscopyCases } from './documentoscopy.js';
import { MSG, statusBody } from './envelope.js';
import { FaultState } from './faults.js';
import { latency } from './middleware/index.js';
import { Onboardings } from './onboardings.js';
import { resolveOptions, type SandboxOptions } from './options.js';
import { Product } from './product.js';
import { controlRoutes } from './routes/control.js';
import { customerRoutes } from './routes/customer.js';
import { onboardingRoutes } from './routes/onboarding.js';
import { serviceApiRoutes } from './routes/service-api.js';
import { tokenRoutes } from './routes/token.js';
import type { Sandbox } from './sandbox-types.js';
import { StatsCounter } from './stats.js';
import { WebhookSender, type Logger } from './webhooks.js';

export function createSandbox(options: SandboxOptions = {}, log: Logger = (line) => console.warn(line)): Sandbox {
  const resolved = resolveOptions(options);
  const faults = new FaultState();
  const stats = new StatsCounter();
  const clock = options.clock ?? realClock;
  const webhooks = new WebhookSender(resolved.webhookUrl, resolved.webhookKey, faults, stats, log, clock);
  const tokens = new TokenIssuer(resolved.tokenTtlS, clock.now);
  const deps: SandboxDeps = {
    options: resolved,
    faults,
    tokens,
    product: new Product(resolved.enabledServices, resolved.aliases),
    onboardings: new Onboardings(resolved.processingMs, webhooks, clock),
    documentoscopy: new DocumentoscopyCases(resolved.processingMs, clock.now),
    webhooks,
    stats,
  };

  const sandbox: Sandbox = {
    app: new Hono(),
    setFaults: (f) => faults.set(f),
    resetFaults: () => faults.reset(),
    expireTokens: () => tokens.expireAll(),
    decide: async (token, status) => {
      await deps.onboardings.decide(token, status);
    },
    stats: () => ({ tokensIssued: tokens.issuedCount, requests: { ...stats.requests }, webhooksSent: stats.webhooksSent }),
    close: () => {
      deps.onboardings.close();
      webhooks.close();
    },
  };

  const app = sandbox.app;
  app.use('/api/*', latency(faults));
  app.route('/api', tokenRoutes(deps));
  app.route('/api', serviceApiRoutes(deps));
  app.route('/api', onboardingRoutes(deps));
  app.route('/api', customerRoutes(deps));
  if (resolved.controlApi) app.route('/__sandbox', controlRoutes(deps, sandbox));

  app.notFound((c) => c.json(statusBody(404, 'Not Found'), 404));
  // One error handler: a bug answers the upstream's technical failure and logs the error's name and
  // message only (request bodies, tokens and credentials never reach a log line).
  app.onError((error, c) => {
    log(`[sandbox] ${c.req.method} ${c.req.path} failed: ${error.name}: ${error.message}`);
    return c.json(statusBody(500, MSG.failure), 500);
  });
  return sandbox;
}
