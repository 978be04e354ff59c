/**
 * Session routes (docs/backend-api.md#sessions): the backend's, behind an API key, to open, read,
 * list, cancel and redact sessions; and the page's `GET /v1/session`, behind one of the session's page secrets.
 */
import { SESSION_LIMITS, validateCreateSession } from '@onboarding-kit/contract';
import { Hono, type Context, type MiddlewareHandler } from 'hono';
import { DomainError } from '../errors/domain-error.js';
import type { CompanionEnv } from '../http/env.js';
import { idempotencyKey } from '../idempotency/idempotency-header.js';
import { fingerprint } from '../idempotency/idempotency-rules.js';
import { plainHttpRefused } from '../net/address-rules.js';
import { parseJsonBytes, readBodyBytes, readJsonBody } from '../transport/index.js';
import { pageHandoffState, pageSessionFor } from '../handoff/handoff-rules.js';
import { pageCaller } from '../handoff/handoff-routes.js';
import { exchangeCapture } from './capture-service.js';
import type { SessionService } from './session-service.js';
import type { LifecycleService } from './lifecycle-service.js';
import { parseListQuery } from './list-rules.js';
import { toPageSession } from './session-view.js';

export interface SessionRouteDeps {
  sessions: SessionService;
  /** Cancel, redact, list. */
  lifecycle: LifecycleService;
  /** The backend's authentication (an API key). */
  auth: MiddlewareHandler<CompanionEnv>;
  /** In production a `returnUrl` must be https (plain http only on a loopback host). */
  environment: string;
}

const noSuchSession = () => new DomainError('not_found', 'No such session.');

/** `/v1/sessions`: the integrator's backend opens and reads sessions. */
export function sessionRoutes({ sessions, lifecycle, auth, environment }: SessionRouteDeps): Hono<CompanionEnv> {
  const app = new Hono<CompanionEnv>();
  app.use('*', auth);

  app.post('/', async (c) => {
    const key = idempotencyKey(c);
    const body = await readJsonBody(c, SESSION_LIMITS.maxBodyBytes, { requireJsonType: true, what: 'The session' });
    const validation = validateCreateSession(body);
    if (!validation.ok) {
      const { code, message, field } = validation.error;
      throw new DomainError(code, message, field ? { field } : {});
    }
    // The person's browser is sent there at the end, with the session id: not in clear across a network.
    if (validation.value.returnUrl !== undefined && plainHttpRefused(validation.value.returnUrl, environment))
      throw new DomainError('invalid_field', 'returnUrl must be https in production (plain http only on a loopback host).', {
        field: 'returnUrl',
      });
    const { response, replayed } = await sessions.open(validation.value, {
      ...(key && { idempotencyKey: key }),
      fingerprint: fingerprint(body),
      origin: new URL(c.req.url).origin,
    });
    if (replayed) c.header('Idempotent-Replayed', 'true');
    return c.json(response, replayed ? 200 : 201);
  });

  app.get('/', async (c) => {
    const parsed = parseListQuery(c.req.query());
    if (!parsed.ok) {
      const { code, message, field } = parsed.error;
      throw new DomainError(code, message, field ? { field } : {});
    }
    return c.json(await lifecycle.list(parsed.value.query, parsed.value.limit));
  });

  app.post('/:id/cancel', async (c) => {
    await emptyBody(c);
    return c.json(await lifecycle.cancel(c.req.param('id')));
  });

  app.post('/:id/redact', async (c) => {
    await emptyBody(c);
    return c.json(await lifecycle.redact(c.req.param('id')));
  });

  app.get('/:id', async (c) => {
    const view = await sessions.view(c.req.param('id'));
    if (!view) throw noSuchSession();
    return c.json(view);
  });

  return app;
}

const SMALL_BODY_BYTES = 1024;

/** A lifecycle call carries no body, or `{}`. */
async function emptyBody(c: Context<CompanionEnv>): Promise<void> {
  const bytes = await readBodyBytes(c, SMALL_BODY_BYTES, { what: 'The body' });
  if (bytes.length === 0) return;
  const body = parseJsonBytes(bytes);
  if (typeof body !== 'object' || body === null || Array.isArray(body) || Object.keys(body).length > 0)
    throw new DomainError('invalid_request', 'This call takes no body, or {}.');
}

/** `{ captureToken }`, a string of sane length, nothing else. */
function validateExchange(body: unknown): string {
  const token = (body as { captureToken?: unknown } | null)?.captureToken;
  if (typeof body !== 'object' || body === null || Array.isArray(body) || Object.keys(body).length !== 1 || typeof token !== 'string')
    throw new DomainError('invalid_request', 'The exchange must be a JSON object: {"captureToken": ...}.');
  if (token.length < 16 || token.length > 128)
    throw new DomainError('invalid_field', 'captureToken must be a string of sane length.', { field: 'captureToken' });
  return token;
}

/**
 * `/v1/session`: the page reads the session its secret opens (client secret, page secret, capture
 * token or a hand-off's device secret), with which device holds it; the hosted page trades its
 * capture token for a page secret (`POST /exchange`, without authorisation: the token is the proof).
 */
export function pageSessionRoutes({ sessions }: Pick<SessionRouteDeps, 'sessions'>): Hono<CompanionEnv> {
  const app = new Hono<CompanionEnv>();
  app.post('/exchange', async (c) => {
    const token = validateExchange(await readJsonBody(c, SMALL_BODY_BYTES, { requireJsonType: true, what: 'The exchange' }));
    const exchanged = await exchangeCapture(sessions, token);
    c.get('log').info('capture link exchanged for a page secret', { sessionId: exchanged.sessionId });
    c.header('Cache-Control', 'no-store');
    return c.json(exchanged, 201);
  });
  app.get('/', async (c) => {
    const caller = await pageCaller(c, sessions);
    const now = sessions.now();
    return c.json(pageSessionFor(toPageSession(caller.session, now), pageHandoffState(caller.session, caller, now)));
  });
  return app;
}
