/** `POST /v1/session/document-prefill` (docs/page-api.md#document-prefill), behind one of the session's page secrets. */
import { maxCreateBodyBytes } from '@onboarding-kit/contract';
import { Hono } from 'hono';
import type { CompanionEnv } from '../http/env.js';
import { pageCaller } from '../handoff/handoff-routes.js';
import type { SessionService } from '../sessions/session-service.js';
import { readJsonBody } from '../transport/index.js';
import { validatePrefill } from './prefill-rules.js';
import type { PrefillService } from './prefill-service.js';

export function prefillRoutes(deps: { sessions: SessionService; prefill: PrefillService; imageMaxBytes: number }): Hono<CompanionEnv> {
  const app = new Hono<CompanionEnv>();
  app.post('/document-prefill', async (c) => {
    const caller = await pageCaller(c, deps.sessions);
    // Refused before the body is read: a session without the prefill costs no upload.
    deps.prefill.check(caller.session);
    const body = await readJsonBody(c, maxCreateBodyBytes(deps.imageMaxBytes), { requireJsonType: true, what: 'The prefill' });
    const answer = await deps.prefill.prefill(caller.session, validatePrefill(body, deps.imageMaxBytes));
    c.header('Cache-Control', 'no-store');
    return c.json(answer, 200);
  });
  return app;
}
