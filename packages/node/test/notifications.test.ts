/**
 * `constructEvent` accepts exactly what the companion signs (packages/server's signNotification,
 * the code its outbox uses) and refuses everything else with a typed reason.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { signNotification } from '@onboarding-kit/server/verify';
import { constructEvent, SignatureVerificationError, type SignatureFailure } from '@onboarding-kit/node';

const SECRET = 'whsec_unit_0123456789abcdef0123456789abcdef';
const OLD = 'whsec_old_0123456789abcdef0123456789abcdef0';
const NOW_S = 1_795_467_845;
const NOW_MS = NOW_S * 1000;

const event = {
  id: 'evt_3f1c',
  type: 'session.completed',
  createdAt: '2026-11-23T21:04:05.120Z',
  environment: 'test',
  data: { id: 'ses_1', reference: 'user-8812', status: 'completed', createdAt: 'x', expiresAt: 'y', metadata: { nome: 'João' } },
};
const raw = JSON.stringify(event);

const refusal = (reason: SignatureFailure) => (e: unknown) => {
  assert.ok(e instanceof SignatureVerificationError, String(e));
  assert.equal(e.reason, reason, e.message);
  return true;
};

test('what signNotification makes verifies, from a string, a Buffer, a Uint8Array or an ArrayBuffer', async () => {
  const header = await signNotification(raw, [SECRET], NOW_S);
  const bytes = new TextEncoder().encode(raw);
  for (const body of [raw, Buffer.from(raw), bytes, bytes.buffer.slice(0)]) {
    assert.deepEqual(await constructEvent(body, header, SECRET, { now: NOW_MS }), event);
  }
});

test('a rotation: signed with both secrets, a receiver holding either one verifies; one holding both too', async () => {
  const header = await signNotification(raw, [SECRET, OLD], NOW_S);
  assert.equal((header.match(/v1=/g) ?? []).length, 2);
  for (const secrets of [SECRET, OLD, [OLD, SECRET], [SECRET]]) {
    assert.equal((await constructEvent(raw, header, secrets, { now: NOW_MS })).id, 'evt_3f1c');
  }
  // Signed with the old one only, a receiver moved to the new one alone refuses it.
  const oldOnly = await signNotification(raw, [OLD], NOW_S);
  await assert.rejects(constructEvent(raw, oldOnly, SECRET, { now: NOW_MS }), refusal('no_matching_signature'));
});

test('the tolerance: 300 s either way by default, configurable', async () => {
  const header = await signNotification(raw, [SECRET], NOW_S);
  await constructEvent(raw, header, SECRET, { now: NOW_MS + 300_000 });
  await constructEvent(raw, header, SECRET, { now: NOW_MS - 300_000 });
  await assert.rejects(constructEvent(raw, header, SECRET, { now: NOW_MS + 301_000 }), refusal('timestamp_out_of_tolerance'));
  await assert.rejects(constructEvent(raw, header, SECRET, { now: NOW_MS - 301_000 }), refusal('timestamp_out_of_tolerance'));
  await constructEvent(raw, header, SECRET, { now: NOW_MS + 3_000_000, toleranceS: 3600 });
  await assert.rejects(
    constructEvent(raw, header, SECRET, { now: NOW_MS + 11_000, toleranceS: 10 }),
    refusal('timestamp_out_of_tolerance'),
  );
  // Without `now`, the clock: a fresh signature passes.
  await constructEvent(raw, await signNotification(raw, [SECRET], Math.floor(Date.now() / 1000)), SECRET);
});

test('refusals, each with its reason', async () => {
  const header = await signNotification(raw, [SECRET], NOW_S);
  const at = { now: NOW_MS };
  await assert.rejects(constructEvent(raw, undefined, SECRET, at), refusal('missing_header'));
  await assert.rejects(constructEvent(raw, null, SECRET, at), refusal('missing_header'));
  await assert.rejects(constructEvent(raw, '', SECRET, at), refusal('missing_header'));
  for (const bad of [
    'garbage',
    `t=${NOW_S}`,
    'v1=' + 'a'.repeat(64),
    `t=abc,v1=${'a'.repeat(64)}`,
    `t=${NOW_S},t=${NOW_S},v1=${'a'.repeat(64)}`,
    `t=${NOW_S},v1=xyz`,
    `t=${NOW_S},${Array.from({ length: 9 }, () => `v1=${'a'.repeat(64)}`).join(',')}`,
    `t=${NOW_S},v1=${'a'.repeat(64)},${'x'.repeat(5000)}`,
  ])
    await assert.rejects(constructEvent(raw, bad, SECRET, at), refusal('malformed_header'));
  // A later scheme next to v1 is skipped, not refused.
  assert.equal((await constructEvent(raw, `${header},v2=whatever`, SECRET, at)).id, 'evt_3f1c');
  await assert.rejects(constructEvent(`${raw} `, header, SECRET, at), refusal('no_matching_signature'));
  await assert.rejects(constructEvent(raw.replace('João', 'Joao'), header, SECRET, at), refusal('no_matching_signature'));
  // Parsed and serialised again (express.json() before the receiver): not the bytes that were signed.
  await assert.rejects(constructEvent(event as never, header, SECRET, at), refusal('invalid_payload'));
});

test('a header given as Node gives repeated headers (an array) is read whole', async () => {
  const [t, v1] = (await signNotification(raw, [SECRET], NOW_S)).split(',') as [string, string];
  assert.equal((await constructEvent(raw, [t, v1], SECRET, { now: NOW_MS })).id, 'evt_3f1c');
});

test('signed but not a notification: invalid_payload', async () => {
  for (const body of [
    'not json',
    '[1,2]',
    '{"id":"evt_1","type":"session.completed","createdAt":"x"}',
    '{"id":1,"type":"t","createdAt":"x","data":{}}',
  ]) {
    await assert.rejects(
      constructEvent(body, await signNotification(body, [SECRET], NOW_S), SECRET, { now: NOW_MS }),
      refusal('invalid_payload'),
    );
  }
  const badUtf8 = new Uint8Array([0x7b, 0xff, 0x7d]);
  const header = await signNotification('x', [SECRET], NOW_S);
  await assert.rejects(constructEvent(badUtf8, header, SECRET, { now: NOW_MS }), SignatureVerificationError);
});

test('no usable secret is a configuration fault (TypeError, so the receiver answers 5xx and the event comes again)', async () => {
  const header = await signNotification(raw, [SECRET], NOW_S);
  for (const secrets of ['', [], [''], [SECRET, ''], undefined, 42])
    await assert.rejects(constructEvent(raw, header, secrets as never, { now: NOW_MS }), (e: unknown) => {
      assert.ok(e instanceof TypeError);
      assert.equal(e instanceof SignatureVerificationError, false);
      return true;
    });
});

test('no error message holds the secret or the signature', async () => {
  const header = await signNotification(raw, [SECRET], NOW_S);
  const errors = await Promise.all([
    constructEvent(raw, header, OLD, { now: NOW_MS }).catch((e: Error) => e),
    constructEvent(raw, header, SECRET, { now: 0 }).catch((e: Error) => e),
    constructEvent('x', header, SECRET, { now: NOW_MS }).catch((e: Error) => e),
  ]);
  const mac = header.split('v1=')[1]!;
  for (const e of errors) {
    assert.ok(e instanceof SignatureVerificationError);
    for (const secret of [SECRET, OLD, mac]) assert.equal(`${e.message} ${e.stack}`.includes(secret), false);
  }
});
