/**
 * The hand-off routes (docs/page-api.md#hand-off). Page routes under `/v1/session`, behind any of
 * the session's page secrets: `POST /handoff` (a link, for the origin), `POST /handoff/reclaim`,
 * `POST /progress` (the holder's step and photos) and `GET /events` (the session's live events).
 * And `POST /v1/handoff/claim`, without authorisation: the link's token or short code, once.
 */
import {
  HANDOFF_LIMITS,
  HANDOFF_PROGRESS_STEPS,
  HANDOFF_ROLES,
  type HandoffRole,
  type SessionProgressReport,
} from '@onboarding-kit/contract';
import { Hono, type Context } from 'hono';
import { streamSSE } from 'hono/streaming';
import { bearer } from '../auth/access-key.js';
import { DomainError } from '../errors/domain-error.js';
import type { CompanionEnv } from '../http/env.js';
import { readJsonBody } from '../transport/json-body.js';
import type { StreamRegistry } from '../relay/stream-registry.js';
import type { Timers, TimerHandle } from '../relay/timers.js';
import type { SessionRecord } from '../store/backend-state.js';
import type { Store } from '../store/store.js';
import { holds, pageHandoffState, sessionHandedOff, stillValid, type PageCaller } from './handoff-rules.js';
import type { ClaimInput, HandoffService } from './handoff-service.js';
import type { SessionService } from '../sessions/session-service.js';
import { toPageSession } from '../sessions/session-view.js';
import { requestHeader } from '../transport/request-header.js';

export interface HandoffRouteDeps {
  sessions: SessionService;
  handoff: HandoffService;
  streams: StreamRegistry;
  timers: Timers;
  sse: { keepAliveMs: number; retryMs: number };
  /** The client's address, which short-code attempts are counted by. */
  clientAddress: (c: Context) => string;
  /** Where the attempts are counted (shared by every instance on the store). */
  counters: Pick<Store, 'consumeRateLimit'>;
}

const SMALL_BODY_BYTES = 1024;

const unauthorized = () =>
  new DomainError('unauthorized', 'This session link is not valid: ask the service provider for a new one.', { realm: 'onboarding-session' });

/**
 * The page behind the request's Bearer: 401 for an unknown secret, 409 `session_handed_off` for a
 * device that no longer holds its session (the origin took it back, or handed it on again).
 */
export async function pageCaller(c: Context, sessions: SessionService): Promise<PageCaller> {
  const caller = await sessions.authenticatePage(bearer(requestHeader(c, 'authorization')));
  if (!caller) throw unauthorized();
  if (!stillValid(caller.session, caller)) throw sessionHandedOff();
  return caller;
}

/** `/v1/session/...`: the hand-off's page routes. */
export function handoffPageRoutes(deps: HandoffRouteDeps): Hono<CompanionEnv> {
  const { sessions, handoff } = deps;
  const app = new Hono<CompanionEnv>();

  app.post('/handoff', async (c) => {
    const caller = await pageCaller(c, sessions);
    const offer = await handoff.offer(caller, new URL(c.req.url).origin);
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
    const lastId = Number(c.req.header('last-event-id') ?? '0');
    const after = Number.isSafeInteger(lastId) && lastId > 0 ? lastId : 0;
    c.header('X-Accel-Buffering', 'no');
    return streamSSE(c, (stream) => followSession(deps, caller, after, stream), async (error) => {
      c.get('log').debug('session event stream ended with an error', { error });
    });
  });

  return app;
}

/** `/v1/handoff`: the claim, by the device the link or code reached. */
export function handoffClaimRoutes(deps: HandoffRouteDeps): Hono<CompanionEnv> {
  const app = new Hono<CompanionEnv>();
  app.post('/claim', async (c) => {
    const input = validateClaim(await readJsonBody(c, SMALL_BODY_BYTES, { requireJsonType: true, what: 'The claim' }));
    if ('code' in input) {
      // Every code attempt counts, right or wrong: 10 a minute per address leaves a guess at 1 in 10^10.
      const decision = await deps.counters.consumeRateLimit(`handoff:${deps.clientAddress(c)}`, HANDOFF_LIMITS.claimAttemptsPerWindow, HANDOFF_LIMITS.claimWindowS * 1000);
      if (!decision.allowed) {
        const retryAfter = Math.max(1, Math.ceil(decision.retryAfterMs / 1000));
        c.get('log').warn('hand-off code attempts rate limited', { limit: HANDOFF_LIMITS.claimAttemptsPerWindow });
        throw new DomainError('rate_limited', `Too many code attempts from this address; try again in ${retryAfter} s.`, { retryAfterS: retryAfter });
      }
    }
    return c.json(await deps.handoff.claim(input), 200);
  });
  return app;
}

interface SseStream {
  write(text: string): Promise<unknown>;
  writeSSE(message: { event: string; data: string; id: string }): Promise<unknown>;
  onAbort(fn: () => void): void;
}

/**
 * Streams the session's log after `after` (all of it on a first connection, so a reloaded page
 * finds the current state), then each new entry as the store tells of a change, from whichever
 * instance made it. Ends once the session is completed or expired, or when this device no longer
 * holds it. A pending link, or the session itself, lapsing while watched is marked here (once,
 * whichever instance's stream comes first), so both pages hear of it.
 */
async function followSession(deps: HandoffRouteDeps, caller: PageCaller, after: number, stream: SseStream): Promise<void> {
  const { sessions, handoff, timers } = deps;
  const id = caller.session.id;
  let changed = true;
  let finished = false;
  let wake: (() => void) | undefined;
  const poke = () => {
    changed = true;
    wake?.();
    wake = undefined;
  };
  const stop = () => {
    finished = true;
    poke();
  };
  // Subscribe before the first read, so a change between the two cannot be missed.
  const unsubscribe = sessions.store.subscribeSession(id, poke);
  let reconnectIn: number | undefined;
  const unregister = deps.streams.add((retryMs) => {
    reconnectIn = retryMs;
    stop();
  });
  stream.onAbort(stop);
  const keepAlive = setInterval(() => void stream.write(': keep-alive\n\n').catch(stop), deps.sse.keepAliveMs);
  let due: TimerHandle | undefined;
  let sent = after;
  let ended = false;
  try {
    await stream.write(`retry: ${deps.sse.retryMs}\n\n`);
    while (!finished) {
      if (!changed) await new Promise<void>((resolve) => (wake = resolve));
      if (finished) break;
      changed = false;
      const session = await sessions.store.getSession(id);
      if (!session) break;
      for (const entry of session.events ?? []) {
        if (entry.seq <= sent) continue;
        await stream.writeSSE({ event: entry.event.type, data: JSON.stringify(entry.event), id: String(entry.seq) });
        sent = entry.seq;
      }
      ended = session.status === 'completed' || session.status === 'expired' || !stillValid(session, caller);
      if (ended) break;
      timers.clearTimeout(due);
      due = scheduleLapse(session, sessions.now(), timers, () => {
        void Promise.all([handoff.expireOfferIfDue(id), sessions.expireIfDue(session)]).catch(() => poke());
      });
    }
    if (reconnectIn !== undefined && !ended) await stream.write(`retry: ${reconnectIn}\n\n`).catch(() => {});
  } finally {
    timers.clearTimeout(due);
    clearInterval(keepAlive);
    unsubscribe();
    unregister();
  }
}

/** A timer for the next moment the session changes by itself (a pending link or the session lapsing). */
function scheduleLapse(session: SessionRecord, nowMs: number, timers: Timers, fn: () => void): TimerHandle | undefined {
  const moments: number[] = [];
  const offer = session.handoff?.offer;
  if (offer?.state === 'pending') moments.push(Date.parse(offer.expiresAt));
  if (session.status === 'open') moments.push(Date.parse(session.expiresAt));
  if (moments.length === 0) return undefined;
  // Already due but not marked: at once. A failure (store down) pokes the loop, which schedules again.
  const at = Math.min(...moments);
  return timers.setTimeout(fn, Math.max(0, at - nowMs));
}

function invalid(message: string, field?: string): DomainError {
  return new DomainError('invalid_field', message, field ? { field } : {});
}

/** `{ token }` or `{ code }`, strings of sane length, nothing else. */
export function validateClaim(body: unknown): ClaimInput {
  if (typeof body !== 'object' || body === null || Array.isArray(body)) throw new DomainError('invalid_request', 'The claim must be a JSON object: {"token": ...} or {"code": ...}.');
  const keys = Object.keys(body);
  const extra = keys.find((k) => k !== 'token' && k !== 'code');
  if (extra !== undefined) throw invalid(`Unknown member ${JSON.stringify(extra.slice(0, 40))}: a claim has a token or a code.`, extra.slice(0, 40));
  if (keys.length !== 1) throw invalid('A claim has exactly one of token and code.', keys.length === 0 ? 'token' : 'code');
  const [name] = keys as ['token' | 'code'];
  const value = (body as Record<string, unknown>)[name];
  if (typeof value !== 'string' || value.length < 1 || value.length > (name === 'code' ? 32 : 128)) throw invalid(`${name} must be a string of sane length.`, name);
  return name === 'token' ? { token: value } : { code: value };
}

/** A progress report: a step of the flow and the photos taken (each role once). */
export function validateProgress(body: unknown): SessionProgressReport {
  if (typeof body !== 'object' || body === null || Array.isArray(body)) throw new DomainError('invalid_request', 'The progress report must be a JSON object: {"step": ..., "photos": [...]}.');
  const record = body as Record<string, unknown>;
  const extra = Object.keys(record).find((k) => k !== 'step' && k !== 'photos');
  if (extra !== undefined) throw invalid(`Unknown member ${JSON.stringify(extra.slice(0, 40))}: a progress report has step and photos.`, extra.slice(0, 40));
  const { step, photos } = record;
  if (typeof step !== 'string' || !(HANDOFF_PROGRESS_STEPS as readonly string[]).includes(step)) throw invalid(`step must be one of: ${HANDOFF_PROGRESS_STEPS.join(', ')}.`, 'step');
  if (!Array.isArray(photos) || photos.length > HANDOFF_ROLES.length) throw invalid(`photos must be a list of: ${HANDOFF_ROLES.join(', ')}.`, 'photos');
  const seen = new Set<string>();
  for (const [i, p] of photos.entries()) {
    if (typeof p !== 'string' || !HANDOFF_ROLES.includes(p as HandoffRole) || seen.has(p)) throw invalid(`photos must name each of ${HANDOFF_ROLES.join(', ')} at most once.`, `photos.${i}`);
    seen.add(p);
  }
  return { step, photos: photos as HandoffRole[] };
}
