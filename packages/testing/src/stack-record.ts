/**
 * What the page sent to the real companion, per test namespace: requests to
 * `/t/<namespace>/v1/...` are recorded and handed to the companion as `/v1/...`, unchanged
 * otherwise (same method, headers, streamed body, abort signal), and the companion's answer goes
 * back untouched. Only creation bodies and creation answers are read, from a copy of the stream.
 * `GET /__stack/record/<namespace>` answers the record as JSON.
 *
 * `PUT /__stack/offline/<namespace>` with `{ "offline": true }` cuts the namespace off the network
 * as a dropped connection does: its open requests (event streams) lose their connection, and
 * each new one has its connection closed before any answer, so the page sees a network error
 * (not an HTTP status). `{ "offline": false }` ends it. Other namespaces are untouched.
 */
import { API_PREFIX } from '@onboarding-kit/contract';

export interface RecordedRequest {
  method: string;
  /** The URL as the page used it (namespace included). */
  url: string;
  authorization: string | null;
}

export interface RecordedUpload {
  /** The creation body as JSON (the raw text when it is not JSON). */
  body: unknown;
  headers: { contentType: string | null };
}

export interface RecordedOnboarding {
  token: string;
  accessKey: string;
}

export interface StackRecord {
  /** Creation requests that reached the companion. */
  uploadAttempts: number;
  uploads: RecordedUpload[];
  /** Onboardings the companion created (HTTP 201), with the key it gave the page. */
  onboardings: RecordedOnboarding[];
  requests: RecordedRequest[];
}

const NAMESPACED = /^\/t\/([A-Za-z0-9_-]{1,64})(\/.*)$/;
const RECORD = /^\/__stack\/record\/([A-Za-z0-9_-]{1,64})$/;
const OFFLINE = /^\/__stack\/offline\/([A-Za-z0-9_-]{1,64})$/;
const CREATE_PATH = `${API_PREFIX}/onboardings`;

/** The Node side of a request served by @hono/node-server (absent under `app.request()`). */
interface NodeEnv {
  incoming?: { socket?: { destroy(): void } };
  outgoing?: { once(event: 'close', listener: () => void): void };
}

type Fetch = (req: Request, env: unknown) => Response | Promise<Response>;

export class StackRecorder {
  readonly #records = new Map<string, StackRecord>();
  /** The namespace each request passed on to the companion came under. */
  readonly #namespaces = new WeakMap<Request, string>();
  readonly #offline = new Set<string>();
  /** Per namespace, the connections of its requests still being answered. */
  readonly #inFlight = new Map<string, Set<{ destroy(): void }>>();

  record(namespace: string): StackRecord {
    let record = this.#records.get(namespace);
    if (!record) this.#records.set(namespace, (record = { uploadAttempts: 0, uploads: [], onboardings: [], requests: [] }));
    return record;
  }

  /** The namespace `req` (as the companion got it) came under, if it came under one. */
  namespaceOf(req: Request): string | undefined {
    return this.#namespaces.get(req);
  }

  /** Serves the record API, the offline switch and the namespaced companion; anything else goes to `next` as it is. */
  async handle(req: Request, env: unknown, next: Fetch): Promise<Response> {
    const url = new URL(req.url);
    const asked = RECORD.exec(url.pathname);
    if (asked && req.method === 'GET') return Response.json(this.record(asked[1]!), { headers: { 'cache-control': 'no-store' } });
    const cut = OFFLINE.exec(url.pathname);
    if (cut && req.method === 'PUT')
      return Response.json({ offline: this.#setOffline(cut[1]!, ((await req.json()) as { offline?: unknown }).offline === true) });
    const m = NAMESPACED.exec(url.pathname);
    if (!m) return next(req, env);
    const socket = (env as NodeEnv | undefined)?.incoming?.socket;
    if (this.#offline.has(m[1]!)) {
      // Closed before any answer: what the page sees of a dropped network.
      socket?.destroy();
      return new Response('offline', { status: 503 });
    }
    if (socket) this.#track(m[1]!, socket, env as NodeEnv);
    const record = this.record(m[1]!);
    record.requests.push({ method: req.method, url: req.url, authorization: req.headers.get('authorization') });
    url.pathname = m[2]!;
    const creation = req.method === 'POST' && url.pathname === CREATE_PATH;
    let body = req.body;
    let sent: Promise<string> | undefined;
    if (creation && body) {
      const [forCompanion, forRecord] = body.tee();
      body = forCompanion;
      sent = new Response(forRecord).text();
      record.uploadAttempts++;
    }
    const inner = new Request(url, { method: req.method, headers: req.headers, body, signal: req.signal, duplex: 'half' } as RequestInit);
    this.#namespaces.set(inner, m[1]!);
    const res = await next(inner, env);
    if (sent) {
      const text = await sent.catch(() => '');
      record.uploads.push({ body: parseJson(text), headers: { contentType: req.headers.get('content-type') } });
      if (res.status === 201) {
        const created = (await res.clone().json()) as { tokenOnboarding: string; accessKey: string };
        record.onboardings.push({ token: created.tokenOnboarding, accessKey: created.accessKey });
      }
    }
    return res;
  }

  #setOffline(namespace: string, offline: boolean): boolean {
    if (!offline) {
      this.#offline.delete(namespace);
      return false;
    }
    this.#offline.add(namespace);
    for (const socket of this.#inFlight.get(namespace) ?? []) socket.destroy();
    this.#inFlight.delete(namespace);
    return true;
  }

  #track(namespace: string, socket: { destroy(): void }, env: NodeEnv): void {
    let open = this.#inFlight.get(namespace);
    if (!open) this.#inFlight.set(namespace, (open = new Set()));
    open.add(socket);
    // Kept until the answer is done: a kept-alive connection may serve another namespace next.
    env.outgoing?.once('close', () => open.delete(socket));
  }
}

function parseJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return text;
  }
}
