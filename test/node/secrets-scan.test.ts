/**
 * docs/upstream-api.md, rule 9, over a full flow: no client secret, access token, webhook key,
 * admin key, access key (outside the one creation answer that hands it out) or full CPF in any
 * response body or header the companion sends, nor in any log line it writes. The scan reads the
 * stack's own record of everything its socket served (event streams as sent, byte by byte), not
 * a set of answers the test picked.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { eventually } from '@onboarding-kit/testing/deadline';
import { body, IT_SECRET, IT_WEBHOOK_KEY, openEvents, startStack } from './helpers/stack.js';

const ADMIN_KEY = 'it-admin-key-5e4d3c2b1a09f8e7';

test('no secret, token, key or full CPF leaks into responses or logs across a full flow', async () => {
  const accessTokens: string[] = [];
  // Watch the upstream client's own traffic to learn every access token the sandbox issued.
  const spyFetch: typeof fetch = async (input, init) => {
    const res = await fetch(input, init);
    if (String(input).endsWith('/api/token-generate')) {
      const t = (await res
        .clone()
        .json()
        .catch(() => null)) as { access_token?: string } | null;
      if (t?.access_token) accessTokens.push(t.access_token);
    }
    return res;
  };
  // A 3 s limit that every ordinary call beats by seconds; the delayed call below misses it by 5 s.
  const stack = await startStack({
    companion: {
      reportPdf: true,
      adminKey: ADMIN_KEY,
      upstream: { fetch: spyFetch, timeoutMs: 3_000, retryDelayMs: 5 },
      poll: { firstDelayMs: 100, intervalMs: 150 },
    },
  });
  const accessKeys: string[] = [];
  let calls = 0;
  // `where` names the step for a reader; the scan itself reads the stack's record (stack.traffic).
  const call = async (_where: string, path: string, init: RequestInit = {}, handsOutKey = false) => {
    calls++;
    const res = await fetch(`${stack.url}${path}`, init);
    const text = await res.text();
    if (handsOutKey && res.status === 201) accessKeys.push((JSON.parse(text) as { accessKey: string }).accessKey);
    return { status: res.status, text };
  };
  const json = (b: unknown, h: Record<string, string> = {}) => ({
    method: 'POST',
    headers: { 'content-type': 'application/json', ...h },
    body: JSON.stringify(b),
  });
  try {
    const cpfs = ['529.982.247-25', '111.444.777-35', '123.456.789-09', '987.654.321-00'];
    const tokens: string[] = [];
    for (const cpf of cpfs) {
      const r = await call(`create ${cpf}`, '/v1/onboardings', json(body({ cpf })), true);
      assert.equal(r.status, 201);
      tokens.push((JSON.parse(r.text) as { tokenOnboarding: string }).tokenOnboarding);
    }
    // Reads, streams, wrong keys.
    for (const [i, token] of tokens.entries()) {
      await call('state', `/v1/onboardings/${token}`, { headers: { authorization: `Bearer ${accessKeys[i]}` } });
      await call('wrong key', `/v1/onboardings/${token}`, { headers: { authorization: `Bearer ${accessKeys[(i + 1) % tokens.length]}` } });
    }
    const events = await openEvents(stack.url, tokens[0]!, accessKeys[0]!);
    await events.untilEnd();
    await call('pdf', `/v1/onboardings/${tokens[0]}/report.pdf`, { headers: { authorization: `Bearer ${accessKeys[0]}` } });
    // Webhooks: wrong key, right key, garbage.
    await call(
      'webhook wrong key',
      '/v1/webhooks',
      json({ tokenOnboarding: tokens[3], status: 'APPROVED' }, { 'id-service-token': 'nope' }),
    );
    await call('webhook garbage', '/v1/webhooks', {
      method: 'POST',
      headers: { 'id-service-token': IT_WEBHOOK_KEY },
      body: `{"cpf":"52998224725",`,
    });
    // Token expiry and renewal, failures with externalId, timeouts, refused creation.
    stack.sandbox.expireTokens();
    await call('after expiry', '/v1/onboardings', json(body({ cpf: '529.982.247-25' })), true);
    stack.sandbox.setFaults({ force500: true });
    await call('force500', '/v1/onboardings', json(body({ cpf: '529.982.247-25' })));
    await call('force500 pdf', `/v1/onboardings/${tokens[0]}/report.pdf`, { headers: { authorization: `Bearer ${accessKeys[0]}` } });
    stack.sandbox.setFaults({ force500: false, latencyMs: 8_000 });
    assert.equal((await call('timeout', '/v1/onboardings', json(body({ cpf: '529.982.247-25' })))).status, 504);
    stack.sandbox.resetFaults();
    await call('refused', '/v1/onboardings', json(body({ cpf: '000.000.191-00' })));
    await call('invalid', '/v1/onboardings', json(body({ cpf: '529.982.247-24' })));
    await stack.sandbox.decide(tokens[3]!, 'ERROR');
    // The operator surface: a wrong key, and a report read with the right one.
    await call('admin wrong key', `/v1/admin/onboardings/${tokens[0]}`, { headers: { authorization: `Bearer ${accessKeys[0]}` } });
    assert.equal(
      (await call('admin report', `/v1/admin/onboardings/${tokens[0]}`, { headers: { authorization: `Bearer ${ADMIN_KEY}` } })).status,
      200,
    );
    await call('health', '/v1/health');
    await call('unknown', '/v1/nothing-here');
    // Every onboarding of the flow has its outcome (webhooks, polls and the manual ERROR logged).
    await eventually(
      async () => (await Promise.all(tokens.map((t) => stack.app.store.get(t)))).every((r) => r && r.status !== 'IN_PROCESS'),
      'the flow never finished',
    );

    assert.ok(accessTokens.length >= 2, 'the flow renewed the token at least once');
    assert.ok(stack.logs.length > 20, `logs captured: ${stack.logs.length}`);
    for (const line of stack.logs) JSON.parse(line);
    const forbidden: [string, string][] = [
      ['client secret', IT_SECRET],
      ['webhook key', IT_WEBHOOK_KEY],
      ['admin key', ADMIN_KEY],
      ...accessTokens.map((t, i) => [`access token ${i}`, t] as [string, string]),
      ...accessKeys.map((k, i) => [`access key ${i}`, k] as [string, string]),
      ...cpfs.flatMap(
        (c) =>
          [
            [`cpf ${c}`, c],
            [`cpf digits ${c}`, c.replace(/\D/g, '')],
          ] as [string, string][],
      ),
    ];
    // The socket's record holds every call of the test, the event stream as sent, and the sandbox's webhooks.
    const served = stack.traffic;
    assert.ok(served.length > calls, `the socket's record holds the flow (${served.length} exchanges for ${calls} calls and a stream)`);
    const stream = served.find((e) => e.url.endsWith(`/v1/onboardings/${tokens[0]}/events`));
    assert.ok(stream?.responseBody.includes('event: status'), 'the event stream was recorded as sent');
    assert.ok(
      served.some((e) => e.method === 'POST' && e.url.endsWith('/v1/webhooks') && e.status < 300),
      "the sandbox's webhooks were recorded",
    );
    const haystacks = [
      ...served.flatMap((e) => {
        // The one creation answer that hands a key out may hold that key, and nothing else may.
        const handedOut =
          e.method === 'POST' && new URL(e.url).pathname === '/v1/onboardings' && e.status === 201
            ? (JSON.parse(e.responseBody) as { accessKey: string }).accessKey
            : undefined;
        return [
          { where: `${e.method} ${e.url} -> ${e.status} headers`, text: e.responseHeaders },
          {
            where: `${e.method} ${e.url} -> ${e.status} body`,
            text: handedOut ? e.responseBody.replace(handedOut, '<the key it hands out>') : e.responseBody,
          },
        ];
      }),
      ...stack.logs.map((text, i) => ({ where: `log line ${i}`, text })),
    ];
    for (const { where, text } of haystacks) {
      for (const [name, value] of forbidden) assert.ok(!text.includes(value), `${name} found in ${where}: ${text.slice(0, 300)}`);
    }
    // The logs still say what happened, with masked tax ids.
    // Each creation is told on its request's line: the onboarding with its masked tax id.
    const creationLines = stack.logs
      .map((l) => JSON.parse(l) as Record<string, unknown>)
      .filter((l) => l.msg === 'request' && l.method === 'POST' && l.path === '/v1/onboardings' && l.status === 201);
    assert.ok(
      creationLines.some((l) => l.tokenOnboarding === tokens[0] && l.taxId === '529.***.***-25'),
      "the first creation's line names its onboarding and masked tax id",
    );
    assert.ok(stack.logs.some((l) => l.includes('webhook refused')));
    assert.ok(stack.logs.some((l) => l.includes('renewing the access token')));
  } finally {
    await stack.close();
  }
});
