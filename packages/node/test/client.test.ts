/**
 * The SDK against a real companion on a loopback socket, the sandbox as its upstream and a real
 * notification receiver: sessions opened, read and listed, an idempotent replay, a page that uses
 * the session, the notifications it causes verified by `constructEvent`, standalone queries,
 * reports of the onboarding, and the typed errors (with the request id, never the key).
 */
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { inspect } from 'node:util';
import { body, startStack, type Stack } from '@onboarding-kit/testing/stack';
import {
  OnboardingApiError,
  OnboardingClient,
  SignatureVerificationError,
  type CreatedSession,
  type OnboardingNotification,
  type SessionView,
} from '@onboarding-kit/node';
import { startRawReceiver, type RawReceiver } from './helpers/receiver.js';

const API_KEY = 'sk_test_sdk_0123456789abcdef0123456789abcdef';
const SECRET = 'whsec_sdk_0123456789abcdef0123456789abcdef';
const CPF = '529.982.247-25';

let stack: Stack;
let receiver: RawReceiver;
let client: OnboardingClient;

before(async () => {
  receiver = await startRawReceiver();
  stack = await startStack({ companion: { apiKeys: [API_KEY], notify: { url: receiver.url, secret: SECRET } } });
  client = new OnboardingClient({ apiKey: API_KEY, baseUrl: stack.url });
});
after(async () => {
  await stack.close();
  await receiver.close();
});

/** What the page does with the client secret: creates the session's onboarding. */
async function useSession(session: CreatedSession): Promise<string> {
  const res = await fetch(`${stack.url}/v1/onboardings`, {
    method: 'POST',
    headers: { authorization: `Bearer ${session.clientSecret}`, 'content-type': 'application/json' },
    body: JSON.stringify(body({ cpf: CPF })),
  });
  assert.equal(res.status, 201, await res.clone().text());
  return ((await res.json()) as { tokenOnboarding: string }).tokenOnboarding;
}

test('sessions.create opens a session, retrieve reads it, list finds it by reference', async () => {
  const created = await client.sessions.create({ reference: 'sdk-user-1', cpf: CPF, name: 'Maria Silva', metadata: { plan: 'gold' } });
  assert.match(created.id, /^ses_/);
  assert.match(created.clientSecret, /_secret_/);
  assert.ok(created.url.startsWith(`${stack.url}/capture/`), created.url);
  assert.equal(created.status, 'open');
  assert.equal(created.reference, 'sdk-user-1');

  const view = await client.sessions.retrieve(created.id);
  assert.equal(view.id, created.id);
  assert.equal(view.status, 'open');
  assert.deepEqual(view.metadata, { plan: 'gold' });
  assert.equal(JSON.stringify(view).includes(created.clientSecret), false, 'never a secret');

  const later = await client.sessions.create({ reference: 'sdk-user-1' });
  const page = await client.sessions.list({ reference: 'sdk-user-1' });
  assert.deepEqual(
    page.data.map((s) => s.id),
    [later.id, created.id],
    'newest first',
  );
});

test('sessions.create with the same Idempotency-Key answers the same session, with a new client secret', async () => {
  const params = { reference: 'sdk-user-idem', cpf: CPF };
  const first = await client.sessions.create(params, { idempotencyKey: 'sdk-idem-1' });
  const again = await client.sessions.create(params, { idempotencyKey: 'sdk-idem-1' });
  assert.equal(again.id, first.id);
  assert.notEqual(again.clientSecret, first.clientSecret);
  const other = await client.sessions.create(params);
  assert.notEqual(other.id, first.id, 'without a key of the caller, each call is its own creation');
  await assert.rejects(client.sessions.create({ reference: 'another body' }, { idempotencyKey: 'sdk-idem-1' }), (e: unknown) => {
    assert.ok(e instanceof OnboardingApiError);
    assert.equal(e.status, 409);
    assert.equal(e.code, 'idempotency_conflict');
    return true;
  });
});

test('a used session: its notifications verify with constructEvent, typed by their type, and match retrieve', async () => {
  const session = await client.sessions.create({ reference: 'sdk-user-flow', cpf: CPF, metadata: { plan: 'gold' } });
  const token = await useSession(session);

  const submitted = await receiver.waitFor((e) => e.type === 'session.submitted' && e.data.id === session.id);
  const completed = await receiver.waitFor((e) => e.type === 'session.completed' && e.data.id === session.id);
  for (const delivery of [submitted, completed]) {
    // The bytes as received, a Buffer; and the same as a string.
    const event: OnboardingNotification = await client.notifications.constructEvent(delivery.body, delivery.signature, SECRET);
    assert.match(event.id, /^evt_/);
    const fromText = await client.notifications.constructEvent(delivery.body.toString('utf8'), delivery.signature, [SECRET]);
    assert.deepEqual(fromText, event);
  }
  const event = await client.notifications.constructEvent(completed.body, completed.signature, SECRET);
  let view: SessionView | undefined;
  switch (event.type) {
    case 'session.completed':
      view = event.data;
      break;
    default:
      assert.fail(`expected session.completed, got ${event.type}`);
  }
  assert.equal(view.status, 'completed');
  assert.equal(view.onboarding?.tokenOnboarding, token);
  assert.equal(view.onboarding?.status, 'APPROVED');
  assert.deepEqual(view.metadata, { plan: 'gold' });

  const read = await client.sessions.retrieve(session.id);
  assert.equal(read.status, 'completed');
  assert.equal(read.onboarding?.status, view.onboarding?.status);

  // During a rotation the receiver holds both secrets; one that matches is enough.
  const rotated = await client.notifications.constructEvent(completed.body, completed.signature, [
    'whsec_next_0123456789abcdef0123456789ab',
    SECRET,
  ]);
  assert.equal(rotated.id, event.id);
  await assert.rejects(
    client.notifications.constructEvent(completed.body, completed.signature, 'whsec_wrong_0123456789abcdef0123456789ab'),
    (e: unknown) => e instanceof SignatureVerificationError && e.reason === 'no_matching_signature',
  );
  const tampered = Buffer.from(completed.body.toString('utf8').replace('"APPROVED"', '"REFUSED"'));
  await assert.rejects(
    client.notifications.constructEvent(tampered, completed.signature, SECRET),
    (e: unknown) => e instanceof SignatureVerificationError && e.reason === 'no_matching_signature',
  );
  // Kept and presented past the tolerance: a replay.
  await assert.rejects(
    client.notifications.constructEvent(completed.body, completed.signature, SECRET, { now: Date.now() + 301_000 }),
    (e: unknown) => e instanceof SignatureVerificationError && e.reason === 'timestamp_out_of_tolerance',
  );
});

test("reports: the report as JSON, the PDF and the evidence archive of the session's onboarding", async () => {
  const session = await client.sessions.create({ reference: 'sdk-user-reports', cpf: CPF });
  const token = await useSession(session);
  await receiver.waitFor((e) => e.type === 'session.completed' && e.data.id === session.id);

  const report = await client.reports.json(token);
  assert.equal(typeof report, 'object');
  assert.equal(report.tokenOnboarding, token);

  const pdf = await client.reports.pdf(token);
  assert.equal(pdf.contentType, 'application/pdf');
  assert.equal(pdf.filename, `report-${token}.pdf`);
  const pdfBytes = await pdf.bytes();
  assert.equal(Buffer.from(pdfBytes.subarray(0, 5)).toString('latin1'), '%PDF-');

  const sealed = await client.reports.evidence(token);
  assert.equal(sealed.contentType, 'application/zip');
  assert.equal(sealed.filename, `evidence-${token}.zip`);
  assert.equal(sealed.encrypted, true);
  assert.match(sealed.password ?? '', /^\S{16,}$/, 'the generated passphrase, told once');
  // Streamed: read as it comes.
  const chunks: Uint8Array[] = [];
  const reader = sealed.body.getReader();
  for (let r = await reader.read(); !r.done; r = await reader.read()) chunks.push(r.value);
  const zip = Buffer.concat(chunks);
  assert.equal(zip.subarray(0, 2).toString('latin1'), 'PK');

  const open = await client.reports.evidence(token, { encrypt: false });
  assert.equal(open.encrypted, false);
  assert.equal(open.password, undefined);
  const openZip = Buffer.from(await open.bytes());
  assert.ok(openZip.includes(Buffer.from('manifest.json')), 'the entries are named in the clear');

  const chosen = 'orange tractor river 7 whispers quietly';
  const own = await client.reports.evidence(token, { password: chosen });
  assert.equal(own.encrypted, true);
  assert.equal(own.password, undefined, 'the caller knows its own passphrase');
  assert.equal(
    Buffer.from(await own.bytes())
      .subarray(0, 2)
      .toString('latin1'),
    'PK',
  );

  await assert.rejects(client.reports.evidence(token, { password: 'short' }), (e: unknown) => {
    assert.ok(e instanceof OnboardingApiError);
    assert.equal(e.status, 400);
    assert.equal(e.code, 'invalid_password');
    return true;
  });
  await assert.rejects(client.reports.pdf('no-such-token'), (e: unknown) => e instanceof OnboardingApiError && e.code === 'not_found');
});

test('queries.run answers the classified outcome; a refused body is a typed error naming its field', async () => {
  const pep = await client.queries.run({ service: 'SERVICE_PEP', cpf: CPF });
  assert.equal(pep.kind, 'success');
  assert.equal(pep.ok, true);
  assert.equal(typeof pep.result, 'object');

  await assert.rejects(client.queries.run({ service: 'SERVICE_PEP' }), (e: unknown) => {
    assert.ok(e instanceof OnboardingApiError);
    assert.equal(e.status, 400);
    assert.equal(e.code, 'missing_field');
    assert.equal(e.field, 'cpf');
    assert.match(e.requestId ?? '', /^[\w-]{8,}$/);
    return true;
  });
});

test('errors: a typed OnboardingApiError with status, code, field and request id, and never the API key', async () => {
  const notFound = await client.sessions.retrieve('ses_nope').then(
    () => assert.fail('resolved'),
    (e: unknown) => e,
  );
  assert.ok(notFound instanceof OnboardingApiError);
  assert.equal(notFound.status, 404);
  assert.equal(notFound.code, 'not_found');
  assert.ok(notFound.requestId, 'the X-Request-Id of the answer');
  assert.ok(
    stack.logs.some((l) => l.includes(notFound.requestId!)),
    "the id finds the companion's log line",
  );

  const invalid = await client.sessions.create({ reference: 'x', expiresIn: 5 }).catch((e: unknown) => e);
  assert.ok(invalid instanceof OnboardingApiError);
  assert.equal(invalid.code, 'invalid_field');
  assert.equal(invalid.field, 'expiresIn');

  const wrongKey = 'sk_test_wrong_0123456789abcdef0123456789abcdef';
  const stranger = new OnboardingClient({ apiKey: wrongKey, baseUrl: `${stack.url}/v1/` });
  const unauthorized = await stranger.sessions.list({ reference: 'sdk-user-1' }).catch((e: unknown) => e);
  assert.ok(unauthorized instanceof OnboardingApiError);
  assert.equal(unauthorized.status, 401);
  assert.equal(unauthorized.code, 'unauthorized');

  for (const [error, key] of [
    [notFound, API_KEY],
    [invalid, API_KEY],
    [unauthorized, wrongKey],
  ] as const) {
    const shown = `${String(error)} ${(error as Error).stack} ${JSON.stringify(error)} ${inspect(error, { depth: 5 })}`;
    assert.equal(shown.includes(key), false, 'no API key in an error');
  }
  assert.equal(inspect(client, { depth: 10, showHidden: true }).includes(API_KEY), false, 'nor in the client when logged');
});
