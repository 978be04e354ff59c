/**
 * `GET /v1/health` and `GET /v1/ready` (docs/page-api.md#health), without authentication:
 * health says the instance runs and its store answers (503 while stopping or when the store does
 * not answer); ready adds that an upstream access token can be had, the upstream check reused
 * for a while (health/upstream-readiness.ts) so the route cannot be used to hammer the upstream.
 */
import { Hono } from 'hono';
import type { CompanionEnv } from '../http/env.js';
import type { Store } from '../store/index.js';
import type { UpstreamReadiness } from './upstream-readiness.js';

export interface HealthRoutesOptions {
  store: Pick<Store, 'ping'>;
  upstream: Pick<UpstreamReadiness, 'check'>;
  /** Whether the companion is shutting down. */
  stopping: () => boolean;
}

export function healthRoutes({ store, upstream, stopping }: HealthRoutesOptions): Hono<CompanionEnv> {
  const app = new Hono<CompanionEnv>();
  const storeAnswers = async (log: CompanionEnv['Variables']['log']): Promise<boolean> => {
    try {
      await store.ping();
      return true;
    } catch (error) {
      log.warn('health: store unavailable', { error });
      return false;
    }
  };

  // `ok` stays beside `status` for the balancers configured before `status` existed.
  app.get('/health', async (c) => {
    if (stopping()) return c.json({ status: 'stopping', ok: false, stopping: true }, 503);
    if (!(await storeAnswers(c.get('log')))) return c.json({ status: 'unavailable', ok: false, store: 'unavailable' }, 503);
    return c.json({ status: 'ok', ok: true });
  });

  app.get('/ready', async (c) => {
    if (stopping()) return c.json({ status: 'stopping', checks: {} }, 503);
    const [storeOk, upstreamCheck] = await Promise.all([storeAnswers(c.get('log')), upstream.check()]);
    const checks = { store: storeOk ? 'ok' : 'unavailable', upstream: upstreamCheck };
    const ready = storeOk && (upstreamCheck === 'ok' || upstreamCheck === 'unchecked');
    return c.json({ status: ready ? 'ready' : 'unavailable', checks }, ready ? 200 : 503);
  });
  return app;
}
