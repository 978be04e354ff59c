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
 * Control (test only, same namespace):
 *   POST /test-companion/<ns>/__control   JSON { failUploads?: 'http-503' | 'destroy' | { status, error } | null, holdUploads?: boolean,
 *                                                events?: 'normal' | 'fail' | 'end-early', processingMs?: number,
 *                                                decide?: { token, status } }
 *   GET  /test-companion/<ns>/__control   { uploads: [{ body, headers }], onboardings: [{ token, accessKey, status }],
 *                                           requests: [{ method, url, authorization }] }
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
const { validateCreateOnboarding, normalizeCpf, DEFAULT_IMAGE_MAX_BYTES, maxCreateBodyBytes } = contract;

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
  return timingSafeEqual(hash(key), record.keyHash) ? record : null;
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
    const check = validateCreateOnboarding(body);
    if (!check.ok) return c.json({ error: check.error }, check.status);
    space.uploads.push({ body, headers: { contentType: c.req.header('content-type') } });

    const token = randomUUID();
    const accessKey = randomBytes(32).toString('base64url');
    const now = new Date().toISOString();
    const record = { token, accessKey, keyHash: hash(accessKey), status: 'IN_PROCESS', updatedAt: now, listeners: new Set() };
    space.onboardings.set(token, record);
    const cpf = normalizeCpf(body.cpf ?? '') ?? '';
    const outcome = cpf in OUTCOMES ? OUTCOMES[cpf] : { status: 'APPROVED' };
    if (outcome) {
      const timer = setTimeout(() => {
        space.timers.delete(timer);
        setStatus(record, outcome);
      }, space.processingMs);
      space.timers.add(timer);
    }
    return c.json({ tokenOnboarding: token, status: 'IN_PROCESS', dateHourProcess: now, accessKey }, 201);
  });

  app.get('/:token', (c) => {
    const record = authorised(c, c.get('space'));
    if (!record) return apiError(c, 404, 'not_found', 'Unknown onboarding.');
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

function controlApp() {
  const app = new Hono();
  app.post('/', async (c) => {
    const space = c.get('space');
    const body = await c.req.json();
    if ('failUploads' in body) space.failUploads = body.failUploads;
    if ('holdUploads' in body) space.holdUploads = !!body.holdUploads;
    if ('events' in body) space.events = body.events;
    if ('processingMs' in body) space.processingMs = Number(body.processingMs);
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
  app.get('/test-companion/:ns/v1/health', (c) => c.json({ ok: true }));
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
      for (const space of namespaces.values()) for (const timer of space.timers) clearTimeout(timer);
      namespaces.clear();
    },
  };
}
