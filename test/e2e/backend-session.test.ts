/**
 * The integrator's pattern end to end (docs/backend-api.md): a backend (this test) opens a session
 * with its API key, a real Chromium page completes the flow with only the session's client
 * secret, the backend's receiver gets `session.submitted` then `session.completed` signed with its
 * secret, and `GET /v1/sessions/{id}` agrees with the notification. The stack is `npm start`'s
 * (demo/start.ts) in a child process; the receiver is a plain Node HTTP server on loopback.
 */
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { randomBytes } from 'node:crypto';
import { join } from 'node:path';
import type { Browser } from 'playwright-core';
import type { CreateSessionResponse, NotificationEvent, SessionView } from '@onboarding-kit/contract';
import { SAMPLE_PNG_BASE64 } from '@onboarding-kit/sandbox';
import { verifyNotification } from '@onboarding-kit/server';
import { buildDemo, type BuiltDemo } from './helpers/build-demo.js';
import { launchBrowser, recordedContext, screenshots, writeCardJpeg, writeFaceJpeg } from './helpers/browser.js';
import { driveFlow, recordFlowEvents } from './helpers/flow.js';
import { startStack, type RunningStack } from './helpers/stack.js';

const API_KEY = `sk_e2e_${randomBytes(24).toString('hex')}`;
const NOTIFY_SECRET = `whsec_e2e_${randomBytes(24).toString('hex')}`;
const CPF = '529.982.247-25';

interface Received {
  event: NotificationEvent<SessionView>;
  verified: boolean;
}

let built: BuiltDemo;
let stack: RunningStack;
let browser: Browser;
let receiver: Server;
let jpeg: string;
let faceJpeg: string;
const received: Received[] = [];

before(async () => {
  receiver = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const raw = Buffer.concat(chunks).toString('utf8');
      void verifyNotification(raw, req.headers['onboarding-signature'] as string | undefined, NOTIFY_SECRET).then((verified) => {
        received.push({ event: JSON.parse(raw) as NotificationEvent<SessionView>, verified });
        res.writeHead(verified ? 204 : 400).end();
      });
    });
  });
  await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve));
  built = await buildDemo();
  stack = await startStack({
    demoDir: built.demoDir,
    env: {
      SANDBOX_PROCESSING_MS: '1500',
      ONBOARDING_API_KEYS: API_KEY,
      ONBOARDING_NOTIFY_URL: `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/hooks/kyc`,
      ONBOARDING_NOTIFY_SECRET: NOTIFY_SECRET,
    },
  });
  browser = await launchBrowser();
  jpeg = join(built.demoDir, '..', 'card.jpg');
  await writeCardJpeg(browser, jpeg);
  faceJpeg = join(built.demoDir, '..', 'face.jpg');
  await writeFaceJpeg(browser, faceJpeg);
});

after(async () => {
  await browser?.close();
  await stack?.stop();
  await built?.remove();
  await new Promise((resolve) => receiver?.close(resolve));
});

async function backend(method: string, path: string, body?: unknown): Promise<Response> {
  return fetch(`${stack.url}${path}`, {
    method,
    headers: { authorization: `Bearer ${API_KEY}`, ...(body !== undefined && { 'content-type': 'application/json' }) },
    ...(body !== undefined && { body: JSON.stringify(body) }),
  });
}

async function waitFor<T>(what: string, probe: () => T | undefined, timeoutMs = 45_000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = probe();
    if (value !== undefined) return value;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

test('a session opened by the backend, completed by the page, told to the backend signed, and confirmed by GET /v1/sessions/{id}', async () => {
  const open = await backend('POST', '/v1/sessions', {
    reference: 'e2e-user-1',
    cpf: CPF,
    name: 'Maria Silva',
    documentTypes: ['CNH'],
    locale: 'pt-BR',
    metadata: { plan: 'gold' },
  });
  assert.equal(open.status, 201);
  const session = (await open.json()) as CreateSessionResponse;

  const recorded = await recordedContext(browser, { camera: true });
  await recordFlowEvents(recorded.page);
  const shots = screenshots(recorded.page, 'backend-session');
  try {
    // The integrator's page renders the element with the client secret only.
    assert.equal((await recorded.page.goto(`${stack.url}/`))?.status(), 200);
    await recorded.page.locator('onboarding-flow').evaluate((el, secret) => {
      (el as HTMLElement & { session: string }).session = secret;
    }, session.clientSecret);
    // The page is shown the session's CPF masked; the companion sends the whole one.
    const outcome = await driveFlow(recorded.page, { expectCpf: '***.982.247-**', source: 'camera', faceJpeg, shot: (s) => shots.take(s) });
    assert.equal(outcome.status, 'APPROVED');

    const completed = await waitFor('session.completed', () =>
      received.find((r) => r.event.type === 'session.completed' && r.event.data.id === session.id),
    );
    assert.equal(completed.verified, true, 'signed with the notify secret');
    assert.equal(completed.event.data.status, 'completed');
    assert.equal(completed.event.data.onboarding?.status, 'APPROVED');
    assert.equal(completed.event.data.onboarding?.tokenOnboarding, outcome.tokenOnboarding);
    assert.equal(completed.event.data.onboarding?.keptAnyway, undefined, 'every photo passed its checks');
    assert.deepEqual(completed.event.data.metadata, { plan: 'gold' });
    const submitted = received.findIndex((r) => r.event.type === 'session.submitted' && r.event.data.id === session.id);
    assert.ok(submitted >= 0 && submitted < received.indexOf(completed), 'session.submitted came first');
    assert.ok(
      received.every((r) => r.verified),
      'every notification verified',
    );

    const view = (await (await backend('GET', `/v1/sessions/${session.id}`)).json()) as SessionView;
    assert.equal(view.status, 'completed');
    assert.equal(view.onboarding?.status, 'APPROVED');
    assert.equal(view.onboarding?.tokenOnboarding, outcome.tokenOnboarding);
    assert.deepEqual(
      view.onboarding?.history?.map((h) => h.status),
      ['IN_PROCESS', 'APPROVED'],
    );

    // Nothing the page saw holds the API key or the notify secret.
    const pageSaw = recorded.exchanges.map((e) => JSON.stringify(e)).join('\n') + recorded.consoleMessages.join('\n');
    assert.ok(!pageSaw.includes(API_KEY) && !pageSaw.includes(NOTIFY_SECRET), 'no backend secret reached the page');
    assert.ok(!stack.output().includes(API_KEY) && !stack.output().includes(NOTIFY_SECRET), 'nor the server log');
    assert.ok(
      !stack.output().includes(session.clientSecret) && !stack.output().includes(new URL(session.url).pathname.split('/').pop()!),
      'the log holds no session secret either',
    );
    assert.ok(!JSON.stringify(received).includes(session.clientSecret), 'nor any notification');

    // The session is spent: the page cannot start a second onboarding with it.
    const again = await fetch(`${stack.url}/v1/onboardings`, {
      method: 'POST',
      headers: { authorization: `Bearer ${session.clientSecret}`, 'content-type': 'application/json' },
      body: JSON.stringify({ cpf: CPF, documentType: 'CNH', images: { documentFront: SAMPLE_PNG_BASE64, selfie: SAMPLE_PNG_BASE64 } }),
    });
    assert.equal(again.status, 409);
    assert.equal(((await again.json()) as { error: { code: string } }).error.code, 'session_used');
  } catch (error) {
    await shots.take('failure').catch(() => {});
    throw error;
  } finally {
    await recorded.settle();
    await recorded.context.close();
  }
});
