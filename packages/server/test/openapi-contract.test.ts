/**
 * The OpenAPI document against a real companion: the companion and the sandbox on loopback
 * sockets, every operation of the document called (the list comes from the document itself, and
 * the last test fails on any operation no call exercised), success and the main error answers,
 * each answer's status, content type and body checked against the document with ajv; and every
 * notification the companion sent checked against the document's `webhooks`.
 */
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { body, IMAGE, startStack, type Stack } from '@onboarding-kit/testing/stack';
import { openApiDocument } from '../src/openapi/document.js';
import { OpenApiAnswers, type CheckedAnswer } from './helpers/openapi-answers.js';
import { startReceiver, type Receiver } from './helpers/notify-receiver.js';

const API_KEY = 'sk_test_contract_0123456789abcdef0123456789';
const SESSIONS_ONLY_KEY = 'sk_test_contract_sessions_only_0123456789';
const ADMIN_KEY = 'admin-key-contract-0123456789abcdef';
const NOTIFY_SECRET = 'notify-secret-contract-0123456789abcdef';
const CPF = '529.982.247-25';

const doc = openApiDocument();
const answers = new OpenApiAnswers(doc);
let stack: Stack;
let receiver: Receiver;

before(async () => {
  receiver = await startReceiver(NOTIFY_SECRET);
  stack = await startStack({
    companion: {
      apiKeys: [API_KEY, { key: SESSIONS_ONLY_KEY, scopes: ['sessions'] }],
      adminKey: ADMIN_KEY,
      notify: { url: receiver.url, secret: NOTIFY_SECRET },
      reportPdf: true,
      poll: { firstDelayMs: 60_000 },
    },
  });
});
after(async () => {
  await stack.close();
  await receiver.close();
});

interface Call {
  bearer?: string;
  json?: unknown;
  raw?: string;
  headers?: Record<string, string>;
  events?: number;
}

/** `method path` on the companion's socket, its answer checked against the document; `expect` is the status meant. */
async function call(method: string, path: string, expect: number, c: Call = {}): Promise<CheckedAnswer> {
  const headers: Record<string, string> = { ...c.headers };
  if (c.bearer) headers.authorization = `Bearer ${c.bearer}`;
  let payload: string | undefined;
  if (c.json !== undefined) {
    headers['content-type'] ??= 'application/json';
    payload = JSON.stringify(c.json);
  } else if (c.raw !== undefined) payload = c.raw;
  const res = await fetch(`${stack.url}${path}`, { method, headers, ...(payload !== undefined && { body: payload }) });
  const answer = await answers.check(method, path, res, expect, c.events ? { events: c.events } : {});
  if (c.json !== undefined && expect < 300) answers.checkRequest(method, path, c.json);
  return answer;
}

const errorCode = (a: CheckedAnswer): string => (a.json as { error: { code: string } }).error.code;

async function openSession(extra: Record<string, unknown> = {}): Promise<{ id: string; clientSecret: string; url: string }> {
  const a = await call('POST', '/v1/sessions', 201, { bearer: API_KEY, json: { reference: 'user-contract', cpf: CPF, ...extra } });
  return a.json as { id: string; clientSecret: string; url: string };
}

async function untilNotified(type: string, sessionId?: string): Promise<void> {
  const deadline = Date.now() + 20_000;
  while (!receiver.delivered().some((r) => r.type === type && (!sessionId || JSON.parse(r.body).data?.id === sessionId))) {
    if (Date.now() > deadline) throw new Error(`no ${type} notification came`);
    await new Promise((r) => setTimeout(r, 20));
  }
}

/** The session the main flow opens, creates an onboarding on and completes. */
const flow: { session?: { id: string; clientSecret: string; url: string }; token?: string; accessKey?: string } = {};

test('the document describes the companion it is served by', async () => {
  const a = await call('GET', '/v1/openapi.json', 200);
  assert.deepEqual(a.json, doc);
  await call('GET', '/v1/openapi.json', 304, { headers: { 'if-none-match': a.headers.get('etag')! } });
  await call('GET', '/v1/nothing-here', 404).catch((error: Error) => assert.match(error.message, /no operation/));
});

test('liveness answers as documented', async () => {
  await call('GET', '/v1/health', 200);
});

test('readiness answers as documented', async () => {
  const a = await call('GET', '/v1/ready', 200);
  assert.equal(a.json.status, 'ready');
});

test('sessions: open, replay, read; refusals by key, scope, body and id', async () => {
  const s = await openSession({ metadata: { plan: 'gold' }, returnUrl: 'https://app.example/done' });
  flow.session = s;
  const idem = { 'idempotency-key': 'contract-replay-1' };
  const first = await call('POST', '/v1/sessions', 201, { bearer: API_KEY, json: { reference: 'user-replay' }, headers: idem });
  const again = await call('POST', '/v1/sessions', 200, { bearer: API_KEY, json: { reference: 'user-replay' }, headers: idem });
  assert.equal(again.json.id, first.json.id);
  assert.equal(again.headers.get('idempotent-replayed'), 'true');
  assert.equal(
    errorCode(await call('POST', '/v1/sessions', 409, { bearer: API_KEY, json: { reference: 'other' }, headers: idem })),
    'idempotency_conflict',
  );
  assert.equal(errorCode(await call('POST', '/v1/sessions', 401, { json: { reference: 'x' } })), 'unauthorized');
  const unknownMember = await call('POST', '/v1/sessions', 400, { bearer: API_KEY, json: { reference: 'x', plan: 'gold' } });
  assert.deepEqual([errorCode(unknownMember), unknownMember.json.error.field], ['invalid_field', 'plan']);
  assert.equal(
    errorCode(await call('POST', '/v1/sessions', 400, { bearer: API_KEY, json: { reference: 'x', cpf: '111.111.111-11' } })),
    'invalid_cpf',
  );
  assert.equal(
    errorCode(
      await call('POST', '/v1/sessions', 400, { bearer: API_KEY, raw: '{"reference":', headers: { 'content-type': 'application/json' } }),
    ),
    'invalid_json',
  );
  assert.equal(
    errorCode(await call('POST', '/v1/sessions', 415, { bearer: API_KEY, raw: '{}', headers: { 'content-type': 'text/plain' } })),
    'unsupported_media_type',
  );

  const view = await call('GET', `/v1/sessions/${s.id}`, 200, { bearer: API_KEY });
  assert.deepEqual(view.json.metadata, { plan: 'gold' });
  assert.equal(errorCode(await call('GET', '/v1/sessions/ses_unknown', 404, { bearer: API_KEY })), 'not_found');
  assert.equal(errorCode(await call('GET', `/v1/sessions/${s.id}`, 401, { bearer: 'wrong' })), 'unauthorized');
  // A key without the scope `queries` is refused by name of the scope.
  assert.equal(
    errorCode(await call('POST', '/v1/queries', 403, { bearer: SESSIONS_ONLY_KEY, json: { service: 'SERVICE_PEP', cpf: CPF } })),
    'forbidden',
  );
});

test('sessions: the list pages with a cursor and filters', async () => {
  const reference = `user-list-${Date.now()}`;
  for (let i = 0; i < 3; i++) await call('POST', '/v1/sessions', 201, { bearer: API_KEY, json: { reference } });
  const page = await call('GET', `/v1/sessions?reference=${reference}&limit=2`, 200, { bearer: API_KEY });
  assert.equal(page.json.data.length, 2);
  assert.equal(typeof page.json.nextCursor, 'string');
  const rest = await call('GET', `/v1/sessions?reference=${reference}&limit=2&cursor=${encodeURIComponent(page.json.nextCursor)}`, 200, {
    bearer: API_KEY,
  });
  assert.equal(rest.json.data.length, 1);
  assert.equal(rest.json.nextCursor, null);
  await call('GET', '/v1/sessions?status=open&createdAfter=2000-01-01&limit=5', 200, { bearer: API_KEY });
  const bad = await call('GET', '/v1/sessions?limit=0', 400, { bearer: API_KEY });
  assert.deepEqual([errorCode(bad), bad.json.error.field], ['invalid_field', 'limit']);
  const forged = await call('GET', '/v1/sessions?cursor=not-one-of-ours', 400, { bearer: API_KEY });
  assert.deepEqual([errorCode(forged), forged.json.error.field], ['invalid_field', 'cursor']);
});

test('the hosted pages and their files; the capture token traded once', async () => {
  const s = await openSession();
  const path = new URL(s.url).pathname;
  const page = await call('GET', path, 200);
  const files = [...page.text!.matchAll(/\/capture\/(?:assets|element)\/[0-9a-f]+\/[^"'\s]+/g)].map((m) => m[0]);
  const assets = files.filter((f) => f.includes('/assets/'));
  const elementFiles = files.filter((f) => f.includes('/element/'));
  assert.ok(assets.length > 0 && elementFiles.length > 0, files.join(' '));
  for (const file of new Set(files)) await call('GET', file, 200);
  assert.equal(errorCode(await call('GET', assets[0]!.replace(/\/[^/]+$/, '/nothing.js'), 404)), 'not_found');
  await call('GET', elementFiles[0]!.replace(/\/[^/]+$/, '/nothing.js'), 404);
  await call('GET', '/capture', 200);
  await call('GET', '/h', 200);
  await call('GET', '/h/some-hand-off-link-token-0123456789', 200);
  await call('GET', '/capture/unknown-capture-token-0123456789', 404);

  const token = path.replace('/capture/', '');
  const exchanged = await call('POST', '/v1/session/exchange', 201, { json: { captureToken: token } });
  assert.equal(exchanged.json.sessionId, s.id);
  assert.equal(errorCode(await call('POST', '/v1/session/exchange', 410, { json: { captureToken: token } })), 'session_used');
  assert.equal(errorCode(await call('POST', '/v1/session/exchange', 400, { json: { captureToken: 'short' } })), 'invalid_field');
  assert.equal(errorCode(await call('POST', '/v1/session/exchange', 404, { json: { captureToken: 'x'.repeat(40) } })), 'not_found');
  await call('GET', path, 410);
  const read = await call('GET', '/v1/session', 200, { bearer: exchanged.json.pageSecret });
  assert.equal(read.json.id, s.id);
});

test('the hand-off: offer, claim, progress, events, reclaim; refusals', async () => {
  const s = await openSession();
  const origin = await call('GET', '/v1/session', 200, { bearer: s.clientSecret });
  assert.deepEqual(origin.json.handoff, { state: 'none', holder: true, origin: true });
  assert.equal(errorCode(await call('GET', '/v1/session', 401, { bearer: 'not-a-secret' })), 'unauthorized');
  const offer = await call('POST', '/v1/session/handoff', 201, { bearer: s.clientSecret });
  assert.equal(errorCode(await call('POST', '/v1/handoff/claim', 404, { json: { code: 'AAAA-AAAA' } })), 'handoff_invalid');
  assert.equal(errorCode(await call('POST', '/v1/handoff/claim', 400, { json: {} })), 'invalid_field');
  const claim = await call('POST', '/v1/handoff/claim', 200, { json: { code: offer.json.code } });
  assert.equal(claim.json.sessionId, s.id);
  assert.equal(errorCode(await call('POST', '/v1/handoff/claim', 410, { json: { code: offer.json.code } })), 'handoff_used');
  const device = claim.json.clientSecret as string;
  assert.equal(errorCode(await call('POST', '/v1/session/handoff', 403, { bearer: device })), 'unauthorized');
  await call('POST', '/v1/session/progress', 204, { bearer: device, json: { step: 'selfie', photos: ['documentFront'] } });
  const badStep = await call('POST', '/v1/session/progress', 400, { bearer: device, json: { step: 'dancing', photos: [] } });
  assert.deepEqual([errorCode(badStep), badStep.json.error.field], ['invalid_field', 'step']);
  assert.equal(
    errorCode(await call('POST', '/v1/session/progress', 409, { bearer: s.clientSecret, json: { step: 'selfie', photos: [] } })),
    'session_handed_off',
  );
  const events = await call('GET', '/v1/session/events', 200, { bearer: s.clientSecret, events: 3 });
  assert.deepEqual(
    events.events!.map((e) => e.event),
    ['handoff.created', 'handoff.claimed', 'capture.progress'],
  );
  const back = await call('POST', '/v1/session/handoff/reclaim', 200, { bearer: s.clientSecret });
  assert.equal(back.json.handoff.state, 'none');
  assert.equal(errorCode(await call('GET', '/v1/session', 409, { bearer: device })), 'session_handed_off');
});

test('an onboarding on a session: creation, reads, its events, its PDF; refusals', async () => {
  const s = flow.session ?? (await openSession());
  assert.equal(errorCode(await call('POST', '/v1/onboardings', 400, { json: body({ cpf: '111.111.111-11' }) })), 'invalid_cpf');
  assert.equal(errorCode(await call('POST', '/v1/onboardings', 400, { json: { images: {} } })), 'missing_tax_id');
  assert.equal(
    errorCode(await call('POST', '/v1/onboardings', 415, { raw: '{}', headers: { 'content-type': 'text/plain' } })),
    'unsupported_media_type',
  );
  assert.equal(errorCode(await call('POST', '/v1/onboardings', 401, { bearer: 'not-a-secret', json: body() })), 'unauthorized');
  const mismatch = await call('POST', '/v1/onboardings', 400, { bearer: s.clientSecret, json: body({ cpf: '111.444.777-35' }) });
  assert.equal(errorCode(mismatch), 'session_mismatch');

  const created = await call('POST', '/v1/onboardings', 201, { bearer: s.clientSecret, json: body() });
  flow.token = created.json.tokenOnboarding;
  flow.accessKey = created.json.accessKey;
  assert.equal(errorCode(await call('POST', '/v1/onboardings', 409, { bearer: s.clientSecret, json: body() })), 'session_used');
  const token = created.json.tokenOnboarding as string;
  const key = created.json.accessKey as string;
  const state = await call('GET', `/v1/onboardings/${token}`, 200, { bearer: key });
  assert.equal(state.json.tokenOnboarding, token);
  assert.equal(errorCode(await call('GET', `/v1/onboardings/${token}`, 404, { bearer: 'wrong-key' })), 'not_found');
  // Read to its end: the stream ends after the final status (the sandbox decides within 300 ms, maybe before the stream opens).
  const stream = await call('GET', `/v1/onboardings/${token}/events`, 200, { bearer: key, events: 10 });
  assert.equal(stream.events!.at(-1)!.data.status, 'APPROVED');
  const pdf = await call('GET', `/v1/onboardings/${token}/report.pdf`, 200, { bearer: key });
  assert.equal(new TextDecoder().decode(pdf.bytes!.slice(0, 5)), '%PDF-');
  assert.equal(errorCode(await call('GET', `/v1/onboardings/${token}/report.pdf`, 404, { bearer: 'wrong-key' })), 'not_found');

  await untilNotified('session.completed', s.id);
  const view = await call('GET', `/v1/sessions/${s.id}`, 200, { bearer: API_KEY });
  assert.equal(view.json.status, 'completed');
  assert.equal(view.json.onboarding.status, 'APPROVED');
  assert.equal((await call('GET', '/v1/session', 200, { bearer: s.clientSecret })).json.status, 'completed');
});

test('instant checks and the document prefill: a session asking for them, its reading, its checks and their notification', async () => {
  const s = await openSession({ checks: ['ocr', 'face_match'], prefillFromDocument: true, steps: ['proof-of-address'] });
  const page = await call('GET', '/v1/session', 200, { bearer: s.clientSecret });
  assert.equal(page.json.prefillFromDocument, true);
  const images = { documentFront: IMAGE, documentBack: IMAGE };
  const prefill = await call('POST', '/v1/session/document-prefill', 200, {
    bearer: s.clientSecret,
    json: { documentType: 'CNH', images },
  });
  assert.equal(prefill.json.cpf, '52998224725');
  const noType = await call('POST', '/v1/session/document-prefill', 400, { bearer: s.clientSecret, json: { images } });
  assert.equal(errorCode(noType), 'invalid_field');
  const other = await openSession();
  const refused = await call('POST', '/v1/session/document-prefill', 409, {
    bearer: other.clientSecret,
    json: { documentType: 'CNH', images },
  });
  assert.equal(errorCode(refused), 'prefill_unavailable');
  assert.equal(
    (await call('POST', '/v1/session/capture-nonce', 201, { bearer: s.clientSecret, json: { role: 'selfie' } })).json.role,
    'selfie',
  );
  assert.equal(
    errorCode(await call('POST', '/v1/session/capture-nonce', 400, { bearer: s.clientSecret, json: { role: 'x' } })),
    'invalid_field',
  );
  const reading = { documentFront: { qr: { payloadBase64: 'aGVsbG8=' }, documentKind: 'CNH' } };
  const badReading = await call('POST', '/v1/onboardings', 400, {
    bearer: s.clientSecret,
    json: body({ cpf: CPF }, { documentReading: { documentFront: { documentKind: 'RG' } } }),
  });
  assert.equal(errorCode(badReading), 'invalid_field');
  await call('POST', '/v1/onboardings', 201, { bearer: s.clientSecret, json: body({ cpf: CPF }, { documentReading: reading }) });
  await untilNotified('session.checks_completed', s.id);
  const view = await call('GET', `/v1/sessions/${s.id}`, 200, { bearer: API_KEY });
  assert.deepEqual(view.json.documentReading, reading);
  assert.ok(view.json.checks.completedAt);
});

test('the upstream webhook: acknowledged with the key, refused without it or with a body of neither shape', async () => {
  const token = flow.token ?? 'a-token-this-companion-does-not-know';
  const report = { tokenOnboarding: token, status: 'APPROVED', fields: {}, services: [] };
  const headers = { 'id-service-token': 'it-webhook-key-1a2b3c4d5e6f7a8b9c0d' };
  const ok = await call('POST', '/v1/webhooks', 200, { json: report, headers });
  assert.deepEqual(ok.json, { received: true });
  assert.equal(errorCode(await call('POST', '/v1/webhooks', 401, { json: report })), 'unauthorized');
  assert.equal(errorCode(await call('POST', '/v1/webhooks', 400, { json: { hello: 'world' }, headers })), 'invalid_request');
  assert.equal(errorCode(await call('POST', '/v1/webhooks', 400, { raw: 'nope', headers })), 'invalid_json');
});

test('reports for any token: the report, its PDF, the evidence archive, the customer lookup', async () => {
  const token = flow.token;
  assert.ok(token, 'the onboarding of the flow above');
  const report = await call('GET', `/v1/admin/onboardings/${token}`, 200, { bearer: ADMIN_KEY });
  assert.equal(report.json.tokenOnboarding, token);
  await call('GET', `/v1/admin/onboardings/${token}`, 200, { bearer: API_KEY });
  assert.equal(errorCode(await call('GET', `/v1/admin/onboardings/${token}`, 401, { bearer: 'wrong' })), 'unauthorized');
  assert.equal(errorCode(await call('GET', `/v1/admin/onboardings/${token}`, 403, { bearer: SESSIONS_ONLY_KEY })), 'forbidden');
  assert.equal(errorCode(await call('GET', '/v1/admin/onboardings/not%20a%20token', 404, { bearer: ADMIN_KEY })), 'not_found');
  const pdf = await call('GET', `/v1/admin/onboardings/${token}/report.pdf`, 200, { bearer: ADMIN_KEY });
  assert.equal(new TextDecoder().decode(pdf.bytes!.slice(0, 4)), '%PDF');
  const archive = await call('POST', `/v1/admin/onboardings/${token}/evidence`, 200, { bearer: ADMIN_KEY });
  assert.deepEqual([...archive.bytes!.slice(0, 2)], [0x50, 0x4b]);
  assert.ok(archive.headers.get('evidence-password'));
  await call('POST', `/v1/admin/onboardings/${token}/evidence`, 200, { bearer: ADMIN_KEY, json: { encrypt: false } });
  assert.equal(
    errorCode(await call('POST', `/v1/admin/onboardings/${token}/evidence`, 400, { bearer: ADMIN_KEY, json: { password: 'short' } })),
    'invalid_password',
  );
  const customers = await call('GET', '/v1/admin/customers?documentKey=52998224725', 200, { bearer: ADMIN_KEY });
  assert.ok(Array.isArray(customers.json));
  assert.equal(errorCode(await call('GET', '/v1/admin/customers', 400, { bearer: ADMIN_KEY })), 'missing_tax_id');
  assert.equal(errorCode(await call('GET', '/v1/admin/customers?documentKey=123', 400, { bearer: ADMIN_KEY })), 'invalid_field');
});

test('the outbox: delivered notifications listed and replayed', async () => {
  await untilNotified('session.submitted');
  const listed = await call('GET', '/v1/admin/notifications?state=delivered&limit=10', 200, { bearer: ADMIN_KEY });
  assert.ok(listed.json.data.length > 0);
  const bad = await call('GET', '/v1/admin/notifications?state=lost', 400, { bearer: ADMIN_KEY });
  assert.deepEqual([errorCode(bad), bad.json.error.field], ['invalid_field', 'state']);
  const id = listed.json.data[0].id as string;
  const replayed = await call('POST', `/v1/admin/notifications/${id}/replay`, 202, { bearer: ADMIN_KEY });
  assert.equal(replayed.json.data.id, id);
  assert.equal(errorCode(await call('POST', '/v1/admin/notifications/evt_unknown/replay', 404, { bearer: ADMIN_KEY })), 'not_found');
});

test('standalone queries: a synchronous one, an asynchronous inspection, and their reads; refusals', async () => {
  const pep = await call('POST', '/v1/queries', 200, { bearer: API_KEY, json: { service: 'SERVICE_PEP', cpf: CPF } });
  assert.equal(pep.json.kind, 'success');
  assert.equal(errorCode(await call('POST', '/v1/queries', 400, { bearer: API_KEY, json: { cpf: CPF } })), 'missing_field');
  assert.equal(errorCode(await call('POST', '/v1/queries', 401, { json: { service: 'SERVICE_PEP', cpf: CPF } })), 'unauthorized');
  // A technical failure upstream is the error shape, with what the upstream said of it.
  stack.sandbox.setFaults({ errorRate: 1 });
  try {
    const failed = await call('POST', '/v1/queries', 502, { bearer: API_KEY, json: { service: 'SERVICE_PEP', cpf: CPF } });
    assert.equal(errorCode(failed), 'upstream_error');
    assert.equal(typeof failed.json.error.upstream?.type, 'string');
  } finally {
    stack.sandbox.resetFaults();
  }
  const inspection = await call('POST', '/v1/queries', 200, {
    bearer: API_KEY,
    json: { service: 'SERVICE_DIGITAL_DOCUMENTOSCOPY', image1: IMAGE, image2: IMAGE, selfie1: IMAGE },
  });
  const consult = await call('GET', `/v1/queries/${inspection.json.key}`, 200, { bearer: API_KEY });
  assert.equal(consult.json.key, inspection.json.key);
  assert.equal(errorCode(await call('GET', '/v1/queries/not-a-key', 400, { bearer: API_KEY })), 'invalid_field');
  const read = await call('GET', `/v1/queries/${pep.json.id}`, 200, { bearer: API_KEY });
  assert.equal(read.json.id, pep.json.id);
  assert.equal(read.json.status, 'completed');
  assert.equal(errorCode(await call('GET', '/v1/queries/qry_unknown', 404, { bearer: API_KEY })), 'not_found');
  // Asked for, a synchronous answer is told to the backend too.
  const told = await call('POST', '/v1/queries', 200, { bearer: API_KEY, json: { service: 'SERVICE_PEP', cpf: CPF, notify: true } });
  await untilNotified('query.completed');
  assert.ok(receiver.delivered().some((r) => r.type === 'query.completed' && JSON.parse(r.body).data.requestId === told.json.id));
});

test('session lifecycle: cancel an open session, redact a completed one; refusals', async () => {
  const open = await openSession();
  const cancelled = await call('POST', `/v1/sessions/${open.id}/cancel`, 200, { bearer: API_KEY });
  assert.equal(cancelled.json.status, 'cancelled');
  assert.equal((await call('POST', `/v1/sessions/${open.id}/cancel`, 200, { bearer: API_KEY, json: {} })).json.status, 'cancelled');
  assert.equal(errorCode(await call('GET', '/v1/session', 410, { bearer: open.clientSecret })), 'session_cancelled');
  assert.equal(errorCode(await call('POST', '/v1/onboardings', 410, { bearer: open.clientSecret, json: body() })), 'session_cancelled');
  assert.equal(errorCode(await call('POST', '/v1/sessions/ses_unknown/cancel', 404, { bearer: API_KEY })), 'not_found');
  assert.equal(
    errorCode(await call('POST', `/v1/sessions/${open.id}/cancel`, 400, { bearer: API_KEY, json: { reason: 'x' } })),
    'invalid_request',
  );
  const used = flow.session;
  assert.ok(used, 'the completed session of the flow above');
  assert.equal(errorCode(await call('POST', `/v1/sessions/${used.id}/cancel`, 409, { bearer: API_KEY })), 'session_used');
  const redacted = await call('POST', `/v1/sessions/${used.id}/redact`, 200, { bearer: API_KEY });
  assert.equal(typeof redacted.json.redactedAt, 'string');
  assert.equal(redacted.json.status, 'completed', 'a redacted session keeps its status');
  await call('POST', `/v1/sessions/${used.id}/redact`, 200, { bearer: API_KEY });
  assert.equal(errorCode(await call('POST', '/v1/sessions/ses_unknown/redact', 404, { bearer: API_KEY })), 'not_found');
  await untilNotified('session.cancelled', open.id);
  await untilNotified('session.redacted', used.id);
});

test("every notification the companion sent is valid for the document's webhooks", async () => {
  await untilNotified('session.completed');
  const types = new Set<string>();
  for (const r of receiver.delivered()) {
    assert.ok(r.verified, 'signed with the notify secret');
    types.add(answers.checkNotification(r.body).type);
  }
  for (const type of ['session.submitted', 'session.completed']) assert.ok(types.has(type), type);
});

test('every operation of the document was called and answered as documented', () => {
  const missing = answers.operations
    .filter((o) => !answers.exercised.has(o.id))
    .map((o) => `${o.method.toUpperCase()} ${o.path} (${o.id})`);
  assert.deepEqual(missing, [], `operations no call exercised: ${missing.join(', ')}`);
  assert.equal(answers.exercised.size, answers.operations.length);
});
