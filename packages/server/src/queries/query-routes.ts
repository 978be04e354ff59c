/**
 * Standalone queries for the integrator's backend (docs/backend-api.md#standalone-queries):
 * `POST /` runs one service of the upstream's service-api with the companion's own token and
 * answers the request's id beside the outcome, `GET /qry_...` reads a request back (an
 * asynchronous inspection's included), `GET /:key` consults an inspection by its key at once.
 * Whenever the upstream answered, the caller gets 200 with the classified outcome, refusals and
 * "no data" included (docs/upstream-api.md, rules 1 and 2), non-contract members removed (rule
 * 6); a technical failure is the error shape with 502/503/504 and the upstream's `externalId`.
 */
import type { AliasMap, Outcome, QueryAnswer, QueryRequestView } from '@onboarding-kit/contract';
import { Hono, type Context, type MiddlewareHandler } from 'hono';
import { fromUpstream } from '../errors/from-upstream.js';
import { DomainError } from '../errors/domain-error.js';
import type { CompanionEnv } from '../http/env.js';
import { readJsonBody } from '../transport/index.js';
import { isUpstreamError, outcomeFailureType, UpstreamError } from '../upstream/upstream-error.js';
import { refuseInnerImageHosts, type ResolveHost } from './image-url-hosts.js';
import { QUERY_ID, queryRequestView } from './inspection-rules.js';
import { ASYNC_CONSULT, maxQueryBodyBytes, UUID, validateQuery } from './query-rules.js';
import type { QueryService } from './query-service.js';

export type { QueryAnswer } from '@onboarding-kit/contract';

export interface QueryRoutesDeps {
  /** The companion's upstream client (`UpstreamClient` fits). */
  upstream: { query(service: never, fields: never): Promise<Outcome> };
  /** Who may call: `requireApiKey(keyring)`. */
  auth: MiddlewareHandler<CompanionEnv>;
  /** Named in upstream failures, for support. */
  environment: string;
  /** Decoded size limit per image; the body limit follows from it. */
  imageMaxBytes: number;
  /** The product's call aliases, so a caller may name a catalog service by its alias too. */
  aliases?: AliasMap;
  /** How the host names of image URLs are resolved before they are checked (the companion passes `systemResolveHost` unless told otherwise). */
  resolveHost: ResolveHost;
  /** Records every answered query and follows asynchronous inspections to their end. */
  requests: Pick<QueryService, 'answered' | 'get'>;
}

/** Outcomes that are the upstream's answer to this query, whatever it says. The rest is technical. */
const ANSWERED = new Set<Outcome['kind']>(['success', 'no-data', 'refused', 'failed', 'no-access', 'missing-image', 'face-not-found']);

export function queryRoutes(deps: QueryRoutesDeps): Hono<CompanionEnv> {
  if (typeof deps.auth !== 'function')
    throw new TypeError('queryRoutes needs auth (requireApiKey(keyring)): these routes spend upstream credit.');
  if (typeof deps.resolveHost !== 'function')
    throw new TypeError('queryRoutes needs resolveHost (systemResolveHost): image URLs are checked before the upstream fetches them.');
  const app = new Hono<CompanionEnv>();
  const query = deps.upstream.query.bind(deps.upstream) as unknown as (service: string, fields: Record<string, string>) => Promise<Outcome>;
  app.use('*', deps.auth);

  async function run(c: Context<CompanionEnv>, service: string, fields: Record<string, string>): Promise<Outcome> {
    const log = c.get('log');
    let outcome: Outcome;
    try {
      outcome = await query(service, fields);
    } catch (error) {
      if (isUpstreamError(error)) throw fromUpstream(error, deps.environment, 'backend');
      throw error;
    }
    // The externalId is what the upstream's support asks for (docs/upstream-api.md, rule 2).
    log?.info('standalone query', { service, kind: outcome.kind, ...(outcome.externalId && { externalId: outcome.externalId }) });
    if (ANSWERED.has(outcome.kind)) return outcome;
    // ERROR, an in-body 500, a non-envelope answer or the upstream refusing the companion itself.
    const kind = outcome.kind === 'unauthorized' ? 'unauthorized' : 'failed';
    const op = `POST /api/service-api ${service}`;
    throw fromUpstream(
      new UpstreamError(kind, op, `The upstream reported a technical failure (${outcome.kind}).`, {
        ...(outcome.code !== undefined && { code: outcome.code }),
        ...(outcome.message !== undefined && { upstreamMessage: outcome.message }),
        ...(outcome.externalId && { externalId: outcome.externalId }),
        type: outcomeFailureType(outcome, op),
      }),
      deps.environment,
      'backend',
    );
  }

  app.post('/', async (c) => {
    const body = await readJsonBody(c, maxQueryBodyBytes(deps.imageMaxBytes), { requireJsonType: true, what: 'The query' });
    const { service, fields, key, notify } = validateQuery(body, deps);
    await refuseInnerImageHosts(fields, deps.resolveHost);
    const outcome = await run(c, service, fields);
    const request = await deps.requests.answered({ service, ...(key && { key }), outcome, notify });
    c.get('log')?.info('query request recorded', { requestId: request.id, status: request.status, ...(key && { key }) });
    c.header('Cache-Control', 'no-store');
    return c.json<QueryAnswer>({ ...outcome, ...(key && { key }), id: request.id }, 200);
  });

  app.get('/:key', async (c) => {
    const key = c.req.param('key');
    if (key.startsWith('qry_')) {
      const request = QUERY_ID.test(key) ? await deps.requests.get(key) : null;
      if (!request) throw new DomainError('not_found', 'No query request has this id (it may have been deleted by retention).');
      c.header('Cache-Control', 'no-store');
      return c.json<QueryRequestView>(queryRequestView(request), 200);
    }
    if (!UUID.test(key)) throw new DomainError('invalid_field', 'The key must be the UUID-shaped key of an inspection.', { field: 'key' });
    const outcome = await run(c, ASYNC_CONSULT, { key });
    c.header('Cache-Control', 'no-store');
    return c.json<QueryAnswer>({ ...outcome, key }, 200);
  });

  return app;
}
