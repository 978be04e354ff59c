/**
 * A test double of the companion for the element's browser tests, served by the Web Test Runner
 * dev server under `/test-companion/<namespace>/v1/...`: the page <-> companion contract
 * (docs/page-api.md) over real HTTP, with the contract's own `validateCreateOnboarding` (the
 * contract's TypeScript source, loaded through tsx), outcomes scripted by the sandbox test identities, real
 * SSE, and switches for the failures the element must survive.
 *
 * Each test uses its own namespace (any path segment), so state never leaks between tests.
 * `failUploads` stays on until cleared: Chromium silently retries a request whose reused
 * keep-alive connection dies before any answer, so a one-shot cut would never reach the page.
 * 'drop-after-create' creates the onboarding, then cuts the connection before answering: the
 * page never learns it, and only an Idempotency-Key keeps its retry from creating another.
 *
 * Sessions (as the integrator's backend opens them, docs/backend-api.md): `GET /v1/session` with
 * `Authorization: Bearer <clientSecret>` (401 for an unknown secret) answers the page's view,
 * with `status: 'expired'` once `expiresAt` has passed, its prefill masked as the companion masks
 * it (a creation without a tax id takes the session's). Once a namespace has sessions, a creation
 * needs a session's Bearer (401 without): one onboarding per session, a repeat with the same
 * `Idempotency-Key` and body answers 200 with the same token and a new access key (another body:
 * 409 idempotency_conflict), any other creation 409 session_used; expired: 410 session_expired;
 * cancelled (`status: 'cancelled'`): 410 session_cancelled on the read and on a creation;
 * another CPF/CNPJ or a document type the session does not offer: 400 session_mismatch. Without
 * sessions an `Idempotency-Key` is honoured the same way, per key.
 *
 * Control (test only, same namespace):
 *   POST /test-companion/<ns>/__control   JSON { failUploads?: 'http-503' | 'destroy' | 'drop-after-create' | { status, error } | null,
 *                                                holdUploads?: boolean, events?: 'normal' | 'fail' | 'end-early', processingMs?: number,
 *                                                decide?: { token, status },
 *                                                sessions?: [{ clientSecret, id?, status?, expiresAt?, prefill?: { cpf?, cnpj?, name? },
 *                                                              documentTypes?, locale?, returnUrl?, prefillFromDocument?, steps? }]  (added to the namespace's),
 *                                                documentPrefill?: { cpf?, name? } | { status, error } | null  (what POST /v1/session/document-prefill
 *                                                              answers; unset: 422 document_unreadable; a session's fourth try: 429 rate_limited),
 *                                                sessionStatus?: { id, status?, expiresAt? }  (a session changes as time or another page would),
 *                                                failSession?: 'http-503' | 'destroy' | null, holdSession?: boolean,
 *                                                failReads?: boolean  (status reads answer 503 until cleared: with events 'fail', the page is cut off) }
 *   GET  /test-companion/<ns>/__control   { uploads: [{ body, headers }], uploadAttempts, onboardings: [{ token, accessKey, status }],
 *                                           requests: [{ method, url, authorization }],
 *                                           attempts: [{ authorization, idempotencyKey }] (every creation request, refused ones too),
 *                                           sessions: [{ id, status, tokenOnboarding? }], sessionReads,
 *                                           prefillRequests: [{ authorization, body }] }
 *
 * It intercepts requests at the Node `http.Server` (before Koa), because the dev server's
 * middleware chain would buffer an SSE response and cannot stop an upload half way.
 */
import { randomBytes, randomUUID, timingSafeEqual, createHash } from 'node:crypto';
import { Hono } from 'hono';
import { streamSSE } from 'hono/streaming';
import { getRequestListener } from '@hono/node-server';
import { tsImport } from 'tsx/esm/api';
import { sourceEntryUrl } from './workspace-source.mjs';

const contract = await tsImport(sourceEntryUrl('@onboarding-kit/contract'), import.meta.url);
const { validateCreateOnboarding, maskTaxIdForPage, DEFAULT_IMAGE_MAX_BYTES, maxCreateBodyBytes } = contract;

export const COMPANION_PREFIX = '/test-companion/';

/** The sandbox's documented test identities (packages/sandbox/README.md): CPF digits -> scripted decision. */
const OUTCOMES = {
  52998224725: { status: 'APPROVED' },
  11144477735: { status: 'REFUSED', message: 'Documento com sinais de adulteração' },
  12345678909: { status: 'ERROR', externalId: 'EXT-ERR-7F3A9C' },
  98765432100: null, // manual review: stays IN_PROCESS
};

function freshNamespace() {
  return {
    onboardings: new Map(),
    uploads: [],
    requests: [],
    failUploads: null,
    uploadAttempts: 0,
    holdUploads: false,
    events: 'normal',
    processingMs: 400,
    timers: new Set(),
    attempts: [],
    sessions: [],
    failSession: null,
    holdSession: false,
    heldSessionReads: new Set(),
    sessionReads: 0,
    documentPrefill: null,
    prefillRequests: [],
    /** Idempotency-Key -> { fingerprint, token } for creations without a session. */
    keys: new Map(),
  };
}

const namespaces = new Map();
function ns(name) {
  let n = namespaces.get(name);
  if (!n) namespaces.set(name, (n = freshNamespace()));
  return n;
}

const hash = (key) => createHash('sha256').update(key).digest();

function apiError(c, status, code, message, extra = {}) {
  return c.json({ error: { code, message, ...extra } }, status);
}

/** The onboarding for `token` if the Bearer key matches; unknown and wrong key look the same (404). */
function authorised(c, space) {
  const record = space.onboardings.get(c.req.param('token'));
  const header = c.req.header('authorization') ?? '';
  const key = header.startsWith('Bearer ') ? header.slice(7) : '';
  if (!record || !key) return null;
  const presented = hash(key);
  let opens = timingSafeEqual(presented, record.keyHash);
  for (const other of record.moreKeyHashes) opens = timingSafeEqual(presented, other) || opens;
  return opens ? record : null;
}

/** The namespace's session the Bearer secret opens, compared as the companion does (hashes, constant time). */
function sessionFor(c, space) {
  const header = c.req.header('authorization') ?? '';
  const secret = header.startsWith('Bearer ') ? header.slice(7) : '';
  if (!secret) return null;
  const presented = hash(secret);
  let found = null;
  for (const session of space.sessions) if (timingSafeEqual(presented, session.secretHash) && !found) found = session;
  return found;
}

function sessionStatus(session) {
  return session.status === 'open' && Date.parse(session.expiresAt) <= Date.now() ? 'expired' : session.status;
}

/** The person as the companion shows it to a page: while the session is open, the tax id masked and the first name. */
function pagePrefill(session) {
  if (sessionStatus(session) !== 'open') return {};
  const { cpf, cnpj, name } = session.prefill;
  const first = name?.trim().split(/\s+/)[0];
  return {
    ...(cpf && { cpf: maskTaxIdForPage(cpf) }),
    ...(!cpf && cnpj && { cnpj: maskTaxIdForPage(cnpj) }),
    ...(first && { name: first }),
  };
}

/** The tax id a session fixes, whole, as the companion holds it. */
function fixedTaxId(session) {
  if (!session) return undefined;
  const { cpf, cnpj } = session.prefill;
  return cpf ? { kind: 'cpf', value: cpf } : cnpj ? { kind: 'cnpj', value: cnpj } : undefined;
}

function pageSession(session) {
  return {
    id: session.id,
    status: sessionStatus(session),
    expiresAt: session.expiresAt,
    prefill: pagePrefill(session),
    documentTypes: [...session.documentTypes],
    locale: session.locale,
    ...(session.returnUrl && { returnUrl: session.returnUrl }),
    ...(session.prefillFromDocument && { prefillFromDocument: true }),
    ...(session.steps && { steps: [...session.steps] }),
  };
}

/** What makes two creations the same request: canonical JSON (sorted keys) of the body, hashed. */
function fingerprint(value) {
  const canonical = (v) => {
    if (Array.isArray(v)) return `[${v.map(canonical).join(',')}]`;
    if (v && typeof v === 'object') {
      return `{${Object.keys(v)
        .filter((k) => v[k] !== undefined)
        .sort()
        .map((k) => `${JSON.stringify(k)}:${canonical(v[k])}`)
        .join(',')}}`;
    }
    return JSON.stringify(v) ?? 'null';
  };
  return createHash('sha256').update(canonical(value)).digest('hex');
}

/** A new access key for an onboarding already created (a replay); earlier keys stay valid. */
function replay(c, space, token, fault) {
  // The browser's own silent retry of a cut request must be cut too, or the page never sees the failure.
  if (fault === 'drop-after-create') {
    c.env.incoming.socket.destroy();
    return new Response(null, { status: 500 });
  }
  const record = space.onboardings.get(token);
  const accessKey = randomBytes(32).toString('base64url');
  record.moreKeyHashes.push(hash(accessKey));
  record.accessKey = accessKey;
  c.header('Idempotent-Replayed', 'true');
  return c.json({ tokenOnboarding: token, status: record.status, accessKey }, 200);
}

function publicState(record) {
  return {
    tokenOnboarding: record.token,
    status: record.status,
    updatedAt: record.updatedAt,
    ...(record.externalId && { externalId: record.externalId }),
    ...(record.message && { message: record.message }),
  };
}

function setStatus(record, outcome) {
  record.status = outcome.status;
  record.updatedAt = new Date().toISOString();
  if (outcome.externalId) record.externalId = outcome.externalId;
  if (outcome.message) record.message = outcome.message;
  for (const listener of record.listeners) listener();
}

/** Reads the request body as text, refusing more than `limit` bytes. */
async function readBody(req, limit) {
  const reader = req.body?.getReader();
  if (!reader) return '';
  const chunks = [];
  let size = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    size += value.byteLength;
    if (size > limit) {
      await reader.cancel();
      return null;
    }
    chunks.push(value);
  }
  return Buffer.concat(chunks).toString('utf8');
}

function onboardingsApp() {
  const app = new Hono();

  app.post('/', async (c) => {
    const space = c.get('space');
    if (!(c.req.header('content-type') ?? '').startsWith('application/json')) {
      return apiError(c, 415, 'unsupported_media_type', 'Send application/json.');
    }
    space.uploadAttempts++;
    const idempotencyKey = c.req.header('idempotency-key') ?? null;
    space.attempts.push({ authorization: c.req.header('authorization') ?? null, idempotencyKey });
    // Who may create: checked before the body is read, as the companion does.
    const session = sessionFor(c, space);
    if (c.req.header('authorization') && !session)
      return apiError(c, 401, 'unauthorized', 'This session link is not valid: ask the service provider for a new one.');
    if (!session && space.sessions.length > 0)
      return apiError(
        c,
        401,
        'unauthorized',
        'A session is required: the service provider opens one and gives the page its client secret.',
      );
    const fault = space.failUploads;
    if (fault === 'destroy') {
      // Take the first bytes, then cut the connection: the browser sees a network error.
      const reader = c.req.raw.body.getReader();
      await reader.read();
      c.env.incoming.socket.destroy();
      return new Response(null, { status: 500 });
    }
    const text = await readBody(c.req.raw, maxCreateBodyBytes(DEFAULT_IMAGE_MAX_BYTES));
    if (text === null) return apiError(c, 413, 'payload_too_large', 'The body is too large.');
    if (fault === 'http-503') return apiError(c, 503, 'upstream_unavailable', 'The verification service is unavailable.');
    // A scripted contract error, e.g. { status: 400, error: { code: 'invalid_image', field: 'images.selfie', ... } }.
    if (fault && typeof fault === 'object') return c.json({ error: fault.error }, fault.status);
    if (space.holdUploads) {
      // Never answered: lets a test see the bar at 100 % and cancel.
      await new Promise((resolve) => c.env.incoming.socket.once('close', resolve));
      return new Response(null, { status: 499 });
    }
    let body;
    try {
      body = JSON.parse(text);
    } catch {
      return apiError(c, 400, 'invalid_json', 'The body is not JSON.');
    }
    const check = validateCreateOnboarding(body, undefined, fixedTaxId(session));
    if (!check.ok) return c.json({ error: check.error }, check.status);
    const print = fingerprint(body);
    if (session) {
      const fixed = fixedTaxId(session);
      if (fixed && (check.value.taxId.kind !== fixed.kind || check.value.taxId.value !== fixed.value)) {
        return apiError(
          c,
          400,
          'session_mismatch',
          `This session is for another ${fixed.kind.toUpperCase()}: the one the service provider gave must be used.`,
          { field: fixed.kind },
        );
      }
      if (
        body.documentType &&
        session.documentTypes.length > 0 &&
        !session.documentTypes.includes(String(body.documentType).toUpperCase())
      ) {
        return apiError(c, 400, 'session_mismatch', `This session accepts only these documents: ${session.documentTypes.join(', ')}.`, {
          field: 'documentType',
        });
      }
      const claim = session.claim;
      if (claim && idempotencyKey !== null && claim.key === idempotencyKey) {
        if (claim.fingerprint !== print)
          return apiError(
            c,
            409,
            'idempotency_conflict',
            'This Idempotency-Key was already used with a different request body; use a new key for a new request.',
            { field: 'Idempotency-Key' },
          );
        return replay(c, space, claim.token, fault);
      }
      if (sessionStatus(session) === 'expired')
        return apiError(c, 410, 'session_expired', 'This session has expired; the service provider must open a new one.');
      if (session.status === 'cancelled')
        return apiError(c, 410, 'session_cancelled', 'This session was cancelled by the service provider; it must open a new one.');
      if (claim || session.status !== 'open')
        return apiError(
          c,
          409,
          'session_used',
          'This session has already been used for an onboarding; the service provider must open a new one.',
        );
    } else if (idempotencyKey !== null && space.keys.has(idempotencyKey)) {
      const held = space.keys.get(idempotencyKey);
      if (held.fingerprint !== print)
        return apiError(
          c,
          409,
          'idempotency_conflict',
          'This Idempotency-Key was already used with a different request body; use a new key for a new request.',
          { field: 'Idempotency-Key' },
        );
      return replay(c, space, held.token, fault);
    }
    space.uploads.push({
      body,
      headers: { contentType: c.req.header('content-type'), authorization: c.req.header('authorization') ?? null, idempotencyKey },
    });

    const token = randomUUID();
    const accessKey = randomBytes(32).toString('base64url');
    const now = new Date().toISOString();
    const record = {
      token,
      accessKey,
      keyHash: hash(accessKey),
      moreKeyHashes: [],
      status: 'IN_PROCESS',
      updatedAt: now,
      listeners: new Set(),
    };
    space.onboardings.set(token, record);
    if (session) {
      session.claim = { key: idempotencyKey ?? `auto_${randomUUID()}`, fingerprint: print, token };
      session.status = 'submitted';
      session.tokenOnboarding = token;
    } else if (idempotencyKey !== null) {
      space.keys.set(idempotencyKey, { fingerprint: print, token });
    }
    const cpf = check.value.taxId.kind === 'cpf' ? check.value.taxId.value : '';
    const outcome = cpf in OUTCOMES ? OUTCOMES[cpf] : { status: 'APPROVED' };
    if (outcome) {
      const timer = setTimeout(() => {
        space.timers.delete(timer);
        setStatus(record, outcome);
      }, space.processingMs);
      space.timers.add(timer);
    }
    if (fault === 'drop-after-create') {
      // Created, but the answer never arrives: the page sees a network error.
      c.env.incoming.socket.destroy();
      return new Response(null, { status: 500 });
    }
    return c.json({ tokenOnboarding: token, status: 'IN_PROCESS', dateHourProcess: now, accessKey }, 201);
  });

  app.get('/:token', (c) => {
    const record = authorised(c, c.get('space'));
    if (!record) return apiError(c, 404, 'not_found', 'Unknown onboarding.');
    if (c.get('space').failReads) return apiError(c, 503, 'upstream_unavailable', 'Reads are down.');
    return c.json(publicState(record));
  });

  app.get('/:token/events', (c) => {
    const space = c.get('space');
    const record = authorised(c, space);
    if (!record) return apiError(c, 404, 'not_found', 'Unknown onboarding.');
    if (space.events === 'fail') return apiError(c, 503, 'upstream_unavailable', 'Streams are down.');
    return streamSSE(c, async (stream) => {
      await stream.write(': status stream\nretry: 2000\n\n');
      await stream.writeSSE({ event: 'status', data: JSON.stringify(publicState(record)) });
      if (space.events === 'end-early' || record.status !== 'IN_PROCESS') return;
      await new Promise((resolve) => {
        const listener = () => {
          record.listeners.delete(listener);
          stream.writeSSE({ event: 'status', data: JSON.stringify(publicState(record)) }).then(resolve, resolve);
        };
        record.listeners.add(listener);
        stream.onAbort(() => {
          record.listeners.delete(listener);
          resolve();
        });
      });
    });
  });

  return app;
}

function sessionApp() {
  const app = new Hono();
  app.get('/', async (c) => {
    const space = c.get('space');
    space.sessionReads++;
    if (space.holdSession) {
      await new Promise((resolve) => {
        space.heldSessionReads.add(resolve);
        c.env.incoming.socket.once('close', resolve);
      });
    }
    if (space.failSession === 'destroy') {
      c.env.incoming.socket.destroy();
      return new Response(null, { status: 500 });
    }
    if (space.failSession === 'http-503') return apiError(c, 503, 'store_unavailable', 'The store is unavailable.');
    const session = sessionFor(c, space);
    if (!session) {
      c.header('WWW-Authenticate', 'Bearer realm="onboarding-session"');
      return apiError(c, 401, 'unauthorized', 'This session link is not valid: ask the service provider for a new one.');
    }
    if (session.status === 'cancelled')
      return apiError(c, 410, 'session_cancelled', 'This session was cancelled by the service provider; it must open a new one.');
    return c.json(pageSession(session));
  });
  // What the upstream's OCR read of the document, as the test scripts it: three tries a session.
  app.post('/document-prefill', async (c) => {
    const space = c.get('space');
    const session = sessionFor(c, space);
    if (!session) return apiError(c, 401, 'unauthorized', 'This session link is not valid: ask the service provider for a new one.');
    const body = await c.req.json().catch(() => null);
    space.prefillRequests.push({ authorization: c.req.header('authorization') ?? null, body });
    if (typeof body?.images?.documentFront !== 'string' || !body.images.documentFront)
      return apiError(c, 400, 'missing_field', 'images.documentFront is required.', { field: 'images.documentFront' });
    if (++session.prefillTries > 3) return apiError(c, 429, 'rate_limited', 'Too many tries for this session.');
    const answer = space.documentPrefill;
    if (!answer) return apiError(c, 422, 'document_unreadable', 'The document could not be read.');
    if (answer.status) return apiError(c, answer.status, answer.error.code, answer.error.message);
    return c.json(answer);
  });
  return app;
}

function addSession(space, given) {
  if (typeof given?.clientSecret !== 'string' || !given.clientSecret) throw new Error('a session needs its clientSecret');
  space.sessions.push({
    id: given.id ?? `ses_${randomBytes(16).toString('hex')}`,
    secretHash: hash(given.clientSecret),
    status: given.status ?? 'open',
    expiresAt: given.expiresAt ?? new Date(Date.now() + 1800_000).toISOString(),
    prefill: { ...(given.prefill ?? {}) },
    documentTypes: [...(given.documentTypes ?? [])],
    locale: given.locale ?? 'pt-BR',
    ...(given.returnUrl && { returnUrl: given.returnUrl }),
    ...(given.prefillFromDocument && { prefillFromDocument: true }),
    ...(given.steps && { steps: [...given.steps] }),
    prefillTries: 0,
    claim: null,
  });
}

function controlApp() {
  const app = new Hono();
  app.post('/', async (c) => {
    const space = c.get('space');
    const body = await c.req.json();
    if ('failUploads' in body) space.failUploads = body.failUploads;
    if ('holdUploads' in body) space.holdUploads = !!body.holdUploads;
    if ('events' in body) space.events = body.events;
    if ('processingMs' in body) space.processingMs = Number(body.processingMs);
    for (const session of body.sessions ?? []) addSession(space, session);
    if (body.sessionStatus) {
      const session = space.sessions.find((s) => s.id === body.sessionStatus.id);
      if (!session) return c.json({ ok: false, error: 'unknown session' }, 404);
      if (body.sessionStatus.status) session.status = body.sessionStatus.status;
      if (body.sessionStatus.expiresAt) session.expiresAt = body.sessionStatus.expiresAt;
    }
    if ('failSession' in body) space.failSession = body.failSession;
    if ('failReads' in body) space.failReads = !!body.failReads;
    if ('documentPrefill' in body) space.documentPrefill = body.documentPrefill;
    if ('holdSession' in body) {
      space.holdSession = !!body.holdSession;
      if (!space.holdSession) {
        for (const release of space.heldSessionReads) release();
        space.heldSessionReads.clear();
      }
    }
    // A reviewer's decision at a moment the test chooses (a watch on an injected clock).
    if (body.decide) {
      const record = space.onboardings.get(body.decide.token);
      if (!record) return c.json({ ok: false, error: 'unknown token' }, 404);
      setStatus(record, { status: body.decide.status });
    }
    return c.json({ ok: true });
  });
  app.get('/', (c) => {
    const space = c.get('space');
    return c.json({
      uploads: space.uploads,
      uploadAttempts: space.uploadAttempts,
      onboardings: [...space.onboardings.values()].map((r) => ({ token: r.token, accessKey: r.accessKey, status: r.status })),
      requests: space.requests,
      attempts: space.attempts,
      sessions: space.sessions.map((s) => ({
        id: s.id,
        status: sessionStatus(s),
        ...(s.tokenOnboarding && { tokenOnboarding: s.tokenOnboarding }),
      })),
      sessionReads: space.sessionReads,
      prefillRequests: space.prefillRequests,
    });
  });
  return app;
}

export function createCompanionDoubleApp() {
  const app = new Hono();
  app.use('/test-companion/:ns/*', async (c, next) => {
    const space = ns(c.req.param('ns'));
    c.set('space', space);
    if (!c.req.path.includes('/__control')) {
      space.requests.push({ method: c.req.method, url: c.req.url, authorization: c.req.header('authorization') ?? null });
    }
    await next();
  });
  app.route('/test-companion/:ns/v1/onboardings', onboardingsApp());
  app.route('/test-companion/:ns/v1/session', sessionApp());
  app.get('/test-companion/:ns/v1/health', (c) => c.json({ status: 'ok', ok: true }));
  app.route('/test-companion/:ns/__control', controlApp());
  app.notFound((c) => apiError(c, 404, 'not_found', 'No such route.'));
  app.onError((error, c) => apiError(c, 500, 'internal_error', String(error?.message ?? error)));
  return app;
}

/** WTR / dev-server plugin: answers `/test-companion/...` before the dev server sees it. */
export function companionDouble() {
  const app = createCompanionDoubleApp();
  const listener = getRequestListener(app.fetch);
  return {
    name: 'onboarding-companion-double',
    serverStart({ server }) {
      if (!server) throw new Error('companion double needs the dev server http.Server');
      const others = server.listeners('request');
      server.removeAllListeners('request');
      server.on('request', (req, res) => {
        if (req.url?.startsWith(COMPANION_PREFIX)) return void listener(req, res);
        for (const other of others) other.call(server, req, res);
      });
    },
    serverStop() {
      for (const space of namespaces.values()) {
        for (const timer of space.timers) clearTimeout(timer);
        for (const release of space.heldSessionReads) release();
      }
      namespaces.clear();
    },
  };
}
