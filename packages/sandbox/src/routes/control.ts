/**
 * The sandbox's own control API (`/__sandbox/*`), for end-to-end tests against a running sandbox.
 * Not part of the upstream; unauthenticated, so never expose a sandbox beyond a test machine.
 */
import { Hono } from 'hono';
import type { SandboxDeps, SandboxEnv } from '../context.js';
import { readJsonObject } from '../middleware/index.js';
import { DecisionError } from '../onboardings.js';
import { faultsError } from '../options.js';
import type { Sandbox } from '../sandbox-types.js';

export function controlRoutes(
  deps: SandboxDeps,
  sandbox: Pick<Sandbox, 'setFaults' | 'resetFaults' | 'expireTokens' | 'stats'>,
): Hono<SandboxEnv> {
  const app = new Hono<SandboxEnv>();

  app.post('/faults', async (c) => {
    const body = await readJsonObject(c.req);
    const error = faultsError(body);
    if (error || !body) return c.json({ error: error ?? 'invalid body' }, 400);
    sandbox.setFaults(body);
    return c.json({ faults: deps.faults.current });
  });

  app.post('/reset', (c) => {
    sandbox.resetFaults();
    return c.json({ faults: deps.faults.current });
  });

  app.post('/expire-tokens', (c) => {
    sandbox.expireTokens();
    return c.json({ ok: true });
  });

  app.post('/onboardings/:tokenOnboarding/decision', async (c) => {
    const body = await readJsonObject(c.req);
    const status = body?.status;
    if (status !== 'APPROVED' && status !== 'REFUSED' && status !== 'ERROR')
      return c.json({ error: 'status must be APPROVED, REFUSED or ERROR' }, 400);
    try {
      const record = await deps.onboardings.decide(c.req.param('tokenOnboarding'), status);
      return c.json({ tokenOnboarding: record.tokenOnboarding, status: record.status });
    } catch (error) {
      if (error instanceof DecisionError) return c.json({ error: error.message }, error.reason === 'unknown' ? 404 : 409);
      throw error;
    }
  });

  app.get('/stats', (c) => c.json(sandbox.stats()));

  return app;
}
