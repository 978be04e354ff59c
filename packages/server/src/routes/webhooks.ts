/**
 * `POST /v1/webhooks`, called by the upstream (spec section 6): the `id-service-token` header is
 * checked constant-time before anything is read, both payload shapes are accepted, the change is
 * stored before answering, and the answer comes right away (no upstream call inline).
 */
import { parseWebhook, type OnboardingStatus } from '@onboarding-kit/contract';
import { Hono } from 'hono';
import { secretEquals } from '../http/access-key.js';
import { CompanionError } from '../http/api-error.js';
import type { CompanionEnv } from '../http/env.js';
import { readLimitedBody } from '../http/limited-body.js';
import type { Store } from '../store/store.js';

export interface WebhookRouteDeps {
  store: Store;
  webhookKey: string;
  /** Largest webhook body accepted (default 2 MiB). */
  maxBytes?: number;
}

export function webhookRoutes(deps: WebhookRouteDeps): Hono<CompanionEnv> {
  const app = new Hono<CompanionEnv>();
  const maxBytes = deps.maxBytes ?? 2 * 1024 * 1024;

  app.post('/', async (c) => {
    const log = c.get('log');
    if (!secretEquals(c.req.header('id-service-token'), deps.webhookKey)) {
      log.warn('webhook refused: missing or wrong id-service-token');
      throw new CompanionError(401, 'unauthorized', 'Missing or wrong id-service-token.');
    }
    const read = await readLimitedBody(c.req.raw, maxBytes);
    if (!read.ok) throw new CompanionError(413, 'payload_too_large', `The webhook body is larger than ${maxBytes} bytes.`);
    let body: unknown;
    try {
      body = JSON.parse(new TextDecoder().decode(read.bytes));
    } catch {
      throw new CompanionError(400, 'invalid_json', 'The webhook body is not valid JSON.');
    }
    const parsed = parseWebhook(body);
    if (!parsed) throw new CompanionError(400, 'invalid_request', 'The webhook body is neither an onboarding report nor a service envelope.');

    let token: string | undefined;
    let status: OnboardingStatus | undefined;
    let externalId: string | undefined;
    if (parsed.kind === 'onboarding') {
      token = parsed.tokenOnboarding;
      status = parsed.status;
      const ext = (body as { externalId?: unknown }).externalId;
      if (typeof ext === 'string' && ext) externalId = ext;
    } else {
      token = parsed.tokenOnboarding;
      status = parsed.status;
      externalId = parsed.externalId;
    }
    if (!token || !status) {
      // A finished standalone query: nothing of ours to update.
      log.info('webhook acknowledged: standalone query', { kind: parsed.kind, outcome: parsed.kind === 'query' ? parsed.outcome.kind : undefined, externalId });
      return c.json({ received: true }, 200);
    }
    const result = await deps.store.applyStatus(token, { status, source: 'webhook', ...(externalId && { externalId }) });
    if (!result) log.info('webhook acknowledged: unknown onboarding, ignored', { tokenOnboarding: token, status });
    else if (result.changed) log.info('webhook applied', { tokenOnboarding: token, status, externalId });
    else log.info('webhook acknowledged: no change', { tokenOnboarding: token, status, current: result.record.status });
    return c.json({ received: true }, 200);
  });

  return app;
}
