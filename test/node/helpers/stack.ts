/**
 * The real thing on real sockets: the sandbox (the upstream stand-in) on one port, the companion
 * on another, the sandbox's webhooks pointed at the companion with the agreed key. Every log line
 * of the companion is captured for the secret scan.
 */
import { createCompanion, createJsonLogger, listen, type CompanionApp, type CompanionOptions } from '@onboarding-kit/server';
import { serveSandbox, SAMPLE_PNG_BASE64, type Sandbox, type SandboxOptions } from '@onboarding-kit/sandbox';

export const IT_CLIENT = 'it-client-7c1d';
export const IT_SECRET = 'it-secret-9f8e7d6c5b4a3210';
export const IT_WEBHOOK_KEY = 'it-webhook-key-1a2b3c4d5e6f';

export interface Stack {
  /** Companion base URL (`http://127.0.0.1:port`). */
  url: string;
  app: CompanionApp;
  sandbox: Sandbox;
  sandboxUrl: string;
  logs: string[];
  close(): Promise<void>;
}

export async function startStack(options: { companion?: Partial<CompanionOptions>; sandbox?: SandboxOptions } = {}): Promise<Stack> {
  const logs: string[] = [];
  let handler: ((req: Request, env: unknown) => Response | Promise<Response>) | undefined;
  // The companion's address must exist before the sandbox (its webhook URL), and the sandbox's before the companion.
  const front = await listen((req, env) => (handler ? handler(req, env) : new Response('starting', { status: 503 })), { port: 0 });
  const sb = await serveSandbox({
    port: 0, client: IT_CLIENT, secret: IT_SECRET, webhookKey: IT_WEBHOOK_KEY, webhookUrl: `${front.url}/v1/webhooks`, processingMs: 300,
    ...options.sandbox,
  });
  const app = createCompanion({
    baseUrl: sb.url, client: IT_CLIENT, secret: IT_SECRET, webhookKey: IT_WEBHOOK_KEY,
    logger: createJsonLogger({ sink: (l) => logs.push(l), level: 'debug' }),
    rateLimit: 0,
    ...options.companion,
  });
  handler = (req, env) => app.fetch(req, env);
  return {
    url: front.url, app, sandbox: sb.sandbox, sandboxUrl: sb.url, logs,
    async close() {
      await app.close();
      await front.close();
      await sb.close();
    },
  };
}

export const IMAGE = SAMPLE_PNG_BASE64;

export function body(taxId: { cpf?: string; cnpj?: string } = { cpf: '529.982.247-25' }, extra: Record<string, unknown> = {}): Record<string, unknown> {
  return { ...taxId, name: 'Maria Silva', documentType: 'CNH', images: { documentFront: IMAGE, documentBack: IMAGE, selfie: IMAGE }, ...extra };
}

export async function create(url: string, payload: unknown = body(), headers: Record<string, string> = {}): Promise<Response> {
  return fetch(`${url}/v1/onboardings`, { method: 'POST', headers: { 'content-type': 'application/json', ...headers }, body: typeof payload === 'string' ? payload : JSON.stringify(payload) });
}

export async function createOk(url: string, payload: unknown = body()): Promise<{ tokenOnboarding: string; accessKey: string; dateHourProcess: string; status: string }> {
  const res = await create(url, payload);
  if (res.status !== 201) throw new Error(`creation: ${res.status} ${await res.text()}`);
  return (await res.json()) as never;
}

/** Reads `status` events of an SSE stream as they come; `next()` waits for the next one. */
export async function openEvents(url: string, token: string, accessKey: string) {
  const ac = new AbortController();
  const res = await fetch(`${url}/v1/onboardings/${token}/events`, { headers: { authorization: `Bearer ${accessKey}` }, signal: ac.signal });
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
          if (/^event: status$/m.test(block) && data) events.push({ ...(JSON.parse(data) as { status: string; tokenOnboarding: string }), at: Date.now() });
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
    get ended() { return ended; },
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
    close() { ac.abort(); },
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
