/**
 * The page API for onboardings: creation (validated entirely before anything goes upstream),
 * state, the event stream, and the optional PDF. Reads need the page's access key; a missing or
 * wrong key is answered exactly like an unknown token.
 */
import {
  isPdf,
  maskTaxId,
  maxCreateBodyBytes,
  IMAGE_ROLES,
  type CreateOnboardingResponse,
  type ImageRoleName,
  type ValidCreateOnboardingBytes,
} from '@onboarding-kit/contract';
import { createHash } from 'node:crypto';
import { Hono, type Context } from 'hono';
import { bearer, hashSecret, keyMatches, newAccessKey } from '../auth/access-key.js';
import { idempotencyKey } from '../idempotency/idempotency-header.js';
import { fingerprint, idempotencyConflict, idempotencyInProgress, IDEMPOTENCY_TTL_MS } from '../idempotency/idempotency-rules.js';
import { holds, sessionHandedOff, type PageCaller } from '../handoff/handoff-rules.js';
import type { SessionService } from '../sessions/session-service.js';
import type { SessionRecord } from '../store/backend-state.js';
import { clientGone, KeepAliveTick, readBodyBytes, requestHeader, sendEventStream, type Admission, type BodyBuffers } from '../transport/index.js';
import { CompanionError, fromUpstream, notFound } from '../http/companion-error.js';
import type { CompanionEnv } from '../http/env.js';
import { validateCreationBytes } from './creation-body.js';
import { rateLimit } from '../middleware/rate-limit.js';
import { addToRequestLine } from '../middleware/request-log.js';
import type { StatusPoller } from '../relay/poller.js';
import type { StreamRegistry } from '../relay/stream-registry.js';
import type { Logger } from '../logger.js';
import type { OnboardingRecord, Store } from '../store/index.js';
import { EncodedJson, type UpstreamClient } from '../upstream/upstream-client.js';
import { isUpstreamError } from '../upstream/upstream-error.js';
import { OnboardingEvents, type OnboardingEventDeps } from './onboarding-events.js';
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
  /** Where creation bodies are read into, used again once the upstream is done with them (transport/body-buffers.ts). */
  bodyBuffers?: BodyBuffers;
}

const TOKEN_SHAPE = /^[A-Za-z0-9._~-]{1,128}$/;
/** How a creation's body is read and named in its refusals. */
const CREATION_BODY = { requireJsonType: true, what: 'The onboarding' } as const;

export function onboardingRoutes(deps: OnboardingRouteDeps): Hono<CompanionEnv> {
  const app = new Hono<CompanionEnv>();

  /** The record when the token exists and the Bearer key is its key; otherwise the one 404. */
  async function authorise(c: Context<CompanionEnv>, token: string): Promise<OnboardingRecord> {
    const record = TOKEN_SHAPE.test(token) ? await deps.store.get(token) : null;
    if (!accessKeyOpens(bearer(requestHeader(c, 'authorization')), record)) throw notFound();
    return record!;
  }

  app.post('/', rateLimit({ limit: deps.rateLimit, clientAddress: deps.clientAddress, counters: deps.store }), async (c) => {
    // Who may create: the page holding a session (its origin's client secret or capture token, or
    // the device it was handed off to), or anyone when sessions are optional. Checked before the
    // body is read, so a refusal costs no upload.
    const presented = bearer(requestHeader(c, 'authorization'));
    const caller = presented !== undefined && deps.sessions ? await deps.sessions.authenticatePage(presented) : null;
    if (presented !== undefined && !caller) throw sessionUnauthorized();
    if (caller && !holds(caller.session, caller)) throw sessionHandedOff();
    const session = caller?.session ?? null;
    if (!session && deps.sessionsRequired) {
      throw new CompanionError(401, 'unauthorized', 'A session is required: the service provider opens one and gives the page its client secret.', { headers: { 'WWW-Authenticate': 'Bearer realm="onboarding-session"' } });
    }
    const key = idempotencyKey(c);

    // A turn before the body is read: the creations past the limit wait with their bytes unread
    // (transport/admission.ts); the turn ends once the upstream has answered and the images are gone.
    const release = await deps.admission.enter(clientGone(c));
    try {
      return await createWithTurn(c, session, caller, key, release);
    } finally {
      release();
    }
  });

  async function createWithTurn(c: Context<CompanionEnv>, session: SessionRecord | null, caller: PageCaller | null, key: string | undefined, release: () => void) {
    // The images stay where they arrived, views of the one body buffer, checked there and sent
    // upstream from there: no string, no decoded copy, no second buffer. That buffer goes back
    // (wiped) once nothing reads it: at once when nothing went upstream, else when the upstream
    // request has been written out.
    const limit = maxCreateBodyBytes(deps.imageMaxBytes);
    const buffers = deps.bodyBuffers;
    const body = await readBodyBytes(c, limit, { ...CREATION_BODY, ...(buffers && { buffers }) });
    let upstreamBody: EncodedJson | undefined;
    try {
      return await createFromBody(c, session, caller, key, release, body, (encoded) => (upstreamBody = encoded));
    } finally {
      if (buffers) {
        if (upstreamBody) void upstreamBody.released.then(() => buffers.give(body));
        else buffers.give(body);
      }
    }
  }

  async function createFromBody(
    c: Context<CompanionEnv>,
    session: SessionRecord | null,
    caller: PageCaller | null,
    key: string | undefined,
    release: () => void,
    body: Uint8Array,
    sending: (encoded: EncodedJson) => void,
  ) {
    const log = c.get('log');
    const validation = validateCreationBytes(body, deps.imageMaxBytes, CREATION_BODY);
    if (!validation.ok) {
      const { code, message, field } = validation.error;
      throw new CompanionError(validation.status, code, message, field ? { field } : {});
    }
    const valid = validation.value;
    const taxId = maskTaxId(valid.taxId.value);
    if (session) checkAgainstSession(valid, session);

    // One onboarding per session, or per Idempotency-Key without one: a replay gets the same onboarding.
    let claimed: SessionRecord | undefined;
    let reservedKey: string | undefined;
    if (session) {
      const claim = await deps.sessions!.claim(session, { ...(key && { idempotencyKey: key }), fingerprint: creationFingerprint(valid), ...(caller && { caller }) });
      if (claim.kind === 'replay') return replay(c, claim.tokenOnboarding, valid);
      claimed = claim.session;
    } else if (key) {
      reservedKey = `onboarding:${key}`;
      const print = creationFingerprint(valid);
      const held = await deps.store.reserveIdempotencyKey(reservedKey, print, { ttlMs: IDEMPOTENCY_TTL_MS, pendingTtlMs: 120_000 });
      if (held.state !== 'reserved') {
        reservedKey = undefined;
        if (held.fingerprint !== print) throw idempotencyConflict();
        if (held.state === 'pending') throw idempotencyInProgress();
        return replay(c, held.result, valid);
      }
    }

    let created;
    const encoded = upstreamRequest(valid, deps.documentFileTypes);
    sending(encoded);
    try {
      created = await deps.upstream.createOnboarding(encoded);
    } catch (e) {
      // Nothing was created: the session, or the key, may be used again.
      if (claimed) await deps.sessions!.release(claimed);
      if (reservedKey) await deps.store.releaseIdempotencyKey(reservedKey).catch(() => undefined);
      if (!isUpstreamError(e)) throw e;
      log.warn('onboarding creation failed upstream', { op: e.operation, kind: e.kind, httpStatus: e.httpStatus, upstreamCode: e.code, externalId: e.externalId, taxId });
      throw fromUpstream(e, deps.environment);
    } finally {
      // Personal data is kept no longer than needed: the images go as soon as the upstream has them.
      valid.images = {};
      encoded.settle();
      release();
    }

    const accessKey = newAccessKey();
    const now = new Date().toISOString();
    // A store that fails here answers 503 after the upstream created the onboarding: that one is
    // orphaned (its access key is lost with this request), and a page that tries again creates a
    // second (unless it sent an Idempotency-Key, or holds a session: the claim then stands until
    // it lapses). The record may even land late (a Redis command that timed out can still run):
    // it then stays IN_PROCESS, polled after a scan takes it over, until the retention sweep.
    // Nothing upstream can be undone, so this is accepted.
    let record: OnboardingRecord;
    try {
      record = await deps.store.create({
        tokenOnboarding: created.tokenOnboarding,
        status: 'IN_PROCESS',
        createdAt: now,
        accessKeyHash: hashSecret(accessKey),
        ...(claimed && { sessionId: claimed.id }),
      });
    } catch (error) {
      // The one trace an operator has to reconcile the orphan with the upstream's own records.
      log.error('onboarding created upstream but not stored', { tokenOnboarding: created.tokenOnboarding, ...(claimed && { sessionId: claimed.id }), error });
      throw error;
    }
    if (reservedKey) await deps.store.completeIdempotencyKey(reservedKey, created.tokenOnboarding, IDEMPOTENCY_TTL_MS);
    if (claimed) await deps.sessions!.submitted(claimed, record);
    deps.poller.track(created.tokenOnboarding);
    // Told on the request's own line (one line per creation).
    addToRequestLine(c, { tokenOnboarding: created.tokenOnboarding, taxId, ...(claimed && { sessionId: claimed.id }) });
    const answer: CreateOnboardingResponse = {
      tokenOnboarding: created.tokenOnboarding,
      status: 'IN_PROCESS',
      ...(created.dateHourProcess !== undefined && { dateHourProcess: created.dateHourProcess }),
      accessKey,
    };
    return c.json(answer, 201);
  }

  /** A repeated creation: the same onboarding with a new access key (earlier keys stay valid). */
  async function replay(c: Context<CompanionEnv>, token: string, valid: ValidCreateOnboardingBytes) {
    valid.images = {};
    const record = await deps.store.get(token);
    const accessKey = newAccessKey();
    // Gone by retention: the key outlived its onboarding, and there is nothing to open any more.
    if (!record || !(await deps.store.addAccessKey(token, hashSecret(accessKey)))) throw idempotencyConflict();
    c.header('Idempotent-Replayed', 'true');
    c.get('log').info('onboarding creation replayed', { tokenOnboarding: token });
    const answer: CreateOnboardingResponse = { tokenOnboarding: token, status: record.status, accessKey };
    return c.json(answer, 200);
  }

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

  if (deps.reportPdf) {
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
      if (!body) throw new CompanionError(502, 'upstream_error', `The verification service did not send a PDF (${deps.environment} environment).`);
      c.header('Content-Type', 'application/pdf');
      c.header('Content-Disposition', `attachment; filename="onboarding-${token}.pdf"`);
      c.header('Cache-Control', 'no-store');
      return c.body(body);
    });
  }

  return app;
}

/**
 * The upstream creation body (docs/upstream-api.md#onboarding-creation): tax id, name, and each
 * image as a data URI; the JSON of that `OnboardingTokenRequest`, written in pieces around the
 * images' own bytes (base64 needs no escaping in JSON).
 */
function upstreamRequest(valid: ValidCreateOnboardingBytes, fileTypes: Record<ImageRoleName, string>): EncodedJson {
  const head = {
    [valid.taxId.kind]: valid.taxId.value,
    document: valid.taxId.value,
    ...(valid.name && { name: valid.name }),
  };
  let text = `${JSON.stringify(head).slice(0, -1)},"documentFiles":[`;
  const pieces: Uint8Array[] = [];
  let first = true;
  for (const role of IMAGE_ROLES) {
    const image = valid.images[role];
    if (!image) continue;
    text += `${first ? '' : '"},'}{"documentFileType":${JSON.stringify(fileTypes[role])},"document":${JSON.stringify(`data:${image.mime};base64,`).slice(0, -1)}`;
    pieces.push(Buffer.from(text, 'utf8'), image.base64);
    text = '';
    first = false;
  }
  pieces.push(Buffer.from(`${first ? '' : '"}'}]}`, 'utf8'));
  return new EncodedJson(pieces);
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

/** Whether a presented key opens the onboarding: its first key or one a replay issued, all compared constant-time. */
function accessKeyOpens(presented: string | undefined, record: OnboardingRecord | null): boolean {
  let opens = keyMatches(presented, record?.accessKeyHash);
  for (const hash of record?.moreAccessKeyHashes ?? []) opens = keyMatches(presented, hash) || opens;
  return opens;
}

const sessionUnauthorized = () =>
  new CompanionError(401, 'unauthorized', 'This session link is not valid: ask the service provider for a new one.', { headers: { 'WWW-Authenticate': 'Bearer realm="onboarding-session"' } });

/** A session fixes who is onboarded: another CPF/CNPJ, or a document type it does not offer, is refused. */
function checkAgainstSession(valid: ValidCreateOnboardingBytes, session: SessionRecord): void {
  const fixed = session.taxId;
  if (fixed && (fixed.kind !== valid.taxId.kind || fixed.value !== valid.taxId.value)) {
    throw new CompanionError(400, 'session_mismatch', `This session is for another ${fixed.kind.toUpperCase()}: the one the service provider gave must be used.`, { field: fixed.kind });
  }
  if (valid.documentType && session.documentTypes.length > 0 && !session.documentTypes.includes(valid.documentType.toUpperCase())) {
    throw new CompanionError(400, 'session_mismatch', `This session accepts only these documents: ${session.documentTypes.join(', ')}.`, { field: 'documentType' });
  }
}

/**
 * What makes two creations the same request: the person, the document and each photo's hash.
 * Computed only when a session or an Idempotency-Key needs it.
 */
function creationFingerprint(valid: ValidCreateOnboardingBytes): string {
  return fingerprint({
    taxId: valid.taxId,
    name: valid.name,
    documentType: valid.documentType,
    images: Object.fromEntries(Object.entries(valid.images).map(([role, img]) => [role, textFingerprint(img.base64)])),
  });
}

/** `fingerprint(text)` of a base64 text given as its bytes: SHA-256 of its JSON (`"..."`, no escapes in base64), so prints made before stay equal. */
function textFingerprint(base64: Uint8Array): string {
  return createHash('sha256').update('"').update(base64).update('"').digest('hex');
}
