import { test, describe } from 'node:test';
import assert from 'node:assert/strict';
import { parseWebhook } from '@onboarding-kit/contract';
import { SAMPLE_PNG_BASE64, TEST_IDENTITIES } from '../src/index.js';
import { ManualClock } from '@onboarding-kit/testing/manual-clock';
import {
  NOT_AN_IMAGE_BASE64,
  TRANSPORTS,
  assertXrefValid,
  waitForDecision,
  getToken,
  getWith,
  harness,
  postJson,
  sleep,
  webhookReceiver,
  type Json,
} from './helpers.js';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;
const PROCESSING_MS = 150;
const FAILED = { status: { code: 400, message: 'Failed to fetch information' } };
const file = (base64 = SAMPLE_PNG_BASE64, mime = 'image/png') => ({ documentFileType: 'OTHER', document: `data:${mime};base64,${base64}` });

async function create(f: Parameters<typeof postJson>[0], token: string, body: Json): Promise<Json> {
  const res = await postJson(f, '/api/token-history-onboarding', body, token);
  assert.equal(res.status, 200, JSON.stringify(await res.clone().json()));
  return (await res.json()) as Json;
}

for (const transport of TRANSPORTS) {
  describe(`onboarding over ${transport}`, () => {
    test('each test identity is decided after processingMs, with one webhook carrying id-service-token', async () => {
      const hook = await webhookReceiver();
      const clock = new ManualClock();
      const h = await harness(transport, { processingMs: PROCESSING_MS, webhookUrl: hook.url, webhookKey: 'hook-key-1', clock });
      try {
        const token = await getToken(h.fetch);
        const cases: [Json, string][] = [
          [{ cpf: TEST_IDENTITIES.cpfApproved, name: 'Maria Silva', documentFiles: [file(), file()] }, 'APPROVED'],
          [{ cpf: TEST_IDENTITIES.cpfRefused, documentFiles: [file()] }, 'REFUSED'],
          [{ cpf: TEST_IDENTITIES.cpfError, documentFiles: [file()] }, 'ERROR'],
          [{ cnpj: TEST_IDENTITIES.cnpjApproved, documentFiles: [file()] }, 'APPROVED'],
          [{ cnpj: TEST_IDENTITIES.cnpjRefused }, 'REFUSED'],
          [{ document: TEST_IDENTITIES.cnpjError }, 'ERROR'],
          [{ document: '39053344705', cpf: '390.533.447-05' }, 'APPROVED'], // any other valid CPF
          [{ cnpj: TEST_IDENTITIES.cnpjRefused, cpf: TEST_IDENTITIES.cpfApproved }, 'REFUSED'], // with a cnpj, the company's onboarding
          [{ cpf: TEST_IDENTITIES.cpfApproved, documentFiles: [file(NOT_AN_IMAGE_BASE64, 'image/jpeg')] }, 'REFUSED'], // unreadable image
        ];
        const expected = new Map<string, string>();
        const report = async (tokenOnboarding: string) =>
          (await (await getWith(h.fetch, `/api/onboarding/report/${tokenOnboarding}`, token)).json()) as Json;
        for (const [body, outcome] of cases) {
          const created = await create(h.fetch, token, body);
          assert.deepEqual(Object.keys(created).sort(), ['dateHourProcess', 'tokenOnboarding']);
          assert.match(created.tokenOnboarding, UUID);
          assert.match(created.dateHourProcess, /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d+)?Z$/);
          assert.equal((await report(created.tokenOnboarding)).status, 'IN_PROCESS');
          expected.set(created.tokenOnboarding, outcome);
        }
        // The sandbox's clock moves only here: one millisecond short of processingMs nothing is decided.
        await clock.advance(PROCESSING_MS - 1);
        for (const t of expected.keys()) assert.equal((await report(t)).status, 'IN_PROCESS', 'not decided before processingMs');
        assert.equal(hook.received.length, 0);
        await clock.advance(1);
        for (const [t, outcome] of expected) assert.equal((await report(t)).status, outcome, 'decided at processingMs');
        const deliveries = await hook.waitFor(cases.length);
        await sleep(100); // nothing more may come: exactly one webhook per change
        assert.equal(hook.received.length, cases.length);
        for (const d of deliveries) {
          assert.equal(d.headers['id-service-token'], 'hook-key-1');
          assert.match(String(d.headers['content-type']), /application\/json/);
          const outcome = expected.get(d.body.tokenOnboarding);
          assert.equal(d.body.status, outcome);
          for (const member of ['tokenOnboarding', 'status', 'fields', 'services']) assert.ok(member in d.body, member);
          if (outcome === 'ERROR') assert.match(d.body.externalId, UUID);
          else assert.equal('externalId' in d.body, false);
          assert.equal(parseWebhook(d.body)?.kind, 'onboarding');
          // The report endpoint now says the same as the webhook.
          const report = (await (await getWith(h.fetch, `/api/onboarding/report/${d.body.tokenOnboarding}`, token)).json()) as Json;
          assert.deepEqual(report, d.body);
          assert.equal(JSON.stringify(d.body).includes('52998224725'), false, 'the report masks the document');
        }
        assert.equal(h.sandbox.stats().webhooksSent, cases.length);
      } finally {
        await h.close();
        await hook.close();
      }
    });

    test('manual review stays IN_PROCESS until decided (decide() and the control API), webhook immediately', async () => {
      const hook = await webhookReceiver();
      const h = await harness(transport, { processingMs: 30, webhookUrl: hook.url, controlApi: true });
      try {
        const token = await getToken(h.fetch);
        const a = await create(h.fetch, token, { cpf: TEST_IDENTITIES.cpfManualReview, documentFiles: [file()] });
        const b = await create(h.fetch, token, { cpf: TEST_IDENTITIES.cpfManualReview });
        await sleep(120);
        assert.equal(hook.received.length, 0);
        for (const t of [a, b])
          assert.equal(
            ((await (await getWith(h.fetch, `/api/onboarding/report/${t.tokenOnboarding}`, token)).json()) as Json).status,
            'IN_PROCESS',
          );

        await h.sandbox.decide(a.tokenOnboarding, 'REFUSED');
        assert.equal(hook.received.length, 1, 'decide() resolves after the webhook went out');
        assert.equal(hook.received[0]!.body.status, 'REFUSED');
        assert.equal(hook.received[0]!.headers['id-service-token'], 'sandbox-webhook-key');

        const decided = await postJson(h.fetch, `/__sandbox/onboardings/${b.tokenOnboarding}/decision`, { status: 'APPROVED' });
        assert.equal(decided.status, 200);
        assert.deepEqual(await decided.json(), { tokenOnboarding: b.tokenOnboarding, status: 'APPROVED' });
        assert.equal(hook.received.length, 2);
        assert.equal(hook.received[1]!.body.status, 'APPROVED');

        assert.equal((await postJson(h.fetch, `/__sandbox/onboardings/${b.tokenOnboarding}/decision`, { status: 'REFUSED' })).status, 409);
        assert.equal(
          (await postJson(h.fetch, '/__sandbox/onboardings/00000000-0000-4000-8000-000000000000/decision', { status: 'REFUSED' })).status,
          404,
        );
        assert.equal(
          (await postJson(h.fetch, `/__sandbox/onboardings/${b.tokenOnboarding}/decision`, { status: 'IN_PROCESS' })).status,
          400,
        );
        await assert.rejects(h.sandbox.decide(a.tokenOnboarding, 'APPROVED'), /already REFUSED/);
        // tokenOnboarding outlives the access token (docs/upstream-api.md#authentication-and-token-lifetime): a renewed token reads the same onboarding.
        h.sandbox.expireTokens();
        assert.equal((await getWith(h.fetch, `/api/onboarding/report/${a.tokenOnboarding}`, token)).status, 401);
        const renewed = await getToken(h.fetch);
        assert.equal(
          ((await (await getWith(h.fetch, `/api/onboarding/report/${a.tokenOnboarding}`, renewed)).json()) as Json).status,
          'REFUSED',
        );
      } finally {
        await h.close();
        await hook.close();
      }
    });

    test('creation errors: 400 Failed to fetch information, 403 Forbidden, 401 Unauthorized', async () => {
      const h = await harness(transport, { processingMs: 10 });
      try {
        const token = await getToken(h.fetch);
        const bad: (Json | string)[] = [
          '{"cpf":',
          '[]',
          {},
          { cpf: '529.982.247-26' },
          { cpf: 52998224725 },
          { name: 'Maria' },
          { cpf: TEST_IDENTITIES.cpfApproved, document: TEST_IDENTITIES.cpfRefused },
          { cpf: TEST_IDENTITIES.cnpjApproved },
          { cnpj: TEST_IDENTITIES.cpfApproved },
          { document: '123' },
          { cpf: TEST_IDENTITIES.cpfApproved, documentFiles: 'x' },
          { cpf: TEST_IDENTITIES.cpfApproved, documentFiles: [{ documentFileType: 'OTHER' }] },
          { cpf: TEST_IDENTITIES.cpfApproved, documentFiles: [{ document: SAMPLE_PNG_BASE64 }] }, // pure base64: not a data URI
          { cpf: TEST_IDENTITIES.cpfApproved, documentFiles: [{ document: 'data:image/png;base64,@@@' }] },
          { cpf: TEST_IDENTITIES.cpfCreationFails, documentFiles: [file()] },
        ];
        for (const body of bad) {
          const res = await postJson(h.fetch, '/api/token-history-onboarding', body, token);
          assert.equal(res.status, 400, JSON.stringify(body).slice(0, 80));
          assert.deepEqual(await res.json(), FAILED);
        }
        const forbidden = await postJson(h.fetch, '/api/token-history-onboarding', { cpf: TEST_IDENTITIES.cpfForbidden }, token);
        assert.equal(forbidden.status, 403);
        assert.deepEqual(await forbidden.json(), { status: { code: 403, message: 'Forbidden' } });
        const noToken = await postJson(h.fetch, '/api/token-history-onboarding', { cpf: TEST_IDENTITIES.cpfApproved });
        assert.equal(noToken.status, 401);
        assert.deepEqual(await noToken.json(), { status: { code: 401, message: 'Unauthorized' } });
        // documentUrl alone is accepted.
        await create(h.fetch, token, {
          cpf: TEST_IDENTITIES.cpfApproved,
          documentFiles: [{ documentFileType: 'OTHER', documentUrl: 'https://example.com/doc.jpg' }],
        });
      } finally {
        await h.close();
      }
    });

    test('PDF report: a real PDF with correct xref offsets; unknown token -> 400', async () => {
      const h = await harness(transport, { processingMs: 20 });
      try {
        const token = await getToken(h.fetch);
        const created = await create(h.fetch, token, { cpf: TEST_IDENTITIES.cpfRefused, name: 'João (teste)', documentFiles: [file()] });
        assert.equal(await waitForDecision(h.fetch, token, created.tokenOnboarding), 'REFUSED');
        const res = await getWith(h.fetch, `/api/history-onboarding-report/${created.tokenOnboarding}`, token);
        assert.equal(res.status, 200);
        assert.equal(res.headers.get('content-type'), 'application/pdf');
        const bytes = Buffer.from(await res.arrayBuffer());
        const text = bytes.toString('latin1');
        assert.ok(text.startsWith('%PDF-1.4'));
        assert.ok(text.trimEnd().endsWith('%%EOF'));
        assertXrefValid(text);
        assert.ok(text.includes(created.tokenOnboarding));
        assert.ok(text.includes('Status: REFUSED'));
        assert.ok(text.includes('111.***.***-35'));
        assert.equal(text.includes('11144477735'), false);
        assert.ok(text.includes('/BaseFont /Helvetica'));

        for (const path of ['/api/history-onboarding-report/', '/api/onboarding/report/']) {
          const unknown = await getWith(h.fetch, `${path}00000000-0000-4000-8000-000000000000`, token);
          assert.equal(unknown.status, 400);
          assert.deepEqual(await unknown.json(), FAILED);
        }
      } finally {
        await h.close();
      }
    });

    test('customer lookup: onboarded and pre-existing documents, [] when none, 400/403 errors', async () => {
      const h = await harness(transport, { processingMs: 10 });
      try {
        const token = await getToken(h.fetch);
        const lookup = async (key: string) => getWith(h.fetch, `/api/customer?documentKey=${encodeURIComponent(key)}`, token);
        const pre = (await (await lookup(TEST_IDENTITIES.cpfApproved)).json()) as Json[];
        assert.equal(pre.length, 1);
        assert.deepEqual(Object.keys(pre[0]!).sort(), ['active', 'addInformation', 'documentKey', 'name', 'tokenCustomer', 'type']);
        assert.equal(pre[0]!.type, 'PF');
        assert.equal(pre[0]!.documentKey, '52998224725');
        assert.equal(pre[0]!.active, true);
        assert.match(pre[0]!.tokenCustomer, UUID);
        assert.deepEqual(await (await lookup('529.982.247-25')).json(), await (await lookup('52998224725')).json());

        assert.deepEqual(await (await lookup(TEST_IDENTITIES.cpfRefused)).json(), []);
        const carla = await create(h.fetch, token, { cpf: TEST_IDENTITIES.cpfRefused, name: 'Carla Souza' });
        assert.equal(await waitForDecision(h.fetch, token, carla.tokenOnboarding), 'REFUSED');
        const after = (await (await lookup(TEST_IDENTITIES.cpfRefused)).json()) as Json[];
        assert.equal(after.length, 1);
        assert.equal(after[0]!.name, 'Carla Souza');
        assert.equal(after[0]!.active, false);

        const company = (await (await lookup(TEST_IDENTITIES.cnpjApproved)).json()) as Json[];
        assert.equal(company[0]!.documentKey, '11222333000181');
        assert.equal('type' in company[0]!, false);

        for (const key of ['', '123', '529.982.247-26']) {
          const res = await lookup(key);
          assert.equal(res.status, 400);
          assert.deepEqual(await res.json(), FAILED);
        }
        const missing = await getWith(h.fetch, '/api/customer', token);
        assert.equal(missing.status, 400);
        const forbidden = await lookup(TEST_IDENTITIES.cpfForbidden);
        assert.equal(forbidden.status, 403);
        assert.deepEqual(await forbidden.json(), { status: { code: 403, message: 'Forbidden' } });
      } finally {
        await h.close();
      }
    });
  });
}

describe('webhook faults', () => {
  test('dropWebhooks sends nothing; duplicateWebhooks sends every webhook twice', async () => {
    const hook = await webhookReceiver();
    const h = await harness('socket', { processingMs: 20, webhookUrl: hook.url });
    try {
      const token = await getToken(h.fetch);
      h.sandbox.setFaults({ dropWebhooks: true });
      const dropped = await create(h.fetch, token, { cpf: TEST_IDENTITIES.cpfApproved });
      assert.equal(await waitForDecision(h.fetch, token, dropped.tokenOnboarding), 'APPROVED', 'decided all the same');
      await sleep(100);
      assert.equal(hook.received.length, 0);

      h.sandbox.setFaults({ dropWebhooks: false, duplicateWebhooks: true });
      const doubled = await create(h.fetch, token, { cpf: TEST_IDENTITIES.cpfRefused });
      const got = await hook.waitFor(2);
      await sleep(80);
      assert.equal(hook.received.length, 2);
      assert.deepEqual(got[0]!.body, got[1]!.body);
      assert.equal(got[0]!.body.tokenOnboarding, doubled.tokenOnboarding);
      assert.equal(h.sandbox.stats().webhooksSent, 2);
    } finally {
      await h.close();
      await hook.close();
    }
  });

  test('standalone query webhook: the same JSON as the answer, after queryWebhookDelayMs, with id-service-token', async () => {
    const hook = await webhookReceiver();
    const clock = new ManualClock();
    const h = await harness('app.request', { webhookUrl: hook.url, webhookKey: 'k-2', queryWebhookDelayMs: 150, clock });
    try {
      const token = await getToken(h.fetch);
      const res = await postJson(h.fetch, '/api/service-api', { service: 'SERVICE_PEP', cpf: TEST_IDENTITIES.cpfApproved }, token);
      const answer = await res.json();
      // 1 ms short of the delay on the sandbox's clock; then real time for a wrongly early delivery to arrive.
      await clock.advance(149);
      await sleep(100);
      assert.equal(hook.received.length, 0, 'not before the delay');
      await clock.advance(1);
      const [delivery] = await hook.waitFor(1);
      assert.deepEqual(delivery!.body, answer);
      assert.equal(delivery!.headers['id-service-token'], 'k-2');
      assert.equal(parseWebhook(delivery!.body)?.kind, 'query');
      // An access error is not a finished query: no webhook.
      await postJson(h.fetch, '/api/service-api', { service: 'SERVICE_NOPE', cpf: TEST_IDENTITIES.cpfApproved }, token);
      await clock.advance(150);
      await sleep(100);
      assert.equal(hook.received.length, 1);
      assert.equal(clock.size, 0, 'no delivery was scheduled for it');
    } finally {
      await h.close();
      await hook.close();
    }
  });

  test('close() clears pending processing and webhook timers', async () => {
    const hook = await webhookReceiver();
    const h = await harness('app.request', { processingMs: 300, webhookUrl: hook.url, queryWebhookDelayMs: 300 });
    try {
      const token = await getToken(h.fetch);
      await create(h.fetch, token, { cpf: TEST_IDENTITIES.cpfApproved });
      await postJson(h.fetch, '/api/service-api', { service: 'SERVICE_PEP', cpf: TEST_IDENTITIES.cpfApproved }, token);
      h.sandbox.close();
      await sleep(450);
      assert.equal(hook.received.length, 0);
    } finally {
      await hook.close();
    }
  });
});
