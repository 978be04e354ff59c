/**
 * `POST /api/token-generate` (docs/upstream-api.md#authentication-and-token-lifetime). The
 * upstream shows no error answers for this endpoint; the sandbox answers HTTP 400 for a body that
 * is not `{client, secret}` strings and HTTP 401 `{status:{code:401,message:"Unauthorized"}}` for
 * wrong credentials (README).
 */
import { Hono } from 'hono';
import { bodyLimit } from 'hono/body-limit';
import { safeEqual } from '../auth/safe-equal.js';
import type { SandboxDeps, SandboxEnv } from '../context.js';
import { MSG, statusBody } from '../envelope.js';
import { counted, readJsonObject } from '../middleware/index.js';

export function tokenRoutes(deps: SandboxDeps): Hono<SandboxEnv> {
  const app = new Hono<SandboxEnv>();
  app.post(
    '/token-generate',
    counted(deps.stats, 'POST /api/token-generate'),
    bodyLimit({ maxSize: 64 * 1024, onError: (c) => c.json(statusBody(413, 'Payload Too Large'), 413) }),
    async (c) => {
      const body = await readJsonObject(c.req);
      if (!body || typeof body.client !== 'string' || typeof body.secret !== 'string') {
        return c.json(statusBody(400, 'Invalid request: client and secret (strings) are required'), 400);
      }
      // Both comparisons always run, so timing tells nothing about which one failed.
      const clientOk = safeEqual(body.client, deps.options.client);
      const secretOk = safeEqual(body.secret, deps.options.secret);
      if (!(clientOk && secretOk)) return c.json(statusBody(401, MSG.unauthorized), 401);
      return c.json(deps.tokens.issue(body.client), 200);
    },
  );
  return app;
}
