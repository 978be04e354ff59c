/** Builds a companion against a fake upstream with captured logs, for app.request() tests. */
import { createCompanion, createJsonLogger, type CompanionApp, type CompanionOptions } from '@onboarding-kit/server';
import { FAKE_CLIENT, FAKE_SECRET, type FakeUpstream } from './fake-upstream.js';

export const WEBHOOK_KEY = 'test-webhook-key-0123456789';

export interface TestCompanion {
  app: CompanionApp;
  logs: string[];
}

export function testCompanion(up: FakeUpstream, over: Partial<CompanionOptions> = {}): TestCompanion {
  const logs: string[] = [];
  const app = createCompanion({
    baseUrl: up.url,
    client: FAKE_CLIENT,
    secret: FAKE_SECRET,
    webhookKey: WEBHOOK_KEY,
    logger: createJsonLogger({ sink: (l) => logs.push(l), level: 'debug' }),
    // The client's own 15 s limit: no ordinary call has to be fast; timeout tests set a short one.
    upstream: { retryDelayMs: 5 },
    rateLimit: 0,
    // Every app.request comes from one unknown address; the limit is pinned by its own tests.
    creations: { perClient: 0 },
    // Unit tests drive status through webhooks; polling is tested on its own.
    poll: { firstDelayMs: 60_000 },
    ...over,
  });
  return { app, logs };
}

export function postJson(app: CompanionApp, path: string, body: unknown, headers: Record<string, string> = {}): Promise<Response> {
  return Promise.resolve(
    app.request(path, {
      method: 'POST',
      headers: { 'content-type': 'application/json', ...headers },
      body: typeof body === 'string' ? body : JSON.stringify(body),
    }),
  );
}

export async function created(
  app: CompanionApp,
  body: unknown,
): Promise<{ tokenOnboarding: string; accessKey: string; status: string; dateHourProcess: string }> {
  const res = await postJson(app, '/v1/onboardings', body);
  if (res.status !== 201) throw new Error(`creation answered ${res.status}: ${await res.text()}`);
  return (await res.json()) as never;
}

export function webhook(app: CompanionApp, body: unknown, key: string | null = WEBHOOK_KEY): Promise<Response> {
  return postJson(app, '/v1/webhooks', body, key === null ? {} : { 'id-service-token': key });
}
