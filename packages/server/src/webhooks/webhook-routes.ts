/**
 * `POST /v1/webhooks`, called by the upstream (docs/page-api.md#upstream-webhooks): the
 * `id-service-token` header is checked constant-time before anything is read, both payload shapes
 * are accepted, the change is stored before answering, and the answer comes right away (no
 * upstream call inline; docs/upstream-api.md, rule 7).
 */
import { parseWebhook } from '@onboarding-kit/contract';
import { Hono } from 'hono';
import { secretEquals } from '../auth/access-key.js';
import { DomainError } from '../errors/domain-error.js';
import type { CompanionEnv } from '../http/env.js';
import { readJsonBody, requestHeader } from '../transport/index.js';
import type { NotifyInput } from '../notifications/outbox.js';
import type { Store } from '../store/index.js';
import { queryCompleted, withUnknownStatus } from './webhook-rules.js';

export interface WebhookRouteDeps {
  store: Store;
  webhookKey: string;
  /** Largest webhook body accepted (default 2 MiB). */
  maxBytes?: number;
  /** When set, a finished standalone query becomes a `query.completed` notification (docs/backend-api.md#notifications). */
  notifier?: { notify(input: NotifyInput): Promise<unknown> };
}

export function webhookRoutes(deps: WebhookRouteDeps): Hono<CompanionEnv> {
  const app = new Hono<CompanionEnv>();
  const maxBytes = deps.maxBytes ?? 2 * 1024 * 1024;

  app.post('/', async (c) => {
    const log = c.get('log');
    if (!secretEquals(requestHeader(c, 'id-service-token'), deps.webhookKey)) {
      log.warn('webhook refused: missing or wrong id-service-token');
      throw new DomainError('unauthorized', 'Missing or wrong id-service-token.');
    }
    // The upstream promises a JSON body, not its content type: any type is read.
    const body = await readJsonBody(c, maxBytes, { what: 'The webhook body' });
    const parsed = parseWebhook(body);
    if (!parsed) {
      const unknown = withUnknownStatus(body);
      if (unknown) {
        // The upstream never resends: a refusal would lose this message for good. Polling reads the outcome once it is one the contract knows.
        log.warn('webhook acknowledged: a status the contract does not know, not applied', unknown);
        return c.json({ received: true }, 200);
      }
      throw new DomainError('invalid_request', 'The webhook body is neither an onboarding report nor a service envelope.');
    }

    const { tokenOnboarding: token, status, externalId } = parsed;
    if (!token || !status) {
      // A finished standalone query: nothing of ours to update.
      log.info('webhook acknowledged: standalone query', {
        kind: parsed.kind,
        outcome: parsed.kind === 'query' ? parsed.outcome.kind : undefined,
        externalId,
      });
      // Queued before the 2xx, since the upstream never resends; a store failure answers 503 like any other.
      if (deps.notifier && parsed.kind === 'query') await deps.notifier.notify(queryCompleted(parsed, body));
      return c.json({ received: true }, 200);
    }
    // A store that fails here answers 503, the update applied or not (a timed-out Redis command may
    // still run): either is safe, since updates are idempotent, and the upstream never resends, so
    // polling is what brings the outcome then (docs/page-api.md#polling).
    const result = await deps.store.applyStatus(token, { status, source: 'webhook', ...(externalId && { externalId }) });
    if (!result) log.info('webhook acknowledged: unknown onboarding, ignored', { tokenOnboarding: token, status });
    else if (result.changed) log.info('webhook applied', { tokenOnboarding: token, status, externalId });
    else log.info('webhook acknowledged: no change', { tokenOnboarding: token, status, current: result.record.status });
    return c.json({ received: true }, 200);
  });

  return app;
}
