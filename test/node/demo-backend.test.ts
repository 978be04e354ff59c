/**
 * `npm start` as the integrator's backend (demo/backend.ts): a session per visit opened over HTTP
 * with an API key the pages never see, flows completed under the session's client secret, and
 * the companion's signed notifications verified by the demo's own receiver, or by the
 * integrator's when ONBOARDING_NOTIFY_URL points elsewhere.
 */
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { createHmac } from 'node:crypto';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { silentLogger } from '@onboarding-kit/server';
import { constructEvent, SignatureVerificationError } from '@onboarding-kit/node';
import { createDemoBackend, renderWithSession, type ReceivedNotification } from '../../demo/backend.js';
import { DEMO_CSP } from '../../demo/csp.js';
import { startDemo, stopDemo, type DemoProcess } from './helpers/demo-process.js';
import { body, waitUntil } from './helpers/stack.js';

const scratch = mkdtempSync(join(tmpdir(), 'okit-demo-backend-'));
after(() => rmSync(scratch, { recursive: true, force: true }));

/**
 * A demo build of three small pages: what is tested is how a visit is rendered, not the pages'
 * scripts (the end-to-end tests drive those). The escaped tag in `<code>` must stay untouched.
 */
const site = join(scratch, 'site');
before(() => {
  mkdirSync(join(site, 'react'), { recursive: true });
  mkdirSync(join(site, 'vue'), { recursive: true });
  writeFileSync(
    join(site, 'index.html'),
    '<!doctype html>\n<html><head><title>demo</title></head><body><code>&lt;onboarding-flow endpoint="/v1"&gt;</code>\n<onboarding-flow id="flow" endpoint="/v1" locale="pt-BR"></onboarding-flow></body></html>\n',
  );
  for (const page of ['react', 'vue'])
    writeFileSync(
      join(site, page, 'index.html'),
      `<!doctype html>\n<html><head><title>${page}</title></head><body><div id="app"></div></body></html>\n`,
    );
});

/** The integrator's own key, configured: the test plays the integrator's backend with it. */
const API_KEY = 'test-backend-key-0123456789abcdefghijklmnop';
const APPROVED_CPF = '529.982.247-25';
let runs = 0;

function start(env: Record<string, string> = {}): DemoProcess {
  return startDemo({
    ONBOARDING_STORE: `sqlite:${join(scratch, `run-${++runs}.db`)}`,
    ONBOARDING_DEMO_DIR: site,
    ONBOARDING_API_KEYS: API_KEY,
    SANDBOX_PROCESSING_MS: '200',
    ONBOARDING_RATE_LIMIT: '0',
    ...env,
  });
}

/** `t=<unix s>,v1=<hex HMAC-SHA256 of "<t>.<raw body>">`, as the companion signs (docs/backend-api.md#notifications). */
function sign(raw: string, secret: string, t = Math.floor(Date.now() / 1000)): string {
  return `t=${t},v1=${createHmac('sha256', secret).update(`${t}.${raw}`).digest('hex')}`;
}

const backendGet = (url: string, path: string, key = API_KEY) => fetch(`${url}${path}`, { headers: { authorization: `Bearer ${key}` } });

async function pageSession(url: string, clientSecret: string): Promise<{ id: string; prefill: { cpf?: string } }> {
  const res = await fetch(`${url}/v1/session`, { headers: { authorization: `Bearer ${clientSecret}` } });
  assert.equal(res.status, 200, 'the client secret opens its session on the page API');
  return (await res.json()) as never;
}

const sessionAttribute = (html: string) => /<onboarding-flow session="([^"]+)"/.exec(html)?.[1];
const sessionMeta = (html: string) => /<meta name="onboarding-session" content="([^"]+)"/.exec(html)?.[1];

async function openFromPage(url: string, input: Record<string, unknown>): Promise<string> {
  const res = await fetch(`${url}/demo/session`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(input),
  });
  assert.equal(res.status, 201, await res.clone().text());
  const answer = (await res.json()) as Record<string, unknown>;
  assert.deepEqual(Object.keys(answer).sort(), ['clientSecret', 'expiresAt'], 'the page gets the client secret and nothing else');
  return answer.clientSecret as string;
}

async function notificationsOf(url: string, sessionId: string): Promise<{ receiving: boolean; data: ReceivedNotification[] }> {
  const res = await fetch(`${url}/demo/notifications?session=${encodeURIComponent(sessionId)}`);
  assert.equal(res.status, 200);
  return (await res.json()) as never;
}

/**
 * Everything in `texts` long enough to be a key or a secret, tried as both: none may open the
 * backend routes (an API key) or sign a notification the receiver accepts (its secret). Needs no
 * knowledge of the keys `npm start` made up, so it catches them too.
 */
async function assertNoBackendSecret(url: string, texts: string[]): Promise<number> {
  const candidates = new Set(texts.flatMap((t) => t.match(/[A-Za-z0-9_-]{32,}/g) ?? []));
  for (const candidate of candidates) {
    assert.equal(
      (await backendGet(url, '/v1/sessions?reference=probe', candidate)).status,
      401,
      `${candidate.slice(0, 12)}... opens the backend routes`,
    );
    const raw = JSON.stringify({
      id: `evt_probe_${candidate.slice(0, 8)}`,
      type: 'session.completed',
      createdAt: new Date().toISOString(),
      data: { id: 'ses_probe' },
    });
    const res = await fetch(`${url}/demo/notifications`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'onboarding-signature': sign(raw, candidate) },
      body: raw,
    });
    assert.equal(res.status, 400, `${candidate.slice(0, 12)}... signs notifications`);
  }
  return candidates.size;
}

test('npm start opens a session per visit over its own /v1/sessions and gives the page only the client secret', async () => {
  const demo = start();
  try {
    const url = await demo.url;
    const first = await fetch(`${url}/`);
    assert.equal(first.status, 200);
    assert.equal(first.headers.get('content-security-policy'), DEMO_CSP, 'the demo CSP is intact');
    assert.equal(first.headers.get('cache-control'), 'no-store', 'a page holding a session is never cached');
    assert.equal(first.headers.get('etag'), null);
    const firstHtml = await first.text();
    const secondHtml = await (await fetch(`${url}/?locale=en`)).text();
    const [a, b] = [sessionAttribute(firstHtml), sessionAttribute(secondHtml)];
    assert.ok(a && b, firstHtml);
    assert.notEqual(a, b, 'each visit gets a session of its own');
    assert.match(firstHtml, /<code>&lt;onboarding-flow endpoint="\/v1"&gt;<\/code>/, 'only the element itself gets the attribute');

    const [sa, sb] = [await pageSession(url, a), await pageSession(url, b)];
    assert.notEqual(sa.id, sb.id);
    // The integrator's side: the session exists, for a made-up visitor, opened by the demo backend.
    const view = (await (await backendGet(url, `/v1/sessions/${sb.id}`)).json()) as {
      reference: string;
      status: string;
      metadata: Record<string, string>;
    };
    assert.match(view.reference, /^demo-visitor-[0-9a-f]{12}$/);
    assert.equal(view.status, 'open');
    assert.equal(view.metadata.page, '/');
    assert.equal(
      ((await (await fetch(`${url}/v1/session`, { headers: { authorization: `Bearer ${b}` } })).json()) as { locale: string }).locale,
      'en',
      "the visit's locale",
    );

    for (const page of ['/react', '/vue/']) {
      const html = await (await fetch(`${url}${page}`)).text();
      const secret = sessionMeta(html);
      assert.ok(secret, `${page} carries its session: ${html}`);
      assert.notEqual(secret, a);
      const viewed = (await (await backendGet(url, `/v1/sessions/${(await pageSession(url, secret)).id}`)).json()) as {
        metadata: Record<string, string>;
      };
      assert.equal(viewed.metadata.page, page.replace(/\/$/, ''));
    }

    // A shortcut's session: for the test identity's CPF, locked by the companion, shown to the page masked.
    const shortcut = await openFromPage(url, { cpf: APPROVED_CPF, locale: 'pt-BR', page: '/' });
    assert.equal((await pageSession(url, shortcut)).prefill.cpf, '***.982.247-**');
    const invalid = await fetch(`${url}/demo/session`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ cpf: '111.111.111-12' }),
    });
    assert.equal(invalid.status, 400);
    assert.equal(((await invalid.json()) as { error: { code: string } }).error.code, 'invalid_cpf');

    // Another site cannot have the demo open sessions with its key.
    for (const headers of [
      { origin: 'https://evil.example' },
      { 'sec-fetch-site': 'cross-site' },
      { 'content-type': 'text/plain' },
    ] as Record<string, string>[]) {
      const res = await fetch(`${url}/demo/session`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', ...headers },
        body: '{}',
      });
      assert.equal(res.status, 403, JSON.stringify(headers));
    }

    const listed = await (await fetch(`${url}/demo/notifications?session=${sa.id}`)).text();
    const checked = await assertNoBackendSecret(url, [firstHtml, secondHtml, listed, JSON.stringify({ shortcut })]);
    assert.ok(checked >= 3, 'the client secrets themselves were tried');
    const { out, err } = demo.output();
    for (const text of [firstHtml, secondHtml, listed, out, err]) assert.ok(!text.includes(API_KEY), 'the configured API key leaked');
    await assertNoBackendSecret(url, [out, err]);
  } finally {
    await stopDemo(demo, 'SIGTERM');
  }
});

test('a flow completed under a session reaches the demo receiver as verified notifications, and the backend confirms it', async () => {
  const demo = start();
  try {
    const url = await demo.url;
    const clientSecret = await openFromPage(url, { cpf: APPROVED_CPF, page: '/' });
    const { id } = await pageSession(url, clientSecret);

    const created = await fetch(`${url}/v1/onboardings`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', authorization: `Bearer ${clientSecret}` },
      body: JSON.stringify(body({ cpf: APPROVED_CPF })),
    });
    assert.equal(created.status, 201, await created.clone().text());

    let received: ReceivedNotification[] = [];
    await waitUntil(async () => {
      received = (await notificationsOf(url, id)).data;
      return received.some((n) => n.type === 'session.completed');
    }, 20_000);
    const completed = received.find((n) => n.type === 'session.completed')!;
    assert.equal(completed.verified, true);
    assert.equal(completed.sessionId, id);
    assert.equal(completed.sessionStatus, 'completed');
    assert.equal(completed.onboardingStatus, 'APPROVED');
    assert.ok(
      received.some((n) => n.type === 'session.submitted' && n.sessionId === id),
      JSON.stringify(received),
    );
    assert.equal(new Set(received.map((n) => n.id)).size, received.length, 'each notification once');

    // The backend confirms with the companion, never trusting the page.
    const view = (await (await backendGet(url, `/v1/sessions/${id}`)).json()) as {
      status: string;
      onboarding?: { status: string; tokenOnboarding: string };
    };
    assert.equal(view.status, 'completed');
    assert.equal(view.onboarding?.status, 'APPROVED');
    assert.equal(view.onboarding?.tokenOnboarding, ((await created.json()) as { tokenOnboarding: string }).tokenOnboarding);

    // A session yields one onboarding.
    const again = await fetch(`${url}/v1/onboardings`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', authorization: `Bearer ${clientSecret}` },
      body: JSON.stringify(body({ cpf: APPROVED_CPF })),
    });
    assert.equal(again.status, 409);
    // Nothing for another session, and a notification with a bad signature is refused.
    assert.deepEqual((await notificationsOf(url, 'ses_unknown')).data, []);
    const raw = JSON.stringify({ id: 'evt_forged', type: 'session.completed', createdAt: new Date().toISOString(), data: { id } });
    for (const signature of [sign(raw, 'not-the-secret-but-long-enough-000000'), '', 't=1,v1=00']) {
      const res = await fetch(`${url}/demo/notifications`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', ...(signature && { 'onboarding-signature': signature }) },
        body: raw,
      });
      assert.equal(res.status, 400);
    }
    assert.ok(!(await notificationsOf(url, id)).data.some((n) => n.id === 'evt_forged'));
  } finally {
    await stopDemo(demo, 'SIGTERM');
  }
});

test('ONBOARDING_SESSIONS=required: a creation without a session is refused; the demo page still works with the one it got', async () => {
  const demo = start({ ONBOARDING_SESSIONS: 'required' });
  try {
    const url = await demo.url;
    const bare = await fetch(`${url}/v1/onboardings`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify(body({ cpf: APPROVED_CPF })),
    });
    assert.equal(bare.status, 401);
    const secret = sessionAttribute(await (await fetch(`${url}/`)).text());
    assert.ok(secret);
    const created = await fetch(`${url}/v1/onboardings`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', authorization: `Bearer ${secret}` },
      body: JSON.stringify(body({ cpf: APPROVED_CPF })),
    });
    assert.equal(created.status, 201, await created.clone().text());
  } finally {
    await stopDemo(demo, 'SIGTERM');
  }
});

test("with ONBOARDING_NOTIFY_URL the notifications go to the integrator's receiver, and the demo receiver is off", async () => {
  const secret = 'integrator-notify-secret-0123456789abcdef';
  const got: { type: string; data: { id: string; status: string; onboarding?: { status: string } } }[] = [];
  let refused = 0;
  // The receiver of README.md, "Receive the notification": the raw body, verified before it is parsed.
  const receiver: Server = createServer(async (req, res) => {
    const chunks: Buffer[] = [];
    for await (const chunk of req) chunks.push(chunk as Buffer);
    try {
      got.push((await constructEvent(Buffer.concat(chunks), req.headers['onboarding-signature'], secret)) as (typeof got)[number]);
      res.writeHead(204).end();
    } catch (error) {
      if (!(error instanceof SignatureVerificationError)) throw error;
      refused++;
      res.writeHead(400).end();
    }
  });
  await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve));
  const { port } = receiver.address() as { port: number };
  const demo = start({ ONBOARDING_NOTIFY_URL: `http://127.0.0.1:${port}/kyc/notifications`, ONBOARDING_NOTIFY_SECRET: secret });
  try {
    const url = await demo.url;
    assert.equal((await fetch(`${url}/demo/notifications`, { method: 'POST', body: '{}' })).status, 404, 'the demo receiver is off');
    const clientSecret = await openFromPage(url, { cpf: APPROVED_CPF });
    const { id } = await pageSession(url, clientSecret);
    assert.deepEqual(await notificationsOf(url, id), { receiving: false, data: [] });
    const created = await fetch(`${url}/v1/onboardings`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', authorization: `Bearer ${clientSecret}` },
      body: JSON.stringify(body({ cpf: APPROVED_CPF })),
    });
    assert.equal(created.status, 201);
    await waitUntil(() => got.some((n) => n.type === 'session.completed' && n.data.id === id), 20_000);
    assert.equal(got.find((n) => n.type === 'session.completed')!.data.onboarding?.status, 'APPROVED');
    assert.equal(refused, 0);
    assert.ok(!demo.output().out.includes(secret) && !demo.output().err.includes(secret), 'the notify secret is never printed');
  } finally {
    await stopDemo(demo, 'SIGTERM');
    await new Promise((resolve) => receiver.close(resolve));
  }
});

test('the demo receiver: verified or refused, each id kept once, the last ones only, per session', async () => {
  const secret = 'receiver-unit-secret-0123456789abcdefgh';
  const backend = createDemoBackend({
    companionUrl: 'http://127.0.0.1:9',
    apiKey: 'k'.repeat(32),
    receiver: { secret },
    logger: silentLogger,
    keep: 3,
  });
  const deliver = (event: Record<string, unknown>, signature?: string) => {
    const raw = JSON.stringify(event);
    return backend.app.request('/demo/notifications', {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'onboarding-signature': signature ?? sign(raw, secret) },
      body: raw,
    });
  };
  const list = async (session: string) =>
    ((await (await backend.app.request(`/demo/notifications?session=${session}`)).json()) as { data: ReceivedNotification[] }).data;
  const event = (id: string, session: string, type = 'session.submitted') => ({
    id,
    type,
    createdAt: new Date().toISOString(),
    data: {
      id: session,
      status: type === 'session.completed' ? 'completed' : 'submitted',
      onboarding: { tokenOnboarding: 't', status: type === 'session.completed' ? 'ERROR' : 'IN_PROCESS', externalId: 'ext-1', history: [] },
    },
  });

  assert.equal((await deliver(event('evt_1', 'ses_a'))).status, 200);
  const repeat = await deliver(event('evt_1', 'ses_a'));
  assert.equal(repeat.status, 200, 'a repeat is acknowledged, so the companion stops retrying');
  assert.deepEqual(await repeat.json(), { received: true, duplicate: true });
  assert.equal((await deliver(event('evt_2', 'ses_a', 'session.completed'))).status, 200);
  const a = await list('ses_a');
  assert.deepEqual(
    a.map((n) => [n.id, n.deliveries, n.sessionStatus, n.onboardingStatus]),
    [
      ['evt_1', 2, 'submitted', 'IN_PROCESS'],
      ['evt_2', 1, 'completed', 'ERROR'],
    ],
  );
  assert.equal(a[1]!.externalId, 'ext-1');
  assert.deepEqual(await list('ses_b'), []);

  // Refused: another secret, an old signature (replay), a body changed after signing, no header.
  const old = Math.floor(Date.now() / 1000) - 3600;
  const raw = JSON.stringify(event('evt_x', 'ses_b'));
  for (const [signature, bodyText] of [
    [sign(raw, 'another-secret-0123456789abcdefghijklm'), raw],
    [sign(raw, secret, old), raw],
    [sign(raw, secret), raw.replace('ses_b', 'ses_c')],
    ['', raw],
  ] as const) {
    const res = await backend.app.request('/demo/notifications', {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'onboarding-signature': signature },
      body: bodyText,
    });
    assert.equal(res.status, 400);
    assert.equal(((await res.json()) as { error: { code: string } }).error.code, 'invalid_signature');
  }
  // Signed but not a notification.
  const junk = JSON.stringify({ hello: 'world' });
  assert.equal(
    (
      await backend.app.request('/demo/notifications', {
        method: 'POST',
        headers: { 'onboarding-signature': sign(junk, secret) },
        body: junk,
      })
    ).status,
    400,
  );
  assert.deepEqual(await list('ses_b'), []);

  // Only the last `keep` are kept.
  for (const id of ['evt_3', 'evt_4']) assert.equal((await deliver(event(id, 'ses_b'))).status, 200);
  assert.deepEqual(
    (await list('ses_a')).map((n) => n.id),
    ['evt_2'],
  );
  assert.deepEqual(
    (await list('ses_b')).map((n) => n.id),
    ['evt_3', 'evt_4'],
  );
  assert.equal((await backend.app.request('/demo/notifications')).status, 400, 'a session must be named');
});

test("a page rendered for a visit: the secret as the element's attribute and in a meta tag, escaped", () => {
  const html =
    '<html><head><title>x</title></head><body><code>&lt;onboarding-flow&gt;</code><onboarding-flow id="flow"></onboarding-flow></body></html>';
  const out = renderWithSession(html, 'ses_1_secret_a"b<c');
  assert.match(out, /<onboarding-flow session="ses_1_secret_a&quot;b&lt;c" id="flow">/);
  assert.match(out, /<meta name="onboarding-session" content="ses_1_secret_a&quot;b&lt;c" \/>\s*<\/head>/);
  assert.match(out, /<code>&lt;onboarding-flow&gt;<\/code>/);
  const framework = renderWithSession('<html><head></head><body><div id="app"></div></body></html>', 'ses_2_secret_x');
  assert.match(framework, /content="ses_2_secret_x"/);
  assert.ok(!framework.includes('<onboarding-flow'));
});
