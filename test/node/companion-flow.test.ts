/** Companion + sandbox over real sockets: outcomes, relay, tokens, webhooks, polling. */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { maxCreateBodyBytes } from '@onboarding-kit/contract';
import { body, create, createOk, IT_WEBHOOK_KEY, openEvents, startStack, upstreamRequests, waitUntil } from './helpers/stack.js';

const auth = (key: string) => ({ authorization: `Bearer ${key}` });

test('each sandbox outcome reaches the page through the event stream (webhooks)', async () => {
  const stack = await startStack();
  try {
    const cases = [
      [{ cpf: '529.982.247-25' }, 'APPROVED'],
      [{ cpf: '111.444.777-35' }, 'REFUSED'],
      [{ cpf: '123.456.789-09' }, 'ERROR'],
      [{ cnpj: '11.222.333/0001-81' }, 'APPROVED'],
      [{ cnpj: '12.345.678/0001-95' }, 'REFUSED'],
    ] as const;
    for (const [taxId, outcome] of cases) {
      const o = await createOk(stack.url, body(taxId));
      assert.equal(o.status, 'IN_PROCESS');
      const stream = await openEvents(stack.url, o.tokenOnboarding, o.accessKey);
      const events = await stream.untilEnd();
      assert.deepEqual(
        events.map((e) => e.status),
        ['IN_PROCESS', outcome],
        JSON.stringify(taxId),
      );
      if (outcome === 'ERROR') assert.match(events[1]!.externalId ?? '', /.+/, 'ERROR carries externalId');
      const record = (await stack.app.store.get(o.tokenOnboarding))!;
      assert.equal(record.history.at(-1)!.source, 'webhook');
      const state = (await (await fetch(`${stack.url}/v1/onboardings/${o.tokenOnboarding}`, { headers: auth(o.accessKey) })).json()) as {
        status: string;
      };
      assert.equal(state.status, outcome);
    }
  } finally {
    await stack.close();
  }
});

test('a manual decision reaches every open stream, each stream then ends', async () => {
  // Polling is off, so only the webhook can bring the decision; how fast it arrives is for npm run bench.
  const stack = await startStack({ companion: { poll: { firstDelayMs: 60 * 60_000 } } });
  try {
    const o = await createOk(stack.url, body({ cpf: '987.654.321-00' }));
    const streams = await Promise.all([1, 2, 3].map(() => openEvents(stack.url, o.tokenOnboarding, o.accessKey)));
    for (const s of streams) await s.waitFor(1);
    await stack.sandbox.decide(o.tokenOnboarding, 'REFUSED');
    for (const s of streams) {
      const events = await s.untilEnd();
      assert.deepEqual(
        events.map((e) => e.status),
        ['IN_PROCESS', 'REFUSED'],
      );
    }
    assert.equal((await stack.app.store.get(o.tokenOnboarding))!.history.at(-1)!.source, 'webhook');
  } finally {
    await stack.close();
  }
});

test('the access token is reused across creations and reads', async () => {
  const stack = await startStack({ companion: { poll: { firstDelayMs: 50, intervalMs: 100 } } });
  try {
    const tokens = await Promise.all([1, 2, 3, 4, 5].map(() => createOk(stack.url)));
    await Promise.all(tokens.map((o) => openEvents(stack.url, o.tokenOnboarding, o.accessKey).then((s) => s.untilEnd())));
    await stack.app.upstream.customers('52998224725');
    const stats = stack.sandbox.stats();
    assert.equal(stats.tokensIssued, 1);
    assert.equal(stats.requests['POST /api/token-generate'], 1);
    assert.equal(stats.requests['POST /api/token-history-onboarding'], 5);
  } finally {
    await stack.close();
  }
});

test('a 401 storm (expired tokens, 20 concurrent calls) renews exactly once', async () => {
  const stack = await startStack();
  try {
    assert.equal((await stack.app.upstream.query('SERVICE_PEP', { cpf: '52998224725' })).kind, 'success');
    assert.equal(stack.sandbox.stats().tokensIssued, 1);
    stack.sandbox.expireTokens();
    const outcomes = await Promise.all(Array.from({ length: 20 }, () => stack.app.upstream.query('SERVICE_PEP', { cpf: '52998224725' })));
    assert.ok(
      outcomes.every((o) => o.kind === 'success'),
      JSON.stringify(outcomes.map((o) => o.kind)),
    );
    assert.equal(stack.sandbox.stats().tokensIssued, 2);
    assert.equal(stack.sandbox.stats().requests['POST /api/service-api'], 41);
    // Creations through the companion after another expiry: one renewal, no failure.
    stack.sandbox.expireTokens();
    const created = await Promise.all(Array.from({ length: 5 }, () => create(stack.url)));
    assert.deepEqual(
      created.map((r) => r.status),
      [201, 201, 201, 201, 201],
    );
    assert.equal(stack.sandbox.stats().tokensIssued, 3);
  } finally {
    await stack.close();
  }
});

test('the typed client returns classified, stripped outcomes from the sandbox', async () => {
  const stack = await startStack();
  try {
    const pep = await stack.app.upstream.query('SERVICE_PEP', { cpf: '52998224725' });
    assert.equal(pep.kind, 'success');
    const text = JSON.stringify(pep);
    for (const field of ['fieldsOutput', 'required', 'enabled', 'valid', 'callService', 'nextStep', 'services', 'null'])
      assert.ok(!text.includes(`"${field}"`) && !text.includes(':null'), field);
    const noBalance = await stack.app.upstream.query('SERVICE_PEP', { cpf: '39053344705' });
    assert.equal(noBalance.kind, 'no-data');
    assert.ok(noBalance.message);
  } finally {
    await stack.close();
  }
});

test('every bad input gets its status and code, and nothing reaches the upstream', async () => {
  const stack = await startStack({ companion: { imageMaxBytes: 2048 } });
  try {
    const before = upstreamRequests(stack.sandbox);
    const big = 'iVBORw0KGgo' + 'A'.repeat(4000) + '=';
    const cases: [Promise<Response>, number, string][] = [
      [
        fetch(`${stack.url}/v1/onboardings`, { method: 'POST', headers: { 'content-type': 'text/plain' }, body: '{}' }),
        415,
        'unsupported_media_type',
      ],
      [create(stack.url, '{"cpf":'), 400, 'invalid_json'],
      [create(stack.url, body({ cpf: '111.111.111-11' })), 400, 'invalid_cpf'],
      [create(stack.url, body({ cnpj: '00.000.000/0000-01' })), 400, 'invalid_cnpj'],
      [create(stack.url, { images: {} }), 400, 'missing_tax_id'],
      [
        create(stack.url, body(undefined, { images: { documentFront: 'R0lGODlhAQABAAAAACw=', selfie: 'R0lGODlhAQABAAAAACw=' } })),
        400,
        'invalid_image',
      ],
      [create(stack.url, body(undefined, { images: { selfie: 'iVBORw0KGgoAAAANSUhEUg==' } })), 400, 'missing_image'],
      [create(stack.url, body(undefined, { images: { documentFront: big, selfie: big } })), 413, 'image_too_large'],
      [create(stack.url, body(undefined, { pad: 'x'.repeat(maxCreateBodyBytes(2048) + 1) })), 413, 'payload_too_large'],
    ];
    for (const [pending, status, code] of cases) {
      const res = await pending;
      assert.equal(res.status, status, code);
      assert.equal(((await res.json()) as { error: { code: string } }).error.code, code);
    }
    assert.equal(upstreamRequests(stack.sandbox), before, 'the sandbox saw no request');
  } finally {
    await stack.close();
  }
});

test("webhook key over the wire: missing or wrong 401 and nothing stored, right 200 and the upstream's report applied", async () => {
  const stack = await startStack({ companion: { poll: { firstDelayMs: 60_000 } } });
  try {
    const o = await createOk(stack.url, body({ cpf: '987.654.321-00' }));
    const send = (key?: string) =>
      fetch(`${stack.url}/v1/webhooks`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', ...(key !== undefined && { 'id-service-token': key }) },
        body: JSON.stringify({ tokenOnboarding: o.tokenOnboarding, status: 'APPROVED', fields: {}, services: [] }),
      });
    assert.equal((await send()).status, 401);
    assert.equal((await send('sandbox-webhook-key')).status, 401);
    assert.equal((await send(`${IT_WEBHOOK_KEY}x`)).status, 401);
    assert.equal((await stack.app.store.get(o.tokenOnboarding))!.status, 'IN_PROCESS');
    // Before the upstream decides, even the right key changes nothing: the report still says IN_PROCESS.
    assert.equal((await send(IT_WEBHOOK_KEY)).status, 200);
    await new Promise((r) => setTimeout(r, 200));
    assert.equal((await stack.app.store.get(o.tokenOnboarding))!.status, 'IN_PROCESS');
    // The upstream decides; its own webhook is lost, this one brings the decision.
    stack.sandbox.setFaults({ dropWebhooks: true });
    await stack.sandbox.decide(o.tokenOnboarding, 'APPROVED');
    assert.equal((await send(IT_WEBHOOK_KEY)).status, 200);
    await waitUntil(async () => (await stack.app.store.get(o.tokenOnboarding))!.status === 'APPROVED');
    // A repeat is acknowledged and changes nothing; late or out-of-order news never moves a terminal status.
    assert.equal((await send(IT_WEBHOOK_KEY)).status, 200);
    for (const status of ['IN_PROCESS', 'REFUSED', 'ERROR']) {
      const late = await fetch(`${stack.url}/v1/webhooks`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', 'id-service-token': IT_WEBHOOK_KEY },
        body: JSON.stringify({ tokenOnboarding: o.tokenOnboarding, status, fields: {}, services: [] }),
      });
      assert.equal(late.status, 200);
    }
    const record = (await stack.app.store.get(o.tokenOnboarding))!;
    assert.equal(record.status, 'APPROVED');
    assert.deepEqual(
      record.history.map((h) => h.status),
      ['IN_PROCESS', 'APPROVED'],
    );
    const bad = await fetch(`${stack.url}/v1/webhooks`, { method: 'POST', headers: { 'id-service-token': IT_WEBHOOK_KEY }, body: 'nope' });
    assert.equal(bad.status, 400);
  } finally {
    await stack.close();
  }
});

test('duplicated webhooks are tolerated: one change, one event', async () => {
  const stack = await startStack();
  try {
    stack.sandbox.setFaults({ duplicateWebhooks: true });
    const o = await createOk(stack.url);
    const events = await (await openEvents(stack.url, o.tokenOnboarding, o.accessKey)).untilEnd();
    assert.deepEqual(
      events.map((e) => e.status),
      ['IN_PROCESS', 'APPROVED'],
    );
    await waitUntil(() => stack.sandbox.stats().webhooksSent >= 2);
    const record = (await stack.app.store.get(o.tokenOnboarding))!;
    assert.deepEqual(
      record.history.map((h) => h.status),
      ['IN_PROCESS', 'APPROVED'],
    );
  } finally {
    await stack.close();
  }
});

test('polling fallback: with webhooks dropped the outcome still reaches the page', async () => {
  const stack = await startStack({ companion: { poll: { firstDelayMs: 100, intervalMs: 200 } } });
  try {
    stack.sandbox.setFaults({ dropWebhooks: true });
    const o = await createOk(stack.url, body({ cpf: '123.456.789-09' }));
    const events = await (await openEvents(stack.url, o.tokenOnboarding, o.accessKey)).untilEnd();
    assert.deepEqual(
      events.map((e) => e.status),
      ['IN_PROCESS', 'ERROR'],
    );
    assert.ok(events[1]!.externalId, 'ERROR from the report carries externalId');
    const record = (await stack.app.store.get(o.tokenOnboarding))!;
    assert.equal(record.history.at(-1)!.source, 'poll');
    assert.equal(stack.sandbox.stats().webhooksSent, 0);
    const polls = stack.sandbox.stats().requests['GET /api/onboarding/report']!;
    await new Promise((r) => setTimeout(r, 500));
    assert.equal(stack.sandbox.stats().requests['GET /api/onboarding/report'], polls, 'polling stopped at the outcome');
  } finally {
    await stack.close();
  }
});

test('upstream faults: force500 -> 502, latency beyond the timeout -> 504, refused creation -> 400, errorRate classified', async () => {
  // Seconds of margin both ways: every ordinary call beats the 3 s limit, the delayed one misses it by 5 s.
  let creationAttempts = 0;
  const counting: typeof fetch = (input, init) => {
    if (String(input).endsWith('/api/token-history-onboarding')) creationAttempts++;
    return fetch(input, init);
  };
  const stack = await startStack({ companion: { upstream: { fetch: counting, timeoutMs: 3_000, retryDelayMs: 10 } } });
  try {
    const expectError = async (res: Response, status: number, code: string) => {
      assert.equal(res.status, status, code);
      assert.equal(((await res.json()) as { error: { code: string } }).error.code, code);
    };
    stack.sandbox.setFaults({ force500: true });
    await expectError(await create(stack.url), 502, 'upstream_error');
    stack.sandbox.setFaults({ force500: false, latencyMs: 8_000 });
    const attemptsBefore = creationAttempts;
    await expectError(await create(stack.url), 504, 'upstream_timeout');
    assert.equal(creationAttempts - attemptsBefore, 1, 'a timed-out creation is never repeated');
    stack.sandbox.resetFaults();
    await expectError(await create(stack.url, body({ cpf: '000.000.191-00' })), 400, 'upstream_refused');
    assert.equal((await create(stack.url)).status, 201, 'healthy again');

    stack.sandbox.setFaults({ errorRate: 0.5 });
    const outcomes = await Promise.all(Array.from({ length: 10 }, () => stack.app.upstream.query('SERVICE_PEP', { cpf: '52998224725' })));
    const kinds = new Set(outcomes.map((o) => o.kind));
    assert.ok(kinds.has('error') && kinds.has('success'), [...kinds].join());
    assert.ok(outcomes.filter((o) => o.kind === 'error').every((o) => !o.ok && o.retryable));
  } finally {
    await stack.close();
  }
});

test('wrong access key is answered byte-for-byte like an unknown token over the wire', async () => {
  const stack = await startStack({ companion: { allowedOrigins: ['https://shop.example'] } });
  try {
    const o = await createOk(stack.url);
    const get = async (token: string, key?: string) => {
      const res = await fetch(`${stack.url}/v1/onboardings/${token}`, {
        headers: { 'x-request-id': 'same-id', origin: 'https://shop.example', ...(key && auth(key)) },
      });
      return { status: res.status, headers: [...res.headers.entries()].filter(([k]) => k !== 'date'), body: await res.text() };
    };
    const unknown = await get('3f1c9a1e-1111-4222-8333-944455556666', o.accessKey);
    assert.equal(unknown.status, 404);
    assert.deepEqual(await get(o.tokenOnboarding), unknown);
    // A different last character (a fixed 'A' would be the real key whenever it already ends in A).
    const wrongKey = `${o.accessKey.slice(0, -1)}${o.accessKey.endsWith('A') ? 'B' : 'A'}`;
    assert.notEqual(wrongKey, o.accessKey);
    assert.deepEqual(await get(o.tokenOnboarding, wrongKey), unknown);
    assert.equal((await get(o.tokenOnboarding, o.accessKey)).status, 200);
  } finally {
    await stack.close();
  }
});

test('rate limit per client address over a real socket: 429 with Retry-After', async () => {
  const stack = await startStack({ companion: { rateLimit: 3 } });
  try {
    const answers = [];
    for (let i = 0; i < 4; i++) answers.push(await create(stack.url, '{}'));
    assert.deepEqual(
      answers.map((r) => r.status),
      [400, 400, 400, 429],
    );
    assert.ok(Number(answers[3]!.headers.get('retry-after')) > 0);
    assert.equal(((await answers[3]!.json()) as { error: { code: string } }).error.code, 'rate_limited');
  } finally {
    await stack.close();
  }
});

test('report.pdf through the sandbox when enabled', async () => {
  const stack = await startStack({ companion: { reportPdf: true } });
  try {
    const o = await createOk(stack.url);
    await (await openEvents(stack.url, o.tokenOnboarding, o.accessKey)).untilEnd();
    const res = await fetch(`${stack.url}/v1/onboardings/${o.tokenOnboarding}/report.pdf`, { headers: auth(o.accessKey) });
    assert.equal(res.status, 200);
    assert.equal(res.headers.get('content-type'), 'application/pdf');
    assert.equal(new TextDecoder().decode((await res.arrayBuffer()).slice(0, 5)), '%PDF-');
    stack.sandbox.setFaults({ force500: true });
    assert.equal((await fetch(`${stack.url}/v1/onboardings/${o.tokenOnboarding}/report.pdf`, { headers: auth(o.accessKey) })).status, 502);
  } finally {
    await stack.close();
  }
});

test('admin routes, when an admin key is set, read the real upstream through the same client', async () => {
  const adminKey = 'it-admin-key-0123456789abcdef';
  const stack = await startStack({ companion: { adminKey } });
  try {
    const o = await createOk(stack.url);
    await (await openEvents(stack.url, o.tokenOnboarding, o.accessKey)).untilEnd();
    const admin = { authorization: `Bearer ${adminKey}` };
    const report = await fetch(`${stack.url}/v1/admin/onboardings/${o.tokenOnboarding}`, { headers: admin });
    assert.equal(report.status, 200);
    assert.equal(((await report.json()) as { status: string }).status, 'APPROVED');
    const customers = await fetch(`${stack.url}/v1/admin/customers?documentKey=529.982.247-25`, { headers: admin });
    assert.equal(customers.status, 200);
    assert.ok(Array.isArray(await customers.json()));
    assert.equal(
      (await fetch(`${stack.url}/v1/admin/onboardings/${o.tokenOnboarding}`, { headers: auth(o.accessKey) })).status,
      401,
      'a page key is no admin key',
    );
    assert.equal(stack.sandbox.stats().tokensIssued, 1, 'one token for page and admin calls');
  } finally {
    await stack.close();
  }
});
