/**
 * Attack tests of issue 29, points 7 and 8, against a real companion on a loopback socket (the
 * testing stack: the sandbox plays the upstream over HTTP and sends its webhooks back):
 * - a photo kept anyway is something the backend must learn, not something a page can slip past
 *   it: a creation that declares a selfie kept despite a failed check shows it in
 *   `GET /v1/sessions/{id}`, in the signed `session.submitted` and `session.completed`
 *   notifications, and in the evidence archive's manifest;
 * - an evidence archive is only as safe as its passphrase (zip AES: PBKDF2 with 1,000 rounds):
 *   a weak chosen one is refused, naming the rule and never echoing it, and without one the
 *   archive is encrypted with a generated passphrase the caller gets once.
 */
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { body, startStack, type Stack } from '@onboarding-kit/testing/stack';
import { verifyNotification } from '@onboarding-kit/server';
import type { CreateSessionResponse, NotificationEvent, SessionView } from '@onboarding-kit/contract';
import type { EvidenceManifest } from '../../src/evidence/index.js';
import { readWithZipJs } from '../admin-archive-tools.js';

const API_KEY = 'sk_test_integrity_0123456789abcdef012345';
const ADMIN_KEY = 'admin-key-integrity-0123456789abcdef';
const NOTIFY_SECRET = 'whsec_integrity_0123456789abcdef0123456789';
const CPF_APPROVED = '529.982.247-25';

let stack: Stack;
let receiver: Server;
const received: { event: NotificationEvent<SessionView>; verified: boolean }[] = [];

before(async () => {
  receiver = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const raw = Buffer.concat(chunks);
      void verifyNotification(new Uint8Array(raw), req.headers['onboarding-signature'] as string | undefined, NOTIFY_SECRET).then(
        (verified) => {
          received.push({ event: JSON.parse(raw.toString('utf8')) as NotificationEvent<SessionView>, verified });
          res.writeHead(verified ? 200 : 400).end();
        },
      );
    });
  });
  await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve));
  const notifyUrl = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/kyc-events`;
  stack = await startStack({
    companion: { apiKeys: [API_KEY], adminKey: ADMIN_KEY, notify: { url: notifyUrl, secret: NOTIFY_SECRET } },
  });
});

after(async () => {
  await stack.close();
  await new Promise((resolve) => receiver.close(resolve));
});

const backend = (path: string, init: RequestInit = {}, key = API_KEY) =>
  fetch(`${stack.url}${path}`, {
    ...init,
    headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json', ...(init.headers as Record<string, string>) },
  });

async function openSession(reference: string): Promise<CreateSessionResponse> {
  const res = await backend('/v1/sessions', { method: 'POST', body: JSON.stringify({ reference, cpf: CPF_APPROVED }) });
  assert.equal(res.status, 201, await res.clone().text());
  return (await res.json()) as CreateSessionResponse;
}

async function createIn(session: CreateSessionResponse, payload: Record<string, unknown>): Promise<Response> {
  return fetch(`${stack.url}/v1/onboardings`, {
    method: 'POST',
    headers: { authorization: `Bearer ${session.clientSecret}`, 'content-type': 'application/json' },
    body: JSON.stringify(payload),
  });
}

async function notification(sessionId: string, type: string, timeoutMs = 25_000) {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const found = received.find((r) => r.event.type === type && r.event.data.id === sessionId);
    if (found) return found;
    if (Date.now() > deadline) throw new Error(`no ${type} for ${sessionId}`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

const evidence = (token: string, payload?: unknown) =>
  backend(
    `/v1/admin/onboardings/${token}/evidence`,
    { method: 'POST', ...(payload !== undefined && { body: JSON.stringify(payload) }) },
    ADMIN_KEY,
  );

test('a selfie kept anyway is visible to the backend: the session view, both signed notifications and the evidence manifest', async () => {
  const session = await openSession('integrity-kept');
  const res = await createIn(session, body({ cpf: CPF_APPROVED }, { keptAnyway: { selfie: 'blurry' } }));
  assert.equal(res.status, 201, await res.clone().text());
  const { tokenOnboarding } = (await res.json()) as { tokenOnboarding: string };

  const view = (await (await backend(`/v1/sessions/${session.id}`)).json()) as SessionView;
  assert.equal(view.onboarding?.tokenOnboarding, tokenOnboarding);
  assert.deepEqual(view.onboarding?.keptAnyway, { selfie: 'blurry' });

  for (const type of ['session.submitted', 'session.completed']) {
    const { event, verified } = await notification(session.id, type);
    assert.equal(verified, true, `${type} is signed`);
    assert.deepEqual(event.data.onboarding?.keptAnyway, { selfie: 'blurry' }, type);
  }

  const archive = await evidence(tokenOnboarding);
  assert.equal(archive.status, 200, await archive.clone().text());
  const password = archive.headers.get('evidence-password');
  assert.ok(password, 'the generated passphrase comes once, with the archive');
  const { files, encrypted } = await readWithZipJs(new Uint8Array(await archive.arrayBuffer()), password);
  assert.ok(encrypted.every(Boolean));
  const manifest = JSON.parse(new TextDecoder().decode(files.get('manifest.json'))) as EvidenceManifest;
  assert.deepEqual(manifest.keptAnyway, { selfie: 'blurry' });
  assert.ok(!stack.logs.some((line) => line.includes(password)), 'no log line holds the generated passphrase');
});

test('a creation whose photos all passed says so: no keptAnyway in the view, an empty one in the manifest', async () => {
  const session = await openSession('integrity-clean');
  const res = await createIn(session, body({ cpf: CPF_APPROVED }));
  assert.equal(res.status, 201);
  const { tokenOnboarding } = (await res.json()) as { tokenOnboarding: string };
  const view = (await (await backend(`/v1/sessions/${session.id}`)).json()) as SessionView;
  assert.equal(view.onboarding?.keptAnyway, undefined);
  const archive = await evidence(tokenOnboarding, { encrypt: false });
  assert.equal(archive.status, 200);
  assert.equal(archive.headers.get('evidence-password'), null);
  const { files } = await readWithZipJs(new Uint8Array(await archive.arrayBuffer()));
  assert.deepEqual((JSON.parse(new TextDecoder().decode(files.get('manifest.json'))) as EvidenceManifest).keptAnyway, {});
});

test('a kept-anyway declaration the contract does not know is refused at the edge, naming its field, before anything goes upstream', async () => {
  const session = await openSession('integrity-bogus');
  const before = stack.upstreamCalls.length;
  for (const [keptAnyway, field] of [
    [{ selfie: 'looks-fine-to-me' }, 'keptAnyway.selfie'],
    [{ passport: 'blurry' }, 'keptAnyway.passport'],
    ['selfie', 'keptAnyway'],
  ] as const) {
    const res = await createIn(session, body({ cpf: CPF_APPROVED }, { keptAnyway }));
    assert.equal(res.status, 400);
    const { error } = (await res.json()) as { error: { code: string; field?: string } };
    assert.deepEqual([error.code, error.field], ['invalid_field', field]);
  }
  assert.equal(stack.upstreamCalls.length, before, 'nothing went upstream');
});

test('weak chosen evidence passphrases are refused by name, never echoed; a strong one encrypts', async () => {
  const session = await openSession('integrity-passphrase');
  const res = await createIn(session, body({ cpf: CPF_APPROVED }));
  const { tokenOnboarding } = (await res.json()) as { tokenOnboarding: string };
  for (const weak of ['Administrator!2024', 'aaaaaaaaaaaaaaaaaaaa', 'abcdefghijklmnopqrst', 'qwertyuiopasdfgh', 'shortish-12']) {
    const refused = await evidence(tokenOnboarding, { password: weak });
    const text = await refused.text();
    assert.equal(refused.status, 400, weak);
    const { error } = JSON.parse(text) as { error: { code: string; field?: string; message: string } };
    assert.deepEqual([error.code, error.field], ['invalid_password', 'password']);
    assert.ok(!text.includes(weak), 'the refusal never repeats the passphrase');
    assert.equal(refused.headers.get('evidence-password'), null);
  }
  const strong = 'vento norte, cafe e janela 7';
  const archive = await evidence(tokenOnboarding, { password: strong });
  assert.equal(archive.status, 200);
  assert.equal(archive.headers.get('evidence-password'), null, 'a chosen passphrase is never sent back');
  const zip = new Uint8Array(await archive.arrayBuffer());
  await assert.rejects(readWithZipJs(zip));
  const { encrypted } = await readWithZipJs(zip, strong);
  assert.ok(encrypted.every(Boolean));
  assert.ok(!stack.logs.some((line) => line.includes(strong)), 'no log line holds the passphrase');
});
