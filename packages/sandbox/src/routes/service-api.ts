/**
 * `POST /api/service-api` (docs/upstream-api.md#service-queries): failures inside a body with
 * HTTP 200, except the token (real HTTP 401) and a body that is not a JSON object (real HTTP 400,
 * which the upstream does not show). When the product has a webhook, the same JSON is POSTed
 * about 10 s later (docs/upstream-api.md#webhooks).
 */
import { Hono } from 'hono';
import { bodyLimit } from 'hono/body-limit';
import { SERVICE_CATALOG } from '@onboarding-kit/contract';
import type { SandboxDeps, SandboxEnv } from '../context.js';
import {
  MSG,
  failureEnvelope,
  noDataEnvelope,
  refusedEnvelope,
  statusBody,
  successEnvelope,
  successMessage,
  technicalFailure,
  type Envelope,
} from '../envelope.js';
import { counted, forced500, readJsonObject, requireBearer } from '../middleware/index.js';
import { runQuery } from '../query.js';

const MAX_QUERY_BODY_BYTES = 32 * 1024 * 1024;

export function serviceApiRoutes(deps: SandboxDeps): Hono<SandboxEnv> {
  const app = new Hono<SandboxEnv>();
  app.post(
    '/service-api',
    counted(deps.stats, 'POST /api/service-api'),
    requireBearer(deps.tokens),
    forced500(deps.faults, 'in-body'),
    bodyLimit({ maxSize: MAX_QUERY_BODY_BYTES, onError: (c) => c.json(statusBody(413, 'Payload Too Large'), 413) }),
    async (c) => {
      const body = await readJsonObject(c.req);
      if (!body) return c.json(statusBody(400, 'Invalid request: the body must be a JSON object'), 400);
      const alias = typeof body.service === 'string' ? body.service : '';
      if (!alias) return c.json(failureEnvelope(400, 'Campo obrigatório não informado: service', null), 200);
      const id = deps.product.resolve(alias);
      if (!id) return c.json(failureEnvelope(400, MSG.noAccess, alias), 200);

      let envelope: Envelope;
      let finished = true; // whether the query ran (and so whether a webhook follows)
      if (deps.faults.nextCallFails()) {
        envelope = technicalFailure();
      } else {
        const outcome = await runQuery(id, body, { documentoscopy: deps.documentoscopy, today: () => new Date() });
        switch (outcome.kind) {
          case 'result':
            envelope = successEnvelope(outcome.result, successMessage(outcome.seed), alias, SERVICE_CATALOG[id].required);
            break;
          case 'no-data':
            envelope = noDataEnvelope(outcome.message, alias);
            break;
          case 'refused':
            envelope = refusedEnvelope(outcome.message, alias);
            break;
          case 'failure':
            envelope = failureEnvelope(outcome.code, outcome.message, alias);
            finished = false;
            break;
          case 'technical-failure':
            envelope = technicalFailure();
            break;
        }
      }
      if (finished) deps.webhooks.sendLater(envelope, deps.options.queryWebhookDelayMs);
      return c.json(envelope, 200);
    },
  );
  return app;
}
