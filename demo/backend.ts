/**
 * The integrator's backend, played by `npm start` so that the demo runs the way a real site does:
 * it opens a session for each visitor with its API key, over real HTTP to the companion's
 * `/v1/sessions` (docs/backend-api.md#sessions), and hands the page only the client secret; and
 * it receives the companion's signed notifications, verifies each one and keeps the last few for
 * the demo page to show (docs/backend-api.md#notifications).
 *
 * The API key and the notification secret live in this module's closure: no route answers them,
 * and the pages get a client secret, which opens one session and nothing else.
 */
import { randomBytes } from 'node:crypto';
import { SESSION_LOCALES, type NotificationEvent } from '@onboarding-kit/contract';
import { CompanionError, type Logger } from '@onboarding-kit/server';
// The receiver's own entry point, as an integrator's receiver imports it (nothing else of the companion).
import { verifyNotification } from '@onboarding-kit/server/verify';
import { Hono, type Context } from 'hono';
import { bodyLimit } from 'hono/body-limit';

export interface DemoBackendOptions {
  /** The companion's loopback address (`http://127.0.0.1:8787`): sessions are opened over HTTP, as from any backend. */
  companionUrl: string;
  /** The demo's API key, one of the companion's `apiKeys`. */
  apiKey: string;
  /**
   * The receiver's part: the secret the companion signs with (and how old a signature may be,
   * default 300 s). Absent when `ONBOARDING_NOTIFY_URL` sends the notifications elsewhere: the
   * receiver route is then off.
   */
  receiver?: { secret: string; toleranceS?: number };
  logger: Logger;
  /** How many notifications are kept for the page (default 200; older ones are forgotten). */
  keep?: number;
  fetch?: typeof fetch;
}

/** What the demo page sees of one notification the receiver verified. */
export interface ReceivedNotification {
  id: string;
  type: string;
  createdAt: string;
  receivedAt: string;
  /** Session events: the session's id and status, and its onboarding's status once there is one. */
  sessionId?: string;
  sessionStatus?: string;
  onboardingStatus?: string;
  externalId?: string;
  /** Always true: a notification whose signature does not verify is refused, never kept. */
  verified: true;
  /** How many times it arrived (deliveries are at least once; a repeat is recognised by its id). */
  deliveries: number;
  data: unknown;
}

export interface OpenedSession {
  id: string;
  clientSecret: string;
  expiresAt: string;
}

export interface DemoBackend {
  /** `POST /demo/session`, `POST /demo/notifications`, `GET /demo/notifications`. */
  app: Hono;
  /** Opens a session for a visitor, over HTTP with the API key. */
  openSession(input: { cpf?: string; locale?: string; page: string }): Promise<OpenedSession>;
  /** Where the companion's notifications go when the demo receives them itself. */
  readonly receiverPath: string;
}

const RECEIVER_PATH = '/demo/notifications';
const DEFAULT_KEEP = 200;
/** The companion's notifications are small JSON documents (a session's view); anything bigger is not one. */
const MAX_NOTIFICATION_BYTES = 256 * 1024;
const MAX_SESSION_REQUEST_BYTES = 2048;

/** Opens a session for a visitor the way an integrator's backend does: over HTTP, with its API key. */
function sessionOpener(options: DemoBackendOptions): DemoBackend['openSession'] {
  const doFetch = options.fetch ?? fetch;
  const log = options.logger;
  return openSession;

  async function openSession(input: { cpf?: string; locale?: string; page: string }): Promise<OpenedSession> {
    // A made-up person per visit: the demo has no users, and a real backend would send its own id.
    const reference = `demo-visitor-${randomBytes(6).toString('hex')}`;
    const body = {
      reference,
      ...(input.cpf !== undefined && { cpf: input.cpf }),
      ...(input.locale !== undefined && { locale: input.locale }),
      metadata: { source: 'onboarding-kit demo', page: input.page },
    };
    let res: Response;
    try {
      res = await doFetch(`${options.companionUrl}/v1/sessions`, {
        method: 'POST',
        headers: {
          authorization: `Bearer ${options.apiKey}`,
          'content-type': 'application/json',
          'idempotency-key': randomBytes(16).toString('hex'),
        },
        body: JSON.stringify(body),
        signal: AbortSignal.timeout(10_000),
      });
    } catch (error) {
      log.warn('demo backend: the companion could not be reached to open a session', { error });
      throw new CompanionError(502, 'demo_backend_unavailable', 'The demo backend could not reach the companion to open a session.');
    }
    const answer = (await res.json().catch(() => null)) as
      | (OpenedSession & { error?: { code: string; message: string; field?: string } })
      | null;
    if (res.status === 400 && answer?.error) {
      // The visitor's own input (a CPF that is not valid): the companion's words are for them.
      const { code, message, field } = answer.error;
      throw new CompanionError(400, code, message, field ? { field } : {});
    }
    if (res.status !== 201 || !answer || typeof answer.clientSecret !== 'string' || typeof answer.id !== 'string') {
      log.warn('demo backend: the companion did not open a session', { httpStatus: res.status, code: answer?.error?.code });
      throw new CompanionError(
        502,
        'demo_backend_failed',
        `The demo backend could not open a session (the companion answered ${res.status}).`,
      );
    }
    log.info('demo backend: session opened', { sessionId: answer.id, reference, page: input.page });
    return { id: answer.id, clientSecret: answer.clientSecret, expiresAt: answer.expiresAt };
  }
}

export function createDemoBackend(options: DemoBackendOptions): DemoBackend {
  const keep = options.keep ?? DEFAULT_KEEP;
  const log = options.logger;
  /** Newest last. Also the dedupe record: a repeat within the last `keep` is recognised by its id. */
  const received = new Map<string, ReceivedNotification>();

  const openSession = sessionOpener(options);
  const app = new Hono();

  app.post(
    '/demo/session',
    bodyLimit({
      maxSize: MAX_SESSION_REQUEST_BYTES,
      onError: () => {
        throw new CompanionError(413, 'payload_too_large', 'The request is too large.');
      },
    }),
    async (c) => {
      sameOriginOnly(c);
      let input: unknown;
      try {
        input = JSON.parse(await c.req.text());
      } catch {
        throw new CompanionError(400, 'invalid_json', 'The body is not JSON.');
      }
      if (!input || typeof input !== 'object' || Array.isArray(input))
        throw new CompanionError(400, 'invalid_request', 'The body must be a JSON object: { "cpf"?, "locale"?, "page"? }.');
      const { cpf, locale, page } = input as Record<string, unknown>;
      if (cpf !== undefined && (typeof cpf !== 'string' || cpf.length > 32))
        throw new CompanionError(400, 'invalid_cpf', 'cpf must be a CPF (11 digits, with or without punctuation).', { field: 'cpf' });
      if (locale !== undefined && !(SESSION_LOCALES as readonly unknown[]).includes(locale))
        throw new CompanionError(400, 'invalid_field', `locale must be one of ${SESSION_LOCALES.join(', ')}.`, { field: 'locale' });
      const opened = await openSession({
        ...(typeof cpf === 'string' && { cpf }),
        ...(typeof locale === 'string' && { locale }),
        page: typeof page === 'string' && /^\/[a-z]{0,10}$/.test(page) ? page : '/',
      });
      c.header('Cache-Control', 'no-store');
      // Only the client secret: the page learns the rest from the companion (GET /v1/session).
      return c.json({ clientSecret: opened.clientSecret, expiresAt: opened.expiresAt }, 201);
    },
  );

  const receiver = options.receiver;
  if (receiver) mountReceiver(app, receiver, received, keep, log);

  app.get(RECEIVER_PATH, (c) => {
    const session = c.req.query('session');
    if (!session || session.length > 128)
      throw new CompanionError(400, 'invalid_field', 'GET /demo/notifications?session=<session id>', { field: 'session' });
    c.header('Cache-Control', 'no-store');
    return c.json({ receiving: receiver !== undefined, data: [...received.values()].filter((n) => n.sessionId === session) });
  });

  return { app, openSession, receiverPath: RECEIVER_PATH };
}

/**
 * The demo's own notification receiver: verifies each notification's signature over the exact
 * bytes sent, and keeps the last `keep` (also its record of ids, so a repeat is recognised).
 */
function mountReceiver(
  app: Hono,
  receiver: NonNullable<DemoBackendOptions['receiver']>,
  received: Map<string, ReceivedNotification>,
  keep: number,
  log: DemoBackendOptions['logger'],
): void {
  app.post(
    RECEIVER_PATH,
    bodyLimit({
      maxSize: MAX_NOTIFICATION_BYTES,
      onError: () => {
        throw new CompanionError(413, 'payload_too_large', 'A notification is never this large.');
      },
    }),
    async (c) => {
      // The signature covers the exact bytes sent: verify them before any parsing.
      const raw = new Uint8Array(await c.req.arrayBuffer());
      const verified = await verifyNotification(raw, c.req.header('onboarding-signature'), receiver.secret, {
        toleranceS: receiver.toleranceS ?? 300,
      });
      if (!verified) {
        log.warn('demo receiver: notification refused, its signature does not verify');
        throw new CompanionError(400, 'invalid_signature', "The Onboarding-Signature header does not verify with this receiver's secret.");
      }
      const event = parseEvent(raw);
      if (!event) throw new CompanionError(400, 'invalid_request', 'A notification is a JSON object { id, type, createdAt, data }.');
      const seen = received.get(event.id);
      if (seen) {
        seen.deliveries += 1;
        log.info('demo receiver: notification repeated, already handled', { notificationId: event.id, type: event.type });
        return c.json({ received: true, duplicate: true });
      }
      received.set(event.id, describe(event));
      while (received.size > keep) received.delete(received.keys().next().value!);
      log.info('demo receiver: notification verified', { notificationId: event.id, type: event.type });
      return c.json({ received: true });
    },
  );
}

/**
 * A page script's request only: a browser sends `Sec-Fetch-Site` and `Origin` with a cross-site
 * POST, and a JSON content type cannot be sent across origins without a preflight this server
 * never grants. Anything else would let another site open sessions with the demo's key.
 */
function sameOriginOnly(c: Context): void {
  const site = c.req.header('sec-fetch-site');
  const origin = c.req.header('origin');
  const host = c.req.header('host');
  const crossSite =
    (site !== undefined && site !== 'same-origin') || (origin !== undefined && host !== undefined && safeHost(origin) !== host);
  if (crossSite || !(c.req.header('content-type') ?? '').startsWith('application/json')) {
    throw new CompanionError(403, 'forbidden', 'Only the demo page itself may open sessions (same origin, JSON).');
  }
}

function safeHost(origin: string): string | null {
  try {
    return new URL(origin).host;
  } catch {
    return null;
  }
}

function parseEvent(raw: Uint8Array): NotificationEvent | null {
  let value: unknown;
  try {
    value = JSON.parse(new TextDecoder('utf-8', { fatal: true }).decode(raw));
  } catch {
    return null;
  }
  if (!value || typeof value !== 'object') return null;
  const e = value as Record<string, unknown>;
  if (typeof e.id !== 'string' || !e.id || typeof e.type !== 'string' || typeof e.createdAt !== 'string' || !('data' in e)) return null;
  return e as unknown as NotificationEvent;
}

function describe(event: NotificationEvent): ReceivedNotification {
  const data = (event.data ?? {}) as { id?: unknown; status?: unknown; onboarding?: { status?: unknown; externalId?: unknown } };
  const isSession = event.type.startsWith('session.');
  const text = (v: unknown) => (typeof v === 'string' ? v : undefined);
  const sessionId = isSession ? text(data.id) : undefined;
  const sessionStatus = isSession ? text(data.status) : undefined;
  const onboardingStatus = isSession ? text(data.onboarding?.status) : undefined;
  const externalId = isSession ? text(data.onboarding?.externalId) : undefined;
  return {
    id: event.id,
    type: event.type,
    createdAt: event.createdAt,
    receivedAt: new Date().toISOString(),
    ...(sessionId !== undefined && { sessionId }),
    ...(sessionStatus !== undefined && { sessionStatus }),
    ...(onboardingStatus !== undefined && { onboardingStatus }),
    ...(externalId !== undefined && { externalId }),
    verified: true,
    deliveries: 1,
    data: event.data,
  };
}

const ESCAPES: Record<string, string> = { '&': '&amp;', '"': '&quot;', '<': '&lt;', '>': '&gt;', "'": '&#39;' };
const escapeAttribute = (value: string) => value.replace(/[&"<>']/g, (ch) => ESCAPES[ch]!);

/**
 * A demo page as its backend renders it for one visit: the element (on `/`) carries the session
 * as its `session` attribute, as an integrator's template would; the framework pages, which
 * render the element from script, read it from `<meta name="onboarding-session">`.
 */
export function renderWithSession(html: string, clientSecret: string): string {
  const secret = escapeAttribute(clientSecret);
  const withMeta = html.replace(/<\/head>/i, () => `  <meta name="onboarding-session" content="${secret}" />\n  </head>`);
  return withMeta.replace(/<onboarding-flow(?=[\s>])/, () => `<onboarding-flow session="${secret}"`);
}
