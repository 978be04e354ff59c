/**
 * The real thing on real sockets: the sandbox (the upstream stand-in) on one port, the companion
 * on another, the sandbox's webhooks pointed at the companion's /v1/webhooks with the agreed key,
 * as `npm start` composes them (demo/start.ts). Every log line of the companion is captured, for
 * the secret scans and for a test that wants to see what was logged, and every call that reaches
 * the sandbox is listed (`upstreamCalls`), so a test can check what the companion sent upstream.
 *
 * `traffic` holds every exchange the companion's socket served, as the caller got it: request and
 * response headers and bodies, event streams byte by byte as they were sent. A secret scan reads
 * that record rather than a hand-picked set of answers.
 *
 * With `record: true` the companion is also reachable under `/t/<namespace>/v1/...`, where every
 * request is recorded for that namespace (method, URL, Authorization header, the creation bodies
 * and the keys the companion gave out) before the unchanged companion answers it: a test sees what
 * the page really sent without a stand-in in between. `GET /__stack/record/<namespace>` reads it.
 */
import { ServerResponse } from 'node:http';
import { createCompanion, createJsonLogger, listen, type CompanionApp, type CompanionOptions } from '@onboarding-kit/server';
import { createSandbox, SAMPLE_PNG_BASE64, type Sandbox, type SandboxOptions } from '@onboarding-kit/sandbox';
import { StackRecorder } from './stack-record.js';

export { StackRecorder, type StackRecord, type RecordedRequest, type RecordedUpload, type RecordedOnboarding } from './stack-record.js';
/** The sandbox's documented identities and images, for tests of packages that may not import the sandbox. */
export { TEST_IDENTITIES, SAMPLE_PNG_BASE64, NO_FACE_PNG_BASE64 } from '@onboarding-kit/sandbox';

export const IT_CLIENT = 'it-client-7c1d';
export const IT_SECRET = 'it-secret-9f8e7d6c5b4a3210';
export const IT_WEBHOOK_KEY = 'it-webhook-key-1a2b3c4d5e6f7a8b9c0d';
/** The integrator backend's API key of the stack process (stack-server.ts), which opens sessions. */
export const IT_API_KEY = 'sk_test_stack_0123456789abcdef0123456789';

/** A call that reached the sandbox: what the companion sent upstream. */
export interface UpstreamCall {
  method: string;
  /** Path and query. */
  path: string;
  headers: Record<string, string>;
  /** The body as JSON (the raw text when it is not JSON; undefined when empty). */
  body: unknown;
}

/** One exchange at the companion's socket (the request's body is the caller's own, and left out). */
export interface TrafficEntry {
  method: string;
  url: string;
  requestHeaders: string;
  status: number;
  responseHeaders: string;
  /** Grows while a streamed answer is being sent. */
  responseBody: string;
}

export interface Stack {
  /** Companion base URL (`http://127.0.0.1:port`). */
  url: string;
  app: CompanionApp;
  sandbox: Sandbox;
  sandboxUrl: string;
  /** Every call that reached the sandbox, in arrival order (its control API excepted). */
  upstreamCalls: UpstreamCall[];
  /** Every exchange the companion's socket served, in arrival order. */
  traffic: TrafficEntry[];
  logs: string[];
  /** The per-namespace record of `/t/<namespace>/...` (empty unless started with `record: true`). */
  recorder: StackRecorder;
  close(): Promise<void>;
}

export interface StackOptions {
  companion?: Partial<CompanionOptions>;
  sandbox?: SandboxOptions;
  /** Serve `/t/<namespace>/v1/...` with a record per namespace (see above). */
  record?: boolean;
}

export async function startStack(options: StackOptions = {}): Promise<Stack> {
  const logs: string[] = [];
  const recorder = new StackRecorder();
  let handler: ((req: Request, env: unknown) => Response | Promise<Response>) | undefined;
  // The companion's address must exist before the sandbox (its webhook URL), and the sandbox's before the companion.
  const front = await listen((req, env) => (handler ? handler(req, env) : new Response('starting', { status: 503 })), { port: 0 });
  const sandbox = createSandbox({
    client: IT_CLIENT,
    secret: IT_SECRET,
    webhookKey: IT_WEBHOOK_KEY,
    webhookUrl: `${front.url}/v1/webhooks`,
    processingMs: 300,
    // The stack's tests decide manual reviews and read stats through the control routes.
    controlApi: true,
    ...options.sandbox,
  });
  const upstreamCalls: UpstreamCall[] = [];
  const sandboxServer = await listen(
    async (req, env) => {
      const path = new URL(req.url).pathname + new URL(req.url).search;
      if (path.startsWith('/__sandbox/')) return sandbox.app.fetch(req, env as never);
      const call: UpstreamCall = { method: req.method, path, headers: Object.fromEntries(req.headers), body: undefined };
      upstreamCalls.push(call);
      const text = req.body ? req.clone().text() : Promise.resolve('');
      const res = await sandbox.app.fetch(req, env as never);
      call.body = parseBody(await text.catch(() => ''));
      return res;
    },
    { port: 0 },
  );
  const app = createCompanion({
    baseUrl: sandboxServer.url,
    client: IT_CLIENT,
    secret: IT_SECRET,
    webhookKey: IT_WEBHOOK_KEY,
    logger: createJsonLogger({ sink: (l) => logs.push(l), level: 'debug' }),
    rateLimit: 0,
    // Tests send many creations at once from 127.0.0.1; the limit is pinned by its own tests.
    creations: { perClient: 0 },
    // Every page of every engine comes from 127.0.0.1: per-address limits (the hand-off's ten code
    // claims a minute) would be shared by tests running at once. Each namespace is its own client.
    clientAddress: (c) => {
      const ns = recorder.namespaceOf(c.req.raw);
      return ns
        ? `namespace:${ns}`
        : ((c.env as { incoming?: { socket?: { remoteAddress?: string } } } | undefined)?.incoming?.socket?.remoteAddress ?? 'unknown');
    },
    ...options.companion,
  });
  const companionFetch = (req: Request, env: unknown) => app.fetch(req, env as never);
  const traffic: TrafficEntry[] = [];
  const served = options.record ? (req: Request, env: unknown) => recorder.handle(req, env, companionFetch) : companionFetch;
  handler = (req, env) => recordTraffic(req, env, served, traffic);
  return {
    url: front.url,
    app,
    sandbox,
    sandboxUrl: sandboxServer.url,
    upstreamCalls,
    traffic,
    logs,
    recorder,
    async close() {
      await app.close();
      await front.close();
      sandbox.close();
      await sandboxServer.close();
    },
  };
}

const headerText = (headers: Headers) => [...headers].map(([k, v]) => `${k}: ${v}`).join('\n');

/**
 * Serves `req` through `next` and copies the answer into a new entry of `traffic` chunk by chunk
 * as the caller reads it: a pass-through, not a tee, so a caller that goes away still cancels the
 * companion's stream.
 */
async function recordTraffic(
  req: Request,
  env: unknown,
  next: (req: Request, env: unknown) => Response | Promise<Response>,
  traffic: TrafficEntry[],
): Promise<Response> {
  const entry: TrafficEntry = {
    method: req.method,
    url: req.url,
    requestHeaders: headerText(req.headers),
    status: 0,
    responseHeaders: '',
    responseBody: '',
  };
  traffic.push(entry);
  const decoder = new TextDecoder();
  const res = await next(req, env);
  entry.status = res.status;
  entry.responseHeaders = headerText(res.headers);
  if (!res.body) {
    recordDirectWrites(env, entry, decoder);
    return res;
  }
  const reader = res.body.getReader();
  const out = new ReadableStream<Uint8Array>({
    async pull(controller) {
      const { done, value } = await reader.read();
      if (done) {
        controller.close();
        return;
      }
      entry.responseBody += decoder.decode(value, { stream: true });
      controller.enqueue(value);
    },
    cancel: (reason) => reader.cancel(reason),
  });
  return new Response(out, { status: res.status, statusText: res.statusText, headers: res.headers });
}

/**
 * An answer the server writes straight to Node's response (the companion's event streams on
 * `listen`: the handler returns an empty answer, and the stream is written past it): its bytes are
 * recorded as they are written.
 */
function recordDirectWrites(env: unknown, entry: TrafficEntry, decoder: TextDecoder): void {
  const outgoing = (env as { outgoing?: unknown } | undefined)?.outgoing;
  if (!(outgoing instanceof ServerResponse)) return;
  const write = outgoing.write.bind(outgoing) as (chunk: unknown, ...rest: unknown[]) => boolean;
  outgoing.write = ((chunk: unknown, ...rest: unknown[]) => {
    entry.responseBody += typeof chunk === 'string' ? chunk : decoder.decode(chunk as Uint8Array, { stream: true });
    return write(chunk, ...rest);
  }) as typeof outgoing.write;
}

function parseBody(text: string): unknown {
  if (!text) return undefined;
  try {
    return JSON.parse(text);
  } catch {
    return text;
  }
}

/**
 * Another companion on the stack's sandbox, with its own options and captured logs, for tests
 * that call it in process (`app.request`). The sandbox's webhooks still go to the stack's own
 * companion, so this one learns outcomes by polling only.
 */
export function companionOn(stack: Pick<Stack, 'sandboxUrl'>, over: Partial<CompanionOptions> = {}): { app: CompanionApp; logs: string[] } {
  const logs: string[] = [];
  const app = createCompanion({
    baseUrl: stack.sandboxUrl,
    client: IT_CLIENT,
    secret: IT_SECRET,
    webhookKey: IT_WEBHOOK_KEY,
    logger: createJsonLogger({ sink: (l) => logs.push(l), level: 'debug' }),
    rateLimit: 0,
    creations: { perClient: 0 },
    ...over,
  });
  return { app, logs };
}

export const IMAGE = SAMPLE_PNG_BASE64;

export function body(
  taxId: { cpf?: string; cnpj?: string } = { cpf: '529.982.247-25' },
  extra: Record<string, unknown> = {},
): Record<string, unknown> {
  return {
    ...taxId,
    name: 'Maria Silva',
    documentType: 'CNH',
    images: { documentFront: IMAGE, documentBack: IMAGE, selfie: IMAGE },
    ...extra,
  };
}

export async function create(url: string, payload: unknown = body(), headers: Record<string, string> = {}): Promise<Response> {
  return fetch(`${url}/v1/onboardings`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...headers },
    body: typeof payload === 'string' ? payload : JSON.stringify(payload),
  });
}

export async function createOk(
  url: string,
  payload: unknown = body(),
): Promise<{ tokenOnboarding: string; accessKey: string; dateHourProcess: string; status: string }> {
  const res = await create(url, payload);
  if (res.status !== 201) throw new Error(`creation: ${res.status} ${await res.text()}`);
  return (await res.json()) as never;
}

/** Reads `status` events of an SSE stream as they come; `next()` waits for the next one. */
export async function openEvents(url: string, token: string, accessKey: string) {
  const ac = new AbortController();
  const res = await fetch(`${url}/v1/onboardings/${token}/events`, {
    headers: { authorization: `Bearer ${accessKey}` },
    signal: ac.signal,
  });
  if (res.status !== 200) throw new Error(`events: ${res.status}`);
  const reader = res.body!.pipeThrough(new TextDecoderStream()).getReader();
  let buffer = '';
  let ended = false;
  const events: { status: string; externalId?: string; tokenOnboarding: string; at: number }[] = [];
  const pump = (async () => {
    try {
      for (;;) {
        const { done, value } = await reader.read();
        if (done) break;
        buffer += value;
        let i: number;
        while ((i = buffer.indexOf('\n\n')) >= 0) {
          const block = buffer.slice(0, i);
          buffer = buffer.slice(i + 2);
          const data = /^data: (.*)$/m.exec(block)?.[1];
          if (/^event: status$/m.test(block) && data)
            events.push({ ...(JSON.parse(data) as { status: string; tokenOnboarding: string }), at: Date.now() });
        }
      }
    } catch {
      // aborted
    }
    ended = true;
  })();
  return {
    response: res,
    events,
    get ended() {
      return ended;
    },
    async waitFor(count: number, ms = 10_000) {
      const end = Date.now() + ms;
      while (events.length < count && !ended) {
        if (Date.now() > end) throw new Error(`only ${events.length} events after ${ms} ms`);
        await new Promise((r) => setTimeout(r, 5));
      }
      return events;
    },
    async untilEnd(ms = 10_000) {
      await Promise.race([pump, new Promise((_, rej) => setTimeout(() => rej(new Error('stream did not end')), ms))]);
      return events;
    },
    close() {
      ac.abort();
    },
  };
}

export async function waitUntil(cond: () => boolean | Promise<boolean>, ms = 10_000): Promise<void> {
  const end = Date.now() + ms;
  while (!(await cond())) {
    if (Date.now() > end) throw new Error('condition not met in time');
    await new Promise((r) => setTimeout(r, 10));
  }
}

/** Sum of the sandbox's request counters. */
export function upstreamRequests(sandbox: Sandbox): number {
  return Object.values(sandbox.stats().requests).reduce((a, b) => a + b, 0);
}
