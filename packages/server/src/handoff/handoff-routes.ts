/**
 * The hand-off routes (docs/page-api.md#hand-off). Page routes under `/v1/session`, behind any of
 * the session's page secrets: `POST /handoff` (a link, for the origin), `POST /handoff/reclaim`,
 * `POST /progress` (the holder's step and photos) and `GET /events` (the session's live events).
 * And `POST /v1/handoff/claim`, without authorisation: the link's token or short code, once.
 */
import { HANDOFF_PROGRESS_STEPS, HANDOFF_ROLES, type HandoffRole, type SessionProgressReport } from '@onboarding-kit/contract';
import { Hono, type Context } from 'hono';
import { bearer } from '../auth/access-key.js';
import { DomainError } from '../errors/domain-error.js';
import type { CompanionEnv } from '../http/env.js';
import { KeepAliveTick, readJsonBody, requestHeader, sendEventStream } from '../transport/index.js';
import type { StreamRegistry } from '../relay/stream-registry.js';
import type { Logger } from '../logger.js';
import type { Timers } from '../relay/timers.js';
import { countCodeAttempt, type AttemptCounters } from './attempt-limits.js';
import { validateOfferAnswers } from './handoff-answers.js';
import { holds, pageHandoffState, sessionHandedOff, stillValid, type PageCaller } from './handoff-rules.js';
import type { ClaimInput, HandoffService } from './handoff-service.js';
import type { SessionService } from '../sessions/session-service.js';
import { toPageSession } from '../sessions/session-view.js';
import { SessionEvents, type SessionEventDeps } from './session-events.js';
import { sessionCancelled } from '../sessions/session-refusals.js';

export interface HandoffRouteDeps {
  sessions: SessionService;
  handoff: HandoffService;
  streams: StreamRegistry;
  timers: Timers;
  sse: { keepAliveMs: number; retryMs: number };
  /** The client's address, which short-code attempts are counted by. */
  clientAddress: (c: Context) => string;
  /** Where the attempts are counted (shared by every instance on the store). */
  counters: AttemptCounters;
  /** Short-code attempts a minute from all addresses together. */
  codeAttemptsPerMinute: number;
  /** The app's logger (event streams log with their request's id, without holding the request's logger). */
  logger: Logger;
}

const SMALL_BODY_BYTES = 1024;

const unauthorized = () =>
  new DomainError('unauthorized', 'This session link is not valid: ask the service provider for a new one.', {
    realm: 'onboarding-session',
  });

/**
 * The page behind the request's Bearer: 401 for an unknown secret, 410 `session_cancelled` once the
 * backend cancelled the session, 409 `session_handed_off` for a device that no longer holds its
 * session (the origin took it back, or handed it on again).
 */
export async function pageCaller(c: Context, sessions: SessionService): Promise<PageCaller> {
  const caller = await sessions.authenticatePage(bearer(requestHeader(c, 'authorization')));
  if (!caller) throw unauthorized();
  if (caller.session.status === 'cancelled') throw sessionCancelled();
  if (!stillValid(caller.session, caller)) throw sessionHandedOff();
  return caller;
}

/** `/v1/session/...`: the hand-off's page routes. */
export function handoffPageRoutes(deps: HandoffRouteDeps): Hono<CompanionEnv> {
  const { sessions, handoff } = deps;
  const app = new Hono<CompanionEnv>();
  // One keep-alive tick for all of this app's event streams, and what they all share.
  const streamDeps: SessionEventDeps = {
    sessions,
    handoff,
    timers: deps.timers,
    streams: deps.streams,
    tick: new KeepAliveTick(deps.sse.keepAliveMs),
    retryMs: deps.sse.retryMs,
    log: deps.logger,
  };

  app.post('/handoff', async (c) => {
    const caller = await pageCaller(c, sessions);
    // A body is optional: an offer without one carries no answers and the phone starts at the intro.
    const sent = hasBody(c) ? await readJsonBody(c, SMALL_BODY_BYTES, { requireJsonType: true, what: 'The hand-off offer' }) : {};
    const answers = validateOfferAnswers(sent, caller.session, sessions.now());
    const offer = await handoff.offer(caller, new URL(c.req.url).origin, answers);
    return c.json(offer, 201);
  });

  app.post('/handoff/reclaim', async (c) => {
    const caller = await pageCaller(c, sessions);
    const session = await handoff.reclaim(caller);
    const now = sessions.now();
    return c.json({ ...toPageSession(session, now), handoff: pageHandoffState(session, caller, now) });
  });

  app.post('/progress', async (c) => {
    const caller = await pageCaller(c, sessions);
    if (!holds(caller.session, caller)) throw sessionHandedOff();
    const report = validateProgress(await readJsonBody(c, SMALL_BODY_BYTES, { requireJsonType: true, what: 'The progress report' }));
    await handoff.progress(caller, report);
    return c.body(null, 204);
  });

  app.get('/events', async (c) => {
    const caller = await pageCaller(c, sessions);
    const lastId = Number(requestHeader(c, 'last-event-id') ?? '0');
    const after = Number.isSafeInteger(lastId) && lastId > 0 ? lastId : 0;
    return sendEventStream(c, new SessionEvents(caller, after, streamDeps, c.get('requestId')));
  });

  return app;
}

/** `/v1/handoff`: the claim, by the device the link or code reached. */
export function handoffClaimRoutes(deps: HandoffRouteDeps): Hono<CompanionEnv> {
  const app = new Hono<CompanionEnv>();
  app.post('/claim', async (c) => {
    const input = validateClaim(await readJsonBody(c, SMALL_BODY_BYTES, { requireJsonType: true, what: 'The claim' }));
    if ('code' in input) {
      // Every code attempt counts, right or wrong; a link's 192-bit token needs no count.
      const refused = await countCodeAttempt(deps.counters, deps.clientAddress(c), deps.codeAttemptsPerMinute);
      if (refused) {
        c.get('log').warn('hand-off code attempts rate limited', { limit: refused.limit });
        throw refused.error;
      }
    }
    return c.json(await deps.handoff.claim(input), 200);
  });
  return app;
}

/** Whether the request declares a body (a length above zero, or a chunked one). */
function hasBody(c: Context): boolean {
  const length = requestHeader(c, 'content-length');
  return length !== undefined ? Number(length) > 0 : requestHeader(c, 'transfer-encoding') !== undefined;
}

function invalid(message: string, field?: string): DomainError {
  return new DomainError('invalid_field', message, field ? { field } : {});
}

/** `{ token }` or `{ code }`, strings of sane length, nothing else. */
function validateClaim(body: unknown): ClaimInput {
  if (typeof body !== 'object' || body === null || Array.isArray(body))
    throw new DomainError('invalid_request', 'The claim must be a JSON object: {"token": ...} or {"code": ...}.');
  const keys = Object.keys(body);
  const extra = keys.find((k) => k !== 'token' && k !== 'code');
  if (extra !== undefined)
    throw invalid(`Unknown member ${JSON.stringify(extra.slice(0, 40))}: a claim has a token or a code.`, extra.slice(0, 40));
  if (keys.length !== 1) throw invalid('A claim has exactly one of token and code.', keys.length === 0 ? 'token' : 'code');
  const [name] = keys as ['token' | 'code'];
  const value = (body as Record<string, unknown>)[name];
  if (typeof value !== 'string' || value.length < 1 || value.length > (name === 'code' ? 32 : 128))
    throw invalid(`${name} must be a string of sane length.`, name);
  return name === 'token' ? { token: value } : { code: value };
}

/** A progress report: a step of the flow and the photos taken (each role once). */
function validateProgress(body: unknown): SessionProgressReport {
  if (typeof body !== 'object' || body === null || Array.isArray(body))
    throw new DomainError('invalid_request', 'The progress report must be a JSON object: {"step": ..., "photos": [...]}.');
  const record = body as Record<string, unknown>;
  const extra = Object.keys(record).find((k) => k !== 'step' && k !== 'photos');
  if (extra !== undefined)
    throw invalid(`Unknown member ${JSON.stringify(extra.slice(0, 40))}: a progress report has step and photos.`, extra.slice(0, 40));
  const { step, photos } = record;
  if (typeof step !== 'string' || !(HANDOFF_PROGRESS_STEPS as readonly string[]).includes(step))
    throw invalid(`step must be one of: ${HANDOFF_PROGRESS_STEPS.join(', ')}.`, 'step');
  if (!Array.isArray(photos) || photos.length > HANDOFF_ROLES.length)
    throw invalid(`photos must be a list of: ${HANDOFF_ROLES.join(', ')}.`, 'photos');
  const seen = new Set<string>();
  for (const [i, p] of photos.entries()) {
    if (typeof p !== 'string' || !HANDOFF_ROLES.includes(p as HandoffRole) || seen.has(p))
      throw invalid(`photos must name each of ${HANDOFF_ROLES.join(', ')} at most once.`, `photos.${i}`);
    seen.add(p);
  }
  return { step, photos: photos as HandoffRole[] };
}
