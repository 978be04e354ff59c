/**
 * The companion alone on a Node server, from a checked configuration: the store opened first
 * (a bad one stops the start), the embedded sandbox mounted at /sandbox only when the
 * configuration names it, JSON log lines from the first one, and SIGTERM/SIGINT wired to the
 * graceful shutdown. No demo route: only the companion's own.
 */
import { Hono } from 'hono';
import { storeRetention } from '../config/resolve-config.js';
import type { EnvConfig } from '../config/env-config.js';
import { createCompanion } from '../companion.js';
import type { BrandInput } from '../hosted/brand.js';
import { createJsonLogger, redactingLogger, type Logger } from '../logger.js';
import { closeOnSignals, listen } from '../serve.js';
import { createStore, parseStoreUrl } from '../store/create-store.js';
import type { Store } from '../store/index.js';
import { KIT_VERSION } from '../version.js';
import { companionOptions, configSecrets, sandboxOptions } from './companion-options.js';

type SandboxModule = typeof import('@onboarding-kit/sandbox');

/** `undefined` once it runs; 1 when the store, the sandbox package or the address cannot be had. */
export async function startCompanion(config: EnvConfig, brand: BrandInput): Promise<number | undefined> {
  const logger = redactingLogger(createJsonLogger({ format: config.logFormat, level: config.logLevel }), () => configSecrets(config));
  const embedded = config.baseUrl === undefined;
  const sandboxModule = embedded ? await loadSandbox(logger) : undefined;
  if (embedded && !sandboxModule) return 1;
  const store = await openStore(config, logger);
  if (!store) return 1;
  const storeKind = parseStoreUrl(config.store);
  if (storeKind.kind === 'memory')
    logger.warn('ONBOARDING_STORE=memory: every onboarding is lost when this process ends; use sqlite:<path> or redis://... to keep them');

  // The server listens before the companion exists: the embedded sandbox's webhooks and the default public URL need its address.
  let handler: ((req: Request, env: unknown) => Response | Promise<Response>) | undefined;
  let served: Awaited<ReturnType<typeof listen>>;
  try {
    served = await listen((req, env) => (handler ? handler(req, env) : new Response('starting', { status: 503 })), {
      port: config.port,
      host: config.host,
      logger,
    });
  } catch (e) {
    logger.error('could not listen', { host: config.host, port: config.port, code: (e as NodeJS.ErrnoException).code });
    await store.close?.();
    return 1;
  }

  const sandbox = sandboxModule?.createSandbox(sandboxOptions(config, served.url));
  const companion = createCompanion(
    companionOptions(config, {
      baseUrl: config.baseUrl ?? `${served.url}/sandbox`,
      publicUrl: config.publicUrl ?? served.url,
      brand,
      store,
      logger,
    }),
  );
  if (sandbox) {
    const root = new Hono();
    root.route('/sandbox', sandbox.app);
    root.route('/', companion);
    handler = (req, env) => root.fetch(req, env as never);
  } else {
    handler = (req, env) => companion.fetch(req, env as never);
  }

  logger.info('onboarding-companion listening', startFields(config, served.url, storeKind));
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
  return undefined;
}

/** The sandbox package, an optional peer: a deployment against a real upstream never installs it. */
async function loadSandbox(logger: Logger): Promise<SandboxModule | undefined> {
  try {
    return await import('@onboarding-kit/sandbox');
  } catch {
    logger.error('ONBOARDING_UPSTREAM=sandbox needs the package @onboarding-kit/sandbox: npm install @onboarding-kit/sandbox');
    return undefined;
  }
}

/** The store ONBOARDING_STORE names, with the companion's retention defaults (Redis applies them as key TTLs). */
async function openStore(config: EnvConfig, logger: Logger): Promise<Store | undefined> {
  try {
    return await createStore(config.store, {
      redisPrefix: config.redisPrefix,
      retention: storeRetention({}),
      logger,
      ...(config.dataKey !== undefined && { dataKey: config.dataKey }),
    });
  } catch (e) {
    // The store's own messages name the problem and never the URL.
    logger.error('the store (ONBOARDING_STORE) could not be opened', { error: (e as Error).message });
    return undefined;
  }
}

/** What the start line tells an operator: where, against what, with which store; no secret, no URL credentials. */
function startFields(config: EnvConfig, url: string, store: { kind: string; target: string }): Record<string, unknown> {
  return {
    url,
    version: KIT_VERSION,
    environment: config.environment,
    upstream: config.baseUrl === undefined ? 'embedded sandbox at /sandbox' : new URL(config.baseUrl).origin,
    store: store.kind === 'sqlite' ? `sqlite ${store.target}` : store.kind === 'redis' ? `redis (prefix ${config.redisPrefix})` : 'memory',
    sessions: config.sessions,
    notifications: config.notify ? new URL(config.notify.url).origin : 'off',
    ...(config.publicUrl !== undefined && { publicUrl: config.publicUrl }),
  };
}
