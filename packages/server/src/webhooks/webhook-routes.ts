/**
 * `POST /v1/webhooks`, called by the upstream (docs/page-api.md#upstream-webhooks): the
 * `id-service-token` header is checked constant-time before anything is read, failed checks are
 * limited per address, and both payload shapes are accepted. An onboarding's status in a webhook
 * is a hint, never the verdict: the onboarding's report is read from the upstream and what the
 * upstream says is applied; a webhook that disagrees changes nothing and is logged. A finished
 * standalone query is a hint too: the pending inspection of the key it names is consulted at the
 * upstream, and only the upstream's answer ends it (queries/query-service.ts). The answer comes
 * right away: the read runs after it (docs/upstream-api.md, rule 7), and when it fails polling
 * brings the outcome.
 */
import { isTerminalStatus, parseWebhook, type OnboardingStatus } from '@onboarding-kit/contract';
import type { Context } from 'hono';
import { Hono } from 'hono';
import { COMPANION_DEFAULTS } from '../config/defaults.js';
import { DomainError } from '../errors/domain-error.js';
import type { CompanionEnv } from '../http/env.js';
import type { Logger } from '../logger.js';
import { readJsonBody } from '../transport/index.js';
import type { QueryService } from '../queries/query-service.js';
import type { StatusPoller } from '../relay/poller.js';
import type { Store } from '../store/index.js';
import { webhookAuth } from './webhook-auth.js';
import { hintCheck, withUnknownStatus } from './webhook-rules.js';

export interface WebhookRouteDeps {
  store: Store;
  webhookKey: string;
  /** Reads an onboarding's report from the upstream at once and applies it (the poller). */
  reports: Pick<StatusPoller, 'checkNow'>;
  /** The client's address, which failed authentications are counted against. */
  clientAddress: (c: Context) => string;
  /** Largest webhook body accepted (default 2 MiB). */
  maxBytes?: number;
  /** When set, a finished standalone query hints at the pending inspection of its key (docs/backend-api.md#asynchronous-inspections). */
  queries?: Pick<QueryService, 'hint'>;
}

export function webhookRoutes(deps: WebhookRouteDeps): Hono<CompanionEnv> {
  const app = new Hono<CompanionEnv>();
  const maxBytes = deps.maxBytes ?? 2 * 1024 * 1024;
  const { limit, windowMs } = COMPANION_DEFAULTS.webhookAuthFailures;
  const auth = webhookAuth({ key: deps.webhookKey, limit, windowMs, clientAddress: deps.clientAddress, counters: deps.store });

  app.post('/', auth, async (c) => {
    const log = c.get('log');
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
      log.info('webhook acknowledged: standalone query', {
        kind: parsed.kind,
        outcome: parsed.kind === 'query' ? parsed.outcome.kind : undefined,
        externalId,
      });
      // A store that fails finding the request answers 503; the schedule consults pending inspections anyway.
      if (deps.queries && parsed.kind === 'query') await deps.queries.hint(parsed.outcome.result, body, log);
      return c.json({ received: true }, 200);
    }
    // A store that fails here answers 503: the upstream never resends, so polling is what brings
    // the outcome then (docs/page-api.md#polling).
    const record = await deps.store.get(token);
    if (!record) log.info('webhook acknowledged: unknown onboarding, ignored', { tokenOnboarding: token, status });
    else if (record.status === status)
      log.info('webhook acknowledged: no change', { tokenOnboarding: token, status, current: record.status });
    else if (isTerminalStatus(record.status))
      log.warn('webhook disagrees with the decided status, not applied', { tokenOnboarding: token, status, current: record.status });
    else {
      log.info('webhook acknowledged: reading the report from the upstream', { tokenOnboarding: token, status });
      void deps.reports.checkNow(token, 'webhook').then((upstream) => reportChecked(log, token, status, upstream));
    }
    return c.json({ received: true }, 200);
  });

  return app;
}

/** The one log line that says how the upstream's report compared with the webhook that asked for it. */
function reportChecked(log: Logger, token: string, hint: OnboardingStatus, upstream: OnboardingStatus | null): void {
  const check = hintCheck(hint, upstream);
  if (check === 'confirmed') log.info('webhook confirmed by the upstream', { tokenOnboarding: token, status: hint });
  else if (check === 'disagrees')
    log.warn('webhook disagrees with the upstream, not applied', { tokenOnboarding: token, status: hint, upstream });
}
