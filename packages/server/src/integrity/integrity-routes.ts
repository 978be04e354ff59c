/** `POST /v1/session/capture-nonce` (docs/page-api.md#attestation), behind one of the session's page secrets. */
import { Hono } from 'hono';
import type { CompanionEnv } from '../http/env.js';
import { pageCaller } from '../handoff/handoff-routes.js';
import type { SessionService } from '../sessions/session-service.js';
import { readJsonBody } from '../transport/index.js';
import { validateNonceRequest } from './nonce-rules.js';
import type { NonceService } from './nonce-service.js';

/** `{ "role": "documentFront" }` and white space to spare. */
const NONCE_BODY_BYTES = 256;

export function integrityRoutes(deps: { sessions: SessionService; nonces: NonceService }): Hono<CompanionEnv> {
  const app = new Hono<CompanionEnv>();
  app.post('/capture-nonce', async (c) => {
    const caller = await pageCaller(c, deps.sessions);
    const role = validateNonceRequest(await readJsonBody(c, NONCE_BODY_BYTES, { requireJsonType: true, what: 'The nonce request' }));
    const answer = await deps.nonces.issue(caller.session, role);
    c.header('Cache-Control', 'no-store');
    return c.json(answer, 201);
  });
  return app;
}
