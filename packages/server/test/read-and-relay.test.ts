import { test, after, before } from 'node:test';
import assert from 'node:assert/strict';
import type { CompanionOptions } from '@onboarding-kit/server';
import { startFakeUpstream, type FakeUpstream } from './helpers/fake-upstream.js';
import { createBody } from './helpers/fixtures.js';
import { created, testCompanion as fakeUpstreamCompanion, webhook, WEBHOOK_KEY } from './helpers/companion.js';
import { eventually } from '@onboarding-kit/testing/deadline';
import { sseReader } from '@onboarding-kit/testing/sse-reader';
import { body as sandboxBody, companionOn, startStack, TEST_IDENTITIES, waitUntil, type Stack } from '@onboarding-kit/testing/stack';

// Onboardings are created in the sandbox; statuses come from the webhooks each test sends itself
// (the sandbox's own go to the stack's companion, and polling starts only after a minute). A
// webhook is a hint checked against the sandbox's report, so a test first has the sandbox decide
// (manual review) what the webhook then announces.
let stack: Stack;
let up: FakeUpstream;
before(async () => {
  stack = await startStack();
  up = await startFakeUpstream();
});
after(async () => {
  await stack.close();
  await up.close();
});
const testCompanion = (over: Partial<CompanionOptions> = {}) =>
  companionOn(stack, { webhookKey: WEBHOOK_KEY, poll: { firstDelayMs: 60_000 }, upstream: { retryDelayMs: 5 }, ...over });

const auth = (key: string) => ({ authorization: `Bearer ${key}` });
/** An onboarding the sandbox leaves IN_PROCESS until the test decides it (real images: unreadable ones it refuses). */
const inReview = () => sandboxBody({ cpf: TEST_IDENTITIES.cpfManualReview });
const statusOf = async (app: { store: { get(t: string): Promise<{ status: string } | null> } }, token: string) =>
  (await app.store.get(token))?.status;

test('GET state needs the access key; missing or wrong key is answered exactly like an unknown token', async () => {
  const { app } = testCompanion();
  const o = await created(app, createBody());
  const ok = await app.request(`/v1/onboardings/${o.tokenOnboarding}`, { headers: auth(o.accessKey) });
  assert.equal(ok.status, 200);
  const state = (await ok.json()) as Record<string, string>;
  assert.deepEqual(Object.keys(state).sort(), ['status', 'tokenOnboarding', 'updatedAt']);
  assert.equal(state.status, 'IN_PROCESS');

  const rid = { 'x-request-id': 'fixed-request-id' };
  const variants = [
    app.request(`/v1/onboardings/${o.tokenOnboarding}`, { headers: { ...rid } }),
    app.request(`/v1/onboardings/${o.tokenOnboarding}`, { headers: { ...rid, ...auth('A'.repeat(43)) } }),
    app.request(`/v1/onboardings/${o.tokenOnboarding}`, { headers: { ...rid, authorization: 'Basic abc' } }),
    app.request('/v1/onboardings/00000000-0000-4000-8000-000000000000', { headers: { ...rid, ...auth(o.accessKey) } }),
    app.request(`/v1/onboardings/${o.tokenOnboarding}/events`, { headers: { ...rid, ...auth('wrong') } }),
    app.request('/v1/onboardings/00000000-0000-4000-8000-000000000000/events', { headers: { ...rid, ...auth(o.accessKey) } }),
  ];
  const answers = await Promise.all(variants);
  const snapshot = async (r: Response) => ({
    status: r.status,
    headers: [...r.headers.entries()].filter(([k]) => k !== 'date'),
    body: await r.text(),
  });
  const first = await snapshot(answers[0]!);
  assert.equal(first.status, 404);
  assert.deepEqual(JSON.parse(first.body), { error: { code: 'not_found', message: 'No such onboarding.' } });
  for (const r of answers.slice(1)) assert.deepEqual(await snapshot(r), first);
  await app.close();
});

test("webhook key: missing or wrong is 401 and nothing is stored; right is answered, and the upstream's report applied", async () => {
  const { app } = testCompanion();
  const o = await created(app, inReview());
  await stack.sandbox.decide(o.tokenOnboarding, 'APPROVED');
  const report = { tokenOnboarding: o.tokenOnboarding, status: 'APPROVED', fields: {}, services: [] };
  for (const key of [null, '', 'wrong-key', 'test-webhook-key-012345678']) {
    const res = await webhook(app, report, key);
    assert.equal(res.status, 401, String(key));
    assert.equal(((await res.json()) as { error: { code: string } }).error.code, 'unauthorized');
    assert.equal((await app.store.get(o.tokenOnboarding))!.status, 'IN_PROCESS');
  }
  const res = await webhook(app, report);
  assert.equal(res.status, 200);
  await waitUntil(async () => (await statusOf(app, o.tokenOnboarding)) === 'APPROVED');
  const stored = (await app.store.get(o.tokenOnboarding))!;
  assert.deepEqual(
    stored.history.map((h) => [h.status, h.source]),
    [
      ['IN_PROCESS', 'creation'],
      ['APPROVED', 'webhook'],
    ],
  );
  await app.close();
});

test('webhooks: non-JSON 400, unknown shape 400, unknown token acknowledged, both shapes, repeats and out-of-order', async () => {
  const { app } = testCompanion();
  const o = await created(app, inReview());
  assert.equal((await webhook(app, 'not json{')).status, 400);
  assert.equal((await webhook(app, { hello: 'world' })).status, 400);
  assert.equal((await webhook(app, { tokenOnboarding: 'unknown-token', status: 'APPROVED' })).status, 200);
  assert.equal(await app.store.get('unknown-token'), null);
  assert.equal(
    (await webhook(app, { result: { cpf: '52998224725' }, status: { code: 200, message: 'Success' }, externalId: 'q-1' })).status,
    200,
    'standalone query envelope acknowledged',
  );

  // Envelope shape with a token: ERROR, with the upstream's externalId (never the envelope's).
  const e = await created(app, inReview());
  await stack.sandbox.decide(e.tokenOnboarding, 'ERROR');
  assert.equal(
    (
      await webhook(app, {
        result: {},
        status: { code: 500, message: 'Falha' },
        onboardingStatus: 'ERROR',
        externalId: 'ext-7',
        tokenOnboarding: e.tokenOnboarding,
      })
    ).status,
    200,
  );
  await waitUntil(async () => (await statusOf(app, e.tokenOnboarding)) === 'ERROR');
  const errState = (await (await app.request(`/v1/onboardings/${e.tokenOnboarding}`, { headers: auth(e.accessKey) })).json()) as {
    status: string;
    externalId?: string;
  };
  assert.equal(errState.status, 'ERROR');
  assert.match(errState.externalId ?? '', /./, "the upstream's externalId, for support");
  assert.notEqual(errState.externalId, 'ext-7');

  // Before the upstream decides, no webhook moves the onboarding.
  for (const status of ['IN_PROCESS', 'REFUSED'])
    assert.equal((await webhook(app, { tokenOnboarding: o.tokenOnboarding, status, fields: {}, services: [] })).status, 200);
  await new Promise((r) => setTimeout(r, 200));
  assert.equal(await statusOf(app, o.tokenOnboarding), 'IN_PROCESS');
  // Repeats and out-of-order once decided: terminal never moves back.
  await stack.sandbox.decide(o.tokenOnboarding, 'REFUSED');
  const sequence = ['REFUSED', 'REFUSED', 'IN_PROCESS', 'APPROVED', 'REFUSED'];
  for (const status of sequence)
    assert.equal((await webhook(app, { tokenOnboarding: o.tokenOnboarding, status, fields: {}, services: [] })).status, 200);
  await waitUntil(async () => (await statusOf(app, o.tokenOnboarding)) === 'REFUSED');
  const stored = (await app.store.get(o.tokenOnboarding))!;
  assert.equal(stored.status, 'REFUSED');
  assert.deepEqual(
    stored.history.map((h) => h.status),
    ['IN_PROCESS', 'REFUSED'],
  );
  await app.close();
});

test('SSE: retry hint, current state first, one event per change, ends after terminal', async (t) => {
  const { app } = testCompanion({ sse: { keepAliveMs: 50, retryMs: 1234 } });
  t.after(() => app.close());
  const o = await created(app, inReview());
  const res = await app.request(`/v1/onboardings/${o.tokenOnboarding}/events`, { headers: auth(o.accessKey) });
  assert.equal(res.status, 200);
  assert.match(res.headers.get('content-type')!, /^text\/event-stream/);
  // Every read below has a deadline: a stream that only sends keep-alives fails here, never hangs.
  const sse = sseReader(res.body!);
  await sse.until(/event: status\ndata: [^\n]*\n\n/);
  assert.match(
    sse.text,
    /^retry: 1234\n\nevent: status\ndata: [^\n]*IN_PROCESS[^\n]*\n\n/,
    'the hint, then the current state, before anything else',
  );
  await sse.until(/: keep-alive/);
  assert.equal(app.openStreams(), 1);
  await stack.sandbox.decide(o.tokenOnboarding, 'APPROVED');
  await webhook(app, { tokenOnboarding: o.tokenOnboarding, status: 'IN_PROCESS' });
  await webhook(app, { tokenOnboarding: o.tokenOnboarding, status: 'APPROVED' });
  await webhook(app, { tokenOnboarding: o.tokenOnboarding, status: 'APPROVED' });
  await sse.toEnd();
  const events = sse.events<{ status: string; tokenOnboarding: string }>();
  assert.deepEqual(
    events.map((e) => e.status),
    ['IN_PROCESS', 'APPROVED'],
  );
  assert.equal(events[1]!.tokenOnboarding, o.tokenOnboarding);
  await eventually(() => app.openStreams() === 0, 'the ended stream is still counted as open');
  await app.close();
});

test('SSE of a finished onboarding sends the state once and ends; close() ends open streams', async (t) => {
  const { app } = testCompanion();
  t.after(() => app.close());
  const done = await created(app, inReview());
  await stack.sandbox.decide(done.tokenOnboarding, 'REFUSED');
  await webhook(app, { tokenOnboarding: done.tokenOnboarding, status: 'REFUSED' });
  await waitUntil(async () => (await statusOf(app, done.tokenOnboarding)) === 'REFUSED');
  const finished = sseReader(
    (await app.request(`/v1/onboardings/${done.tokenOnboarding}/events`, { headers: auth(done.accessKey) })).body!,
  );
  const text = await finished.toEnd();
  assert.equal([...text.matchAll(/event: status/g)].length, 1);
  assert.match(text, /REFUSED/);

  const open = await created(app, createBody());
  const sse = sseReader((await app.request(`/v1/onboardings/${open.tokenOnboarding}/events`, { headers: auth(open.accessKey) })).body!);
  // The stream registers itself before it sends the current state.
  await sse.until(/IN_PROCESS/);
  assert.equal(app.openStreams(), 1);
  await app.close();
  const streamed = await sse.toEnd();
  assert.match(streamed, /\nretry: \d+\n\n$/, 'ended with a reconnection hint');
  assert.equal(app.openStreams(), 0);
});

test('report.pdf is 404 unless enabled; when enabled it streams a checked PDF, else 502', async () => {
  const off = testCompanion();
  const o1 = await created(off.app, createBody());
  const res404 = await off.app.request(`/v1/onboardings/${o1.tokenOnboarding}/report.pdf`, { headers: auth(o1.accessKey) });
  assert.equal(res404.status, 404);
  assert.equal(((await res404.json()) as { error: { code: string } }).error.code, 'not_found');
  await off.app.close();

  const on = testCompanion({ reportPdf: true });
  const o = await created(on.app, createBody());
  const pdf = await on.app.request(`/v1/onboardings/${o.tokenOnboarding}/report.pdf`, { headers: auth(o.accessKey) });
  assert.equal(pdf.status, 200);
  assert.equal(pdf.headers.get('content-type'), 'application/pdf');
  assert.match(new TextDecoder().decode(await pdf.arrayBuffer()), /^%PDF-1\.4[\s\S]*%%EOF\n$/);
  assert.equal((await on.app.request(`/v1/onboardings/${o.tokenOnboarding}/report.pdf`, { headers: auth('nope') })).status, 404);
  // The upstream's in-body failure on the PDF route: HTTP 200, but JSON, not a PDF.
  stack.sandbox.setFaults({ force500: true });
  try {
    const bad = await on.app.request(`/v1/onboardings/${o.tokenOnboarding}/report.pdf`, { headers: auth(o.accessKey) });
    assert.equal(bad.status, 502);
    assert.equal(((await bad.json()) as { error: { code: string } }).error.code, 'upstream_error');
  } finally {
    stack.sandbox.resetFaults();
  }
  await on.app.close();

  // A real HTTP 500 on the PDF route is something only the fake upstream answers.
  const failing = fakeUpstreamCompanion(up, { reportPdf: true });
  const f = await created(failing.app, createBody());
  up.override('/api/history-onboarding-report/', () => ({ status: 500, json: { status: { code: 500, message: 'x' } } }));
  try {
    assert.equal(
      (await failing.app.request(`/v1/onboardings/${f.tokenOnboarding}/report.pdf`, { headers: auth(f.accessKey) })).status,
      502,
    );
  } finally {
    up.override('/api/history-onboarding-report/', undefined);
    await failing.app.close();
  }
});
