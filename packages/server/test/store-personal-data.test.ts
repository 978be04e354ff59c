/** The rule of personal data at rest (src/store/rules/personal-data.ts): data keys as written, the sealed form, which fields. */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { DataSealer, sealerFor } from '../src/store/core/data-sealer.js';
import { DataKeyError, StoreConfigError } from '../src/store/errors.js';
import { joinSession, parseDataKeys, sealedParts, splitSession } from '../src/store/rules/personal-data.js';
import type { SessionRecord } from '../src/store/backend-state.js';

const b64 = (fill: number, n = 32) => Buffer.alloc(n, fill).toString('base64');

test('data keys: <id>:<base64 of 32 bytes>, comma-separated, first one first; errors name the entry, never the key', () => {
  const parsed = parseDataKeys(`2026-11:${b64(1)}, old_1:${Buffer.alloc(32, 2).toString('base64url')}`);
  assert.ok(parsed.ok);
  assert.deepEqual(
    parsed.keys.map((k) => [k.id, k.bytes.length, k.bytes[0]]),
    [
      ['2026-11', 32, 1],
      ['old_1', 32, 2],
    ],
  );
  const secret = b64(7, 31);
  for (const [text, message] of [
    [secret, /entry 1 must be <id>:/],
    [`k1:${secret}`, /entry 1 \(key id "k1"\) must hold exactly 32 bytes/],
    [`k1:${b64(1)},k1:${b64(2)}`, /entry 2: key id "k1" is given twice/],
    [`k1:${b64(1)},bad id:${b64(2)}`, /entry 2 must be/],
    [`k1:${b64(1)}!`, /must hold exactly 32 bytes/],
    [`k1:${b64(1)},`, /entry 2 must be/],
  ] as const) {
    const r = parseDataKeys(text);
    assert.ok(!r.ok, text);
    assert.match(r.error, message);
    assert.equal(r.error.includes(secret) || r.error.includes(b64(1)), false, 'no key material in the message');
  }
  assert.throws(
    () => sealerFor(`k1:${secret}`),
    (e: unknown) => e instanceof StoreConfigError && /^ONBOARDING_DATA_KEY: /.test(e.message),
  );
  assert.equal(sealerFor(undefined).sealing, false);
  assert.equal(sealerFor('  ').sealing, false);
});

test('sealing: AES-256-GCM, a fresh IV each time, bound to its record; no key leaves values as given', async () => {
  const keys = parseDataKeys(`k1:${b64(1)}`);
  assert.ok(keys.ok);
  const sealer = new DataSealer(keys.keys);
  const a = await sealer.seal('529.982.247-25', 'session:ses_1');
  const b = await sealer.seal('529.982.247-25', 'session:ses_1');
  assert.notEqual(a, b, 'a fresh IV per seal');
  const parts = sealedParts(a)!;
  assert.equal(parts.keyId, 'k1');
  assert.equal(parts.iv.length, 12);
  assert.equal(parts.ciphertext.length, '529.982.247-25'.length + 16, 'the text and a 16-byte tag');
  assert.equal(await sealer.open(a, 'session:ses_1', 'session ses_1'), '529.982.247-25');
  await assert.rejects(sealer.open(a, 'session:ses_2', 'session ses_2'), DataKeyError, 'moved onto another record, it does not open');
  const flipped = a.slice(0, -2) + (a.endsWith('A') ? 'B' : 'A') + a.slice(-1);
  await assert.rejects(sealer.open(flipped, 'session:ses_1', 'session ses_1'), /does not open with data key "k1"/);
  await assert.rejects(sealer.open('pd1.k1.garbage', 'session:ses_1', 'session ses_1'), /not in a sealed form/);

  const none = new DataSealer();
  assert.equal(await none.seal('{"a":1}', 'outbox:evt_1'), '{"a":1}');
  assert.equal(await none.open('{"a":1}', 'outbox:evt_1', 'notification evt_1'), '{"a":1}');
  await assert.rejects(
    none.open(a, 'session:ses_1', 'session ses_1'),
    /sealed with data key "k1", which this store was not given \(ONBOARDING_DATA_KEY holds no key\)/,
  );
});

test('sessions: the CPF/CNPJ, name, metadata and returnUrl are split off and joined back; the rest stays plain', () => {
  const s: SessionRecord = {
    id: 'ses_1',
    version: 3,
    reference: 'user-1',
    status: 'open',
    createdAt: '2030-01-01T00:00:00.000Z',
    expiresAt: '2030-01-01T00:30:00.000Z',
    taxId: { kind: 'cpf', value: '52998224725' },
    name: 'Maria',
    documentTypes: ['CNH'],
    locale: 'pt-BR',
    returnUrl: 'https://app.example/done',
    metadata: { plan: 'gold' },
  };
  const { rest, personal } = splitSession(s);
  assert.deepEqual(personal, { taxId: s.taxId, name: 'Maria', metadata: { plan: 'gold' }, returnUrl: s.returnUrl });
  assert.deepEqual(Object.keys(rest).sort(), [
    'createdAt',
    'documentTypes',
    'expiresAt',
    'id',
    'locale',
    'metadata',
    'reference',
    'status',
    'version',
  ]);
  assert.deepEqual(rest.metadata, {});
  assert.deepEqual(joinSession({ ...rest, sealed: 'pd1.x' }, personal!), s);
  const bare = { ...s, taxId: undefined, name: undefined, returnUrl: undefined, metadata: {} };
  assert.equal(splitSession(bare).personal, null, 'nothing to seal');
});

test("sessions: the upstream report's services of the outcome are sealed with the prefill and joined back as they were", () => {
  const services = [{ service: 'SERVICE_DIGITAL_DOCUMENTOSCOPY', status: 'REFUSED', message: 'Maria Silva, 529.982.247-25' }];
  const s: SessionRecord = {
    id: 'ses_2',
    version: 4,
    reference: 'user-2',
    status: 'completed',
    createdAt: '2030-01-01T00:00:00.000Z',
    expiresAt: '2030-01-01T00:30:00.000Z',
    documentTypes: [],
    locale: 'pt-BR',
    metadata: {},
    tokenOnboarding: '3f1c9a1e-1111-4222-8333-944455556666',
    outcome: { status: 'REFUSED', at: '2030-01-01T00:10:00.000Z' },
    reportServices: services,
  };
  const { rest, personal } = splitSession(s);
  assert.deepEqual(personal, { reportServices: services });
  assert.equal('reportServices' in rest, false);
  assert.ok(!JSON.stringify(rest).includes('529.982.247-25'), 'nothing of it in the plain part');
  assert.deepEqual(joinSession({ ...rest, sealed: 'pd1.x' }, personal!), s);
});
