/**
 * The page API for onboardings: creation (validated entirely before anything goes upstream),
 * state, the event stream, and the optional PDF. Reads need the page's access key; a missing or
 * wrong key is answered exactly like an unknown token.
 */
import { isPdf, maxCreateBodyBytes, type ImageRoleName } from '@onboarding-kit/contract';
import { Hono, type Context } from 'hono';
import { bearer } from '../auth/access-key.js';
import { DomainError } from '../errors/domain-error.js';
import { fromUpstream } from '../errors/from-upstream.js';
import type { CompanionEnv } from '../http/env.js';
import { idempotencyKey } from '../idempotency/idempotency-header.js';
import type { Logger } from '../logger.js';
import { rateLimit } from '../middleware/rate-limit.js';
import { addToRequestLine } from '../middleware/request-log.js';
import type { StatusPoller } from '../relay/poller.js';
import type { StreamRegistry } from '../relay/stream-registry.js';
import { creationTaxId } from '../sessions/person-rules.js';
import type { SessionService } from '../sessions/session-service.js';
import type { OnboardingRecord, Store } from '../store/index.js';
import {
  bodyArriving,
  clientGone,
  KeepAliveTick,
  readBodyBytes,
  requestHeader,
  sendEventStream,
  type Admission,
  type BodyBuffers,
  type BodyPace,
} from '../transport/index.js';
import type { EncodedJson, UpstreamClient } from '../upstream/upstream-client.js';
import { isUpstreamError } from '../upstream/upstream-error.js';
import { validateCreationBytes } from './creation-body.js';
import { CreationPlaces } from './creation-places.js';
import { OnboardingEvents, type OnboardingEventDeps } from './onboarding-events.js';
import { OnboardingService, type Creator, type Slot } from './onboarding-service.js';
import { toState } from './onboarding-state.js';

export interface OnboardingRouteDeps {
  store: Store;
  upstream: UpstreamClient;
  poller: StatusPoller;
  streams: StreamRegistry;
  environment: string;
  imageMaxBytes: number;
  documentFileTypes: Record<ImageRoleName, string>;
  rateLimit: number;
  clientAddress: (c: Context) => string;
  reportPdf: boolean;
  sse: { keepAliveMs: number; retryMs: number };
  /** The app's logger (event streams log with their request's id, without holding the request's logger). */
  logger: Logger;
  /** Sessions, when the backend routes are on. */
  sessions?: SessionService;
  /** Refuse creations without a session (401). */
  sessionsRequired?: boolean;
  /** Turns for creations: how many hold a body at once, how many may wait (transport/admission.ts). */
  admission: Admission;
  /** The pace a body keeps its turn at (transport/body-pace.ts), and creations at once per client address and per session (./creation-places.ts). */
  creations: BodyPace & { perClient: number };
  /** Where creation bodies are read into, used again once the upstream is done with them (transport/body-buffers.ts). */
  bodyBuffers?: BodyBuffers;
}

/** How a creation's body is read and named in its refusals. */
const CREATION_BODY = { requireJsonType: true, what: 'The onboarding' } as const;

/** Answers with the record when the token exists and the Bearer key is its key; otherwise the one 404. */
type Authorise = (c: Context<CompanionEnv>, token: string) => Promise<OnboardingRecord>;

export function onboardingRoutes(deps: OnboardingRouteDeps): Hono<CompanionEnv> {
  const app = new Hono<CompanionEnv>();
  const onboardings = new OnboardingService(deps);
  const authorise: Authorise = (c, token) => onboardings.open(token, bearer(requestHeader(c, 'authorization')));
  mountCreation(app, deps, onboardings);
  mountReads(app, deps, authorise);
  if (deps.reportPdf) mountReportPdf(app, deps, authorise);
  return app;
}

function mountCreation(app: Hono<CompanionEnv>, deps: OnboardingRouteDeps, onboardings: OnboardingService): void {
  const pace: BodyPace = deps.creations;
  const perClient = new CreationPlaces(deps.store, deps.creations.perClient);

  app.post('/', rateLimit({ limit: deps.rateLimit, clientAddress: deps.clientAddress, counters: deps.store }), async (c) => {
    // Everything up to the turn is decided before the body is read, so a refusal costs no upload,
    // and a second creation on a session never waits for a body.
    const leaveAddress = await perClient.enter(`address:${deps.clientAddress(c)}`, 'from this address');
    let leaveSession: (() => Promise<void>) | undefined;
    try {
      const creator = await onboardings.creator(bearer(requestHeader(c, 'authorization')));
      const key = idempotencyKey(c);
      if (creator.session) leaveSession = await perClient.enter(`session:${creator.session.id}`, 'on this session');
      const slot = await onboardings.claim(creator, key);
      return await createClaimed(c, creator, slot, key);
    } finally {
      await Promise.all([leaveSession?.(), leaveAddress()]);
    }
  });

  /** A creation that holds its claim: whatever fails before it goes upstream gives the claim back. */
  async function createClaimed(c: Context<CompanionEnv>, creator: Creator, slot: Slot, key: string | undefined) {
    try {
      // Only a body that is arriving joins the line (transport/body-arrival.ts). A turn before the
      // body is read: the creations past the limit wait with their bytes unread
      // (transport/admission.ts); the turn ends once the upstream has answered and the images are
      // gone, or as soon as the body falls behind its pace.
      await bodyArriving(c, pace, CREATION_BODY.what);
      const release = await deps.admission.enter(clientGone(c));
      try {
        return await createWithTurn(c, creator, slot, key, release);
      } finally {
        release();
      }
    } catch (error) {
      await onboardings.abandon(slot);
      throw error;
    }
  }

  async function createWithTurn(c: Context<CompanionEnv>, creator: Creator, slot: Slot, key: string | undefined, release: () => void) {
    // The images stay where they arrived, views of the one body buffer, checked there and sent
    // upstream from there: no string, no decoded copy, no second buffer. That buffer goes back
    // (wiped) once nothing reads it: at once when nothing went upstream, else when the upstream
    // request has been written out.
    const limit = maxCreateBodyBytes(deps.imageMaxBytes);
    const buffers = deps.bodyBuffers;
    const body = await readBodyBytes(c, limit, { ...CREATION_BODY, pace, ...(buffers && { buffers }) });
    let upstreamBody: EncodedJson | undefined;
    try {
      return await createFromBody(c, deps, onboardings, { creator, slot, key, release }, body, (encoded) => (upstreamBody = encoded));
    } finally {
      if (buffers) {
        if (upstreamBody) void upstreamBody.released.then(() => buffers.give(body));
        else buffers.give(body);
      }
    }
  }
}

/** What a creation holds once it has its turn. */
interface Held {
  creator: Creator;
  slot: Slot;
  key: string | undefined;
  /** Ends the turn (once the upstream has answered). */
  release: () => void;
}

async function createFromBody(
  c: Context<CompanionEnv>,
  deps: OnboardingRouteDeps,
  onboardings: OnboardingService,
  { creator, slot, key, release }: Held,
  body: Uint8Array,
  sending: (encoded: EncodedJson) => void,
) {
  const validation = validateCreationBytes(body, deps.imageMaxBytes, CREATION_BODY, creationTaxId(creator.session));
  if (!validation.ok) {
    const { code, message, field } = validation.error;
    throw new DomainError(code, message, field ? { field } : {});
  }
  const outcome = await onboardings.create({
    ...creator,
    slot,
    valid: validation.value,
    ...(key && { idempotencyKey: key }),
    log: c.get('log'),
    sending,
    upstreamDone: release,
  });
  if (outcome.kind === 'replayed') {
    c.header('Idempotent-Replayed', 'true');
    return c.json(outcome.answer, 200);
  }
  // The request's own line tells of the creation: one line per creation.
  addToRequestLine(c, outcome.logFields);
  return c.json(outcome.answer, 201);
}

function mountReads(app: Hono<CompanionEnv>, deps: OnboardingRouteDeps, authorise: Authorise): void {
  app.get('/:token', async (c) => {
    const record = await authorise(c, c.req.param('token'));
    return c.json(toState(record));
  });

  // One keep-alive tick for all of this app's event streams.
  const tick = new KeepAliveTick(deps.sse.keepAliveMs);
  // Shared by every stream: what one open stream holds is its own small state, nothing more.
  const streamDeps: OnboardingEventDeps = {
    read: (t) => deps.store.get(t),
    subscribe: (t, listener) => deps.store.subscribe(t, listener),
    state: toState,
    streams: deps.streams,
    tick,
    retryMs: deps.sse.retryMs,
    log: deps.logger,
  };
  app.get('/:token/events', async (c) => {
    const token = c.req.param('token');
    await authorise(c, token);
    return sendEventStream(c, new OnboardingEvents(token, streamDeps, c.get('requestId')));
  });
}

function mountReportPdf(app: Hono<CompanionEnv>, deps: OnboardingRouteDeps, authorise: Authorise): void {
  app.get('/:token/report.pdf', async (c) => {
    const token = c.req.param('token');
    await authorise(c, token);
    let res: Response;
    try {
      res = await deps.upstream.reportPdf(token);
    } catch (e) {
      if (!isUpstreamError(e)) throw e;
      c.get('log').warn('report PDF failed upstream', { kind: e.kind, httpStatus: e.httpStatus });
      throw fromUpstream(e, deps.environment);
    }
    const body = await pdfStream(res);
    if (!body) throw new DomainError('upstream_error', `The verification service did not send a PDF (${deps.environment} environment).`);
    c.header('Content-Type', 'application/pdf');
    c.header('Content-Disposition', `attachment; filename="onboarding-${token}.pdf"`);
    c.header('Cache-Control', 'no-store');
    return c.body(body);
  });
}

/**
 * Checks that the upstream body starts with `%PDF-` and returns a stream of the whole body (the
 * bytes read for the check first); `null` when it is not a PDF.
 */
async function pdfStream(res: Response): Promise<ReadableStream<Uint8Array> | null> {
  if (!res.body) return null;
  const reader = res.body.getReader();
  const head: Uint8Array[] = [];
  let size = 0;
  while (size < 5) {
    const { done, value } = await reader.read();
    if (done) break;
    head.push(value);
    size += value.byteLength;
  }
  const prefix = new Uint8Array(size);
  let o = 0;
  for (const h of head) {
    prefix.set(h, o);
    o += h.byteLength;
  }
  if (!isPdf(prefix)) {
    await reader.cancel().catch(() => {});
    return null;
  }
  let sentPrefix = false;
  return new ReadableStream<Uint8Array>({
    async pull(controller) {
      if (!sentPrefix) {
        sentPrefix = true;
        controller.enqueue(prefix);
        return;
      }
      const { done, value } = await reader.read();
      if (done) controller.close();
      else controller.enqueue(value);
    },
    cancel(reason) {
      return reader.cancel(reason);
    },
  });
}
