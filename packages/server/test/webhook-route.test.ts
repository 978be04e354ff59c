/**
 * `POST /v1/webhooks` branch by branch (docs/page-api.md#upstream-webhooks): what is stored, what
 * is answered, and the one log line that tells an operator which branch a message took, since the
 * upstream never resends and the log is all that is left of a message not applied. An
 * onboarding's status in a webhook is only a hint: what is stored is what the upstream's report
 * (the fake upstream's, set by each test) says.
 */
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { createCompanion, createJsonLogger, MemoryStore, type CompanionApp } from '@onboarding-kit/server';
import { webhook, WEBHOOK_KEY } from './helpers/companion.js';
import { FAKE_CLIENT, FAKE_SECRET, startFakeUpstream, type FakeUpstream } from './helpers/fake-upstream.js';
import { until } from './helpers/notify-receiver.js';

let up: FakeUpstream;
before(async () => {
  up = await startFakeUpstream();
});
after(() => up.close());

interface LogLine {
  level: string;
  msg: string;
  [field: string]: unknown;
}

function companion(): { app: CompanionApp; store: MemoryStore; logs: LogLine[] } {
  const logs: LogLine[] = [];
  const store = new MemoryStore();
  const app = createCompanion({
    baseUrl: up.url,
    client: FAKE_CLIENT,
    secret: FAKE_SECRET,
    upstream: { retryDelayMs: 5 },
    webhookKey: WEBHOOK_KEY,
    store,
    logger: createJsonLogger({ sink: (line) => logs.push(JSON.parse(line) as LogLine), level: 'debug' }),
    rateLimit: 0,
    poll: { firstDelayMs: 60_000 },
    resumePolling: false,
  });
  return { app, store, logs };
}

/** The route's own log lines (the request log's are not about the branch). */
const branchLogs = (logs: LogLine[]) => logs.filter((l) => l.msg.startsWith('webhook'));

async function seed(store: MemoryStore, tokenOnboarding: string, externalId?: string) {
  await store.create({
    tokenOnboarding,
    status: 'IN_PROCESS',
    createdAt: new Date().toISOString(),
    accessKeyHash: 'x'.repeat(64),
    ...(externalId && { externalId }),
  });
}

async function answer(res: Response) {
  return { status: res.status, body: (await res.json()) as unknown };
}

test('a wrong key is refused before the body is read, and logged as a refusal', async () => {
  const { app, logs } = companion();
  const res = await app.request('/v1/webhooks', { method: 'POST', headers: { 'id-service-token': 'wrong' }, body: 'not even json' });
  assert.deepEqual(await answer(res), {
    status: 401,
    body: { error: { code: 'unauthorized', message: 'Missing or wrong id-service-token.' } },
  });
  assert.deepEqual(
    branchLogs(logs).map((l) => [l.level, l.msg]),
    [['warn', 'webhook refused: missing or wrong id-service-token']],
  );
  await app.close();
});

/** The route's log lines about one token, once `count` of them are there (the report is read after the answer). */
async function branchLogsOf(logs: LogLine[], token: string, count: number) {
  const of = () => branchLogs(logs).filter((l) => l.tokenOnboarding === token);
  await until(() => of().length >= count, `${count} webhook log lines for ${token}`);
  return of();
}

test("a webhook is answered at once, the upstream's report is read and applied with its externalId; the log says it was confirmed", async () => {
  const { app, store, logs } = companion();
  await seed(store, 't-apply');
  up.reportStatus.set('t-apply', { status: 'APPROVED', externalId: 'ext-upstream' });
  assert.deepEqual(
    await answer(
      await webhook(app, { tokenOnboarding: 't-apply', status: 'APPROVED', externalId: 'ext-forged', fields: {}, services: [] }),
    ),
    { status: 200, body: { received: true } },
  );
  assert.deepEqual(
    (await branchLogsOf(logs, 't-apply', 2)).map((l) => [l.level, l.msg, l.status]),
    [
      ['info', 'webhook acknowledged: reading the report from the upstream', 'APPROVED'],
      ['info', 'webhook confirmed by the upstream', 'APPROVED'],
    ],
  );
  const record = (await store.get('t-apply'))!;
  assert.equal(record.status, 'APPROVED');
  assert.equal(record.externalId, 'ext-upstream', "the upstream's externalId, never the webhook's");
  assert.deepEqual(record.history.at(-1), { status: 'APPROVED', at: record.updatedAt, source: 'webhook' });
  assert.equal(up.calls.filter((c) => c.path === '/api/onboarding/report/t-apply').length, 1);
  await app.close();
});

test('a webhook the upstream contradicts changes nothing and is logged at warn with both statuses', async () => {
  const { app, store, logs } = companion();
  await seed(store, 't-forged');
  // The upstream has not decided yet.
  up.reportStatus.set('t-forged', { status: 'IN_PROCESS' });
  assert.equal((await webhook(app, { tokenOnboarding: 't-forged', status: 'REFUSED', externalId: 'ext-x' })).status, 200);
  assert.deepEqual(
    (await branchLogsOf(logs, 't-forged', 2)).map((l) => [l.level, l.msg, l.status, l.upstream]),
    [
      ['info', 'webhook acknowledged: reading the report from the upstream', 'REFUSED', undefined],
      ['warn', 'webhook disagrees with the upstream, not applied', 'REFUSED', 'IN_PROCESS'],
    ],
  );
  const held = (await store.get('t-forged'))!;
  assert.equal(held.status, 'IN_PROCESS');
  assert.equal('externalId' in held, false);
  // The upstream decides otherwise: its verdict is what a later webhook brings.
  up.reportStatus.set('t-forged', { status: 'APPROVED' });
  await webhook(app, { tokenOnboarding: 't-forged', status: 'REFUSED' });
  await branchLogsOf(logs, 't-forged', 4);
  assert.equal((await store.get('t-forged'))!.status, 'APPROVED');
  await app.close();
});

test("a report the upstream fails to give leaves the onboarding as it was: the webhook's status is never applied", async () => {
  const { app, store, logs } = companion();
  await seed(store, 't-down');
  up.override('/api/onboarding/report/t-down', () => ({ status: 503, raw: 'busy' }));
  try {
    assert.equal((await webhook(app, { tokenOnboarding: 't-down', status: 'REFUSED' })).status, 200);
    await until(
      () => logs.some((l) => l.msg === 'report read failed; polling brings the outcome' && l.tokenOnboarding === 't-down'),
      'the failed read logged',
    );
    assert.equal((await store.get('t-down'))!.status, 'IN_PROCESS');
    assert.deepEqual(
      (await branchLogsOf(logs, 't-down', 1)).map((l) => l.msg),
      ['webhook acknowledged: reading the report from the upstream'],
    );
  } finally {
    up.override('/api/onboarding/report/t-down', undefined);
  }
  await app.close();
});

test('a repeat is acknowledged as no change; a decided onboarding is never moved, a webhook that disagrees with it is logged at warn', async () => {
  const { app, store, logs } = companion();
  await seed(store, 't-repeat');
  up.reportStatus.set('t-repeat', { status: 'REFUSED' });
  await webhook(app, { tokenOnboarding: 't-repeat', status: 'REFUSED' });
  await branchLogsOf(logs, 't-repeat', 2);
  assert.equal('externalId' in (await store.get('t-repeat'))!, false);
  for (const status of ['REFUSED', 'APPROVED'])
    assert.deepEqual(await answer(await webhook(app, { tokenOnboarding: 't-repeat', status })), { status: 200, body: { received: true } });
  assert.equal((await store.get('t-repeat'))!.status, 'REFUSED');
  assert.deepEqual(
    branchLogs(logs).map((l) => [l.level, l.msg, l.status, l.current]),
    [
      ['info', 'webhook acknowledged: reading the report from the upstream', 'REFUSED', undefined],
      ['info', 'webhook confirmed by the upstream', 'REFUSED', undefined],
      ['info', 'webhook acknowledged: no change', 'REFUSED', 'REFUSED'],
      ['warn', 'webhook disagrees with the decided status, not applied', 'APPROVED', 'REFUSED'],
    ],
  );
  // Only the first webhook read the report: a decided onboarding costs the upstream nothing.
  assert.equal(up.calls.filter((c) => c.path === '/api/onboarding/report/t-repeat').length, 1);
  await app.close();
});

test('an unknown onboarding is acknowledged and ignored, and logged so', async () => {
  const { app, store, logs } = companion();
  assert.deepEqual(await answer(await webhook(app, { tokenOnboarding: 't-nobody', status: 'APPROVED' })), {
    status: 200,
    body: { received: true },
  });
  assert.equal(await store.get('t-nobody'), null);
  assert.deepEqual(
    branchLogs(logs).map((l) => [l.msg, l.tokenOnboarding, l.status]),
    [['webhook acknowledged: unknown onboarding, ignored', 't-nobody', 'APPROVED']],
  );
  await app.close();
});

test('a standalone query is acknowledged without touching any onboarding, logged with its outcome', async () => {
  const { app, store, logs } = companion();
  await seed(store, 't-query');
  const envelopes = [
    { result: { cpf: '52998224725' }, status: { code: 200, message: 'Success' }, externalId: 'q-1' },
    // A token without a status the contract knows names nothing to update either.
    { result: {}, status: { code: 500, message: 'Falha' }, tokenOnboarding: 't-query', externalId: 'q-2' },
  ];
  for (const envelope of envelopes) assert.deepEqual(await answer(await webhook(app, envelope)), { status: 200, body: { received: true } });
  assert.equal((await store.get('t-query'))!.status, 'IN_PROCESS');
  assert.deepEqual(
    branchLogs(logs).map((l) => [l.msg, l.kind, l.outcome, l.externalId]),
    [
      ['webhook acknowledged: standalone query', 'query', 'success', 'q-1'],
      ['webhook acknowledged: standalone query', 'query', 'error', 'q-2'],
    ],
  );
  await app.close();
});

test('a report with a status the contract does not know is acknowledged, not applied, and logged bounded', async () => {
  const { app, store, logs } = companion();
  await seed(store, 't-odd');
  assert.deepEqual(await answer(await webhook(app, { tokenOnboarding: 't-odd', status: 'UNDER_REVIEW' })), {
    status: 200,
    body: { received: true },
  });
  assert.equal((await store.get('t-odd'))!.status, 'IN_PROCESS');
  const long = { tokenOnboarding: `t-${'a'.repeat(300)}`, status: `S${'X'.repeat(100)}` };
  assert.equal((await webhook(app, long)).status, 200);
  assert.deepEqual(
    branchLogs(logs).map((l) => [l.level, l.msg, l.tokenOnboarding, l.status]),
    [
      ['warn', 'webhook acknowledged: a status the contract does not know, not applied', 't-odd', 'UNDER_REVIEW'],
      [
        'warn',
        'webhook acknowledged: a status the contract does not know, not applied',
        long.tokenOnboarding.slice(0, 128),
        long.status.slice(0, 40),
      ],
    ],
  );
  await app.close();
});

test('anything else is 400 invalid_request, said in words, and nothing is stored', async () => {
  const { app, store, logs } = companion();
  await seed(store, 't-bad');
  const bodies: unknown[] = [
    { hello: 1 },
    [{ tokenOnboarding: 't-bad', status: 'APPROVED' }],
    'APPROVED',
    42,
    null,
    { tokenOnboarding: '', status: 'APPROVED' },
    { tokenOnboarding: 7, status: 'APPROVED' },
    { tokenOnboarding: 't-bad', status: 7 },
    { tokenOnboarding: 't-bad' },
  ];
  for (const body of bodies) {
    assert.deepEqual(
      await answer(await webhook(app, JSON.stringify(body))),
      {
        status: 400,
        body: { error: { code: 'invalid_request', message: 'The webhook body is neither an onboarding report nor a service envelope.' } },
      },
      JSON.stringify(body),
    );
  }
  assert.equal((await store.get('t-bad'))!.status, 'IN_PROCESS');
  assert.deepEqual(branchLogs(logs), []);
  await app.close();
});

test('the body limit names the webhook body; its default is 2 MiB', async () => {
  const { app } = companion();
  const padded = (n: number) => JSON.stringify({ tokenOnboarding: 't', status: 'APPROVED', padding: 'x'.repeat(n) });
  const fits = padded(2 * 1024 * 1024 - padded(0).length);
  assert.equal(fits.length, 2 * 1024 * 1024);
  assert.equal((await webhook(app, fits)).status, 200);
  assert.deepEqual(await answer(await webhook(app, `${fits} `)), {
    status: 413,
    body: { error: { code: 'payload_too_large', message: `The webhook body is larger than ${2 * 1024 * 1024} bytes.` } },
  });
  await app.close();
});

test('the rules: a right key passes until its address is past the limit; the upstream decides whether a hint was right', async () => {
  const { webhookAuthVerdict, hintCheck } = await import('../src/webhooks/webhook-rules.js');
  const limit = 3;
  // A right key only read its address's window (never counted, never "allowed").
  assert.equal(webhookAuthVerdict(true, { allowed: false, count: 0 }, limit), 'pass');
  assert.equal(webhookAuthVerdict(true, { allowed: false, count: 2 }, limit), 'pass');
  assert.equal(webhookAuthVerdict(true, { allowed: false, count: 3 }, limit), 'limited');
  // A wrong key is counted: 401 while it fits, 429 once refused.
  assert.equal(webhookAuthVerdict(false, { allowed: true, count: 3 }, limit), 'unauthorized');
  assert.equal(webhookAuthVerdict(false, { allowed: false, count: 3 }, limit), 'limited');
  assert.equal(hintCheck('APPROVED', 'APPROVED'), 'confirmed');
  assert.equal(hintCheck('REFUSED', 'APPROVED'), 'disagrees');
  assert.equal(hintCheck('REFUSED', 'IN_PROCESS'), 'disagrees');
  assert.equal(hintCheck('REFUSED', null), 'unread');
});
