/**
 * `OnboardingClient`: the companion's backend routes (docs/backend-api.md) as methods. Each
 * resource is a thin map from a method to a route; timeouts, retries and idempotency are the
 * transport's.
 */
import { constructEvent } from './notifications.js';
import { Transport, type OnboardingClientOptions, type RequestOptions } from './transport.js';
import type {
  CreateSessionParams,
  CreatedSession,
  ListSessionsParams,
  OnboardingReport,
  QueryAnswer,
  QueryRecord,
  RunQueryParams,
  SessionPage,
  SessionView,
} from './types.js';

const segment = (name: string, value: string): string => {
  if (typeof value !== 'string' || value === '') throw new TypeError(`${name} must be a non-empty string.`);
  return encodeURIComponent(value);
};

const isoTime = (value: string | Date | undefined): string | undefined => (value instanceof Date ? value.toISOString() : value);

export class Sessions {
  readonly #t: Transport;
  constructor(transport: Transport) {
    this.#t = transport;
  }

  /** `POST /v1/sessions`, with an `Idempotency-Key` (yours in `options`, else a new UUID) kept across retries. */
  create(params: CreateSessionParams, options?: RequestOptions): Promise<CreatedSession> {
    return this.#t.json({ method: 'POST', path: '/v1/sessions', body: params, policy: 'safe', creation: true, options });
  }

  /** `GET /v1/sessions/{id}`: the session and its onboarding, never a secret. */
  retrieve(id: string, options?: RequestOptions): Promise<SessionView> {
    return this.#t.json({ method: 'GET', path: `/v1/sessions/${segment('id', id)}`, policy: 'safe', options });
  }

  /** `GET /v1/sessions`: one page, newest first. */
  list(params: ListSessionsParams = {}, options?: RequestOptions): Promise<SessionPage> {
    const query = {
      reference: params.reference,
      status: params.status,
      createdAfter: isoTime(params.createdAfter),
      createdBefore: isoTime(params.createdBefore),
      limit: params.limit === undefined ? undefined : String(params.limit),
      cursor: params.cursor,
      supportCode: params.supportCode,
    };
    return this.#t.json({ method: 'GET', path: '/v1/sessions', query, policy: 'safe', options });
  }

  /** Every session the filters select, page after page (`limit` is the page size): `for await (const s of client.sessions.listAll({ status: 'completed' }))`. */
  async *listAll(params: Omit<ListSessionsParams, 'cursor'> = {}, options?: RequestOptions): AsyncGenerator<SessionView, void, undefined> {
    let cursor: string | undefined;
    do {
      const page = await this.list({ ...params, ...(cursor !== undefined && { cursor }) }, options);
      yield* page.data;
      cursor = page.nextCursor ?? undefined;
    } while (cursor !== undefined);
  }

  /** `POST /v1/sessions/{id}/cancel`: an open session can no longer be used. Cancelling a cancelled one answers it again. */
  cancel(id: string, options?: RequestOptions): Promise<SessionView> {
    return this.#t.json({ method: 'POST', path: `/v1/sessions/${segment('id', id)}/cancel`, body: {}, policy: 'safe', options });
  }

  /** `POST /v1/sessions/{id}/redact`: erases the session's personal data (cancelling it first when open); `redactedAt` is set. */
  redact(id: string, options?: RequestOptions): Promise<SessionView> {
    return this.#t.json({ method: 'POST', path: `/v1/sessions/${segment('id', id)}/redact`, body: {}, policy: 'safe', options });
  }
}

export class Queries {
  readonly #t: Transport;
  constructor(transport: Transport) {
    this.#t = transport;
  }

  /**
   * `POST /v1/queries`: one upstream query, which spends upstream credit. Retried only on 429 and
   * 503 (nothing was run): the companion does not deduplicate queries, so a repeat after another
   * failure could run and bill it twice. The `Idempotency-Key` is sent all the same.
   */
  run(params: RunQueryParams, options?: RequestOptions): Promise<QueryAnswer> {
    return this.#t.json({ method: 'POST', path: '/v1/queries', body: params, policy: 'unsafe', creation: true, options });
  }

  /** `GET /v1/queries/{id}`: a query by the `id` `run` answered, with its result once it has one. */
  retrieve(id: string, options?: RequestOptions): Promise<QueryRecord> {
    return this.#t.json({ method: 'GET', path: `/v1/queries/${segment('id', id)}`, policy: 'safe', options });
  }
}

/** A file the companion streams (a PDF, an archive): read it once, as a stream or whole. */
export interface FileDownload {
  /** From `Content-Disposition`, when the companion named the file. */
  filename: string | null;
  contentType: string;
  /** The bytes as they arrive: pipe them to a file or to your own answer (`Readable.fromWeb(body)`). */
  body: ReadableStream<Uint8Array>;
  /** The whole file (reads `body`). */
  bytes(): Promise<Uint8Array>;
  requestId?: string;
}

/** The evidence archive (a ZIP). */
export interface EvidenceArchive extends FileDownload {
  /** Whether the archive's entries are encrypted (AES-256 ZIP). */
  encrypted: boolean;
  /** The passphrase the companion generated, told this once (`Evidence-Password`); absent when you gave yours or asked for none. */
  password?: string;
}

/** `{}` (a generated passphrase, the default), your own `password`, or `encrypt: false`. */
export type EvidenceOptions = { password?: string; encrypt?: true } | { encrypt: false };

function download(res: Response): FileDownload {
  const disposition = res.headers.get('content-disposition') ?? '';
  const filename = /filename="([^"]*)"/.exec(disposition)?.[1] ?? null;
  const requestId = res.headers.get('x-request-id');
  const body = res.body ?? new ReadableStream<Uint8Array>({ start: (c) => c.close() });
  return {
    filename,
    contentType: res.headers.get('content-type') ?? 'application/octet-stream',
    body,
    bytes: async () => new Uint8Array(await new Response(body).arrayBuffer()),
    ...(requestId && { requestId }),
  };
}

export class Reports {
  readonly #t: Transport;
  constructor(transport: Transport) {
    this.#t = transport;
  }

  /** `GET /v1/admin/onboardings/{token}` (scope `reports`): the upstream report of any token of the account. */
  json(token: string, options?: RequestOptions): Promise<OnboardingReport> {
    return this.#t.json({ method: 'GET', path: `/v1/admin/onboardings/${segment('token', token)}`, policy: 'safe', options });
  }

  /** `GET /v1/admin/onboardings/{token}/report.pdf`: the upstream PDF, streamed. */
  async pdf(token: string, options?: RequestOptions): Promise<FileDownload> {
    return download(
      await this.#t.stream({ method: 'GET', path: `/v1/admin/onboardings/${segment('token', token)}/report.pdf`, policy: 'safe', options }),
    );
  }

  /** `POST /v1/admin/onboardings/{token}/evidence`: the evidence archive, streamed; encrypted with a generated passphrase unless told otherwise. */
  async evidence(token: string, evidence: EvidenceOptions = {}, options?: RequestOptions): Promise<EvidenceArchive> {
    const body = evidence.encrypt === false ? { encrypt: false } : evidence.password !== undefined ? { password: evidence.password } : {};
    const res = await this.#t.stream({
      method: 'POST',
      path: `/v1/admin/onboardings/${segment('token', token)}/evidence`,
      body,
      policy: 'safe',
      options,
    });
    const password = res.headers.get('evidence-password');
    return { ...download(res), encrypted: evidence.encrypt !== false, ...(password && { password }) };
  }
}

/** Verifies the companion's notifications; needs no API key. */
export class Notifications {
  /** See `constructEvent`. */
  readonly constructEvent = constructEvent;
}

export class OnboardingClient {
  readonly sessions: Sessions;
  readonly queries: Queries;
  readonly reports: Reports;
  readonly notifications: Notifications;
  /** The companion's base URL, as calls use it. */
  readonly baseUrl: string;

  constructor(options: OnboardingClientOptions) {
    const transport = new Transport(options);
    this.baseUrl = transport.baseUrl;
    this.sessions = new Sessions(transport);
    this.queries = new Queries(transport);
    this.reports = new Reports(transport);
    this.notifications = new Notifications();
  }
}
