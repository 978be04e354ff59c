/**
 * The notification signature as a receiver meets it: only an untouched body, signed with the
 * receiver's secret at a recent time, passes; anything else is false, never a throw.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { createHmac } from 'node:crypto';
import { signNotification, verifyNotification } from '@onboarding-kit/server/verify';

const SECRET = 'whsec-test-0123456789abcdefghijklmnopqrstuvwxyz';
const OTHER = 'whsec-other-0123456789abcdefghijklmnopqrstuvwxy';
const BODY = JSON.stringify({
  id: 'evt_1',
  type: 'session.completed',
  createdAt: '2026-11-23T21:00:00.000Z',
  data: { id: 'ses_1', note: 'ação ✓' },
});
const T = 1_790_000_000;
const NOW = T * 1000;

test('the header is t and one v1 per secret, each the hex HMAC-SHA256 of "<t>.<body>"', async () => {
  const header = await signNotification(BODY, [SECRET, OTHER], T);
  const mac = (s: string) => createHmac('sha256', s).update(`${T}.${BODY}`).digest('hex');
  assert.equal(header, `t=${T},v1=${mac(SECRET)},v1=${mac(OTHER)}`);
});

test('a good signature passes, as a string or as the bytes received', async () => {
  const header = await signNotification(BODY, [SECRET], T);
  assert.equal(await verifyNotification(BODY, header, SECRET, { now: NOW }), true);
  assert.equal(await verifyNotification(new TextEncoder().encode(BODY), header, SECRET, { now: NOW }), true);
  // A Buffer slice of a larger pool, as node:http hands out.
  const pooled = Buffer.concat([Buffer.from('xx'), Buffer.from(BODY)]).subarray(2);
  assert.equal(await verifyNotification(pooled, header, SECRET, { now: NOW }), true);
});

test('a changed body fails, however small the change', async () => {
  const header = await signNotification(BODY, [SECRET], T);
  assert.equal(await verifyNotification(BODY.replace('ses_1', 'ses_2'), header, SECRET, { now: NOW }), false);
  assert.equal(await verifyNotification(`${BODY} `, header, SECRET, { now: NOW }), false);
  assert.equal(await verifyNotification(JSON.stringify(JSON.parse(BODY), null, 1), header, SECRET, { now: NOW }), false);
});

test('a wrong secret fails', async () => {
  const header = await signNotification(BODY, [OTHER], T);
  assert.equal(await verifyNotification(BODY, header, SECRET, { now: NOW }), false);
});

test('a timestamp beyond the tolerance fails, in the past and in the future', async () => {
  const header = await signNotification(BODY, [SECRET], T);
  assert.equal(await verifyNotification(BODY, header, SECRET, { now: NOW + 300_000 }), true);
  assert.equal(await verifyNotification(BODY, header, SECRET, { now: NOW - 300_000 }), true);
  assert.equal(await verifyNotification(BODY, header, SECRET, { now: NOW + 301_000 }), false);
  assert.equal(await verifyNotification(BODY, header, SECRET, { now: NOW - 301_000 }), false);
  assert.equal(await verifyNotification(BODY, header, SECRET, { now: NOW + 20_000, toleranceS: 10 }), false);
  assert.equal(await verifyNotification(BODY, header, SECRET, { now: NOW + 5_000, toleranceS: 10 }), true);
  // Without `now`, the real clock: a signature from 2026-ish is far in the past or future of it only when the tolerance says so.
  const fresh = await signNotification(BODY, [SECRET], Math.floor(Date.now() / 1000));
  assert.equal(await verifyNotification(BODY, fresh, SECRET), true);
  assert.equal(await verifyNotification(BODY, await signNotification(BODY, [SECRET], Math.floor(Date.now() / 1000) - 3600), SECRET), false);
});

test('during a rotation any v1 that matches passes, in any position', async () => {
  const both = await signNotification(BODY, [OTHER, SECRET], T);
  assert.equal(await verifyNotification(BODY, both, SECRET, { now: NOW }), true);
  assert.equal(await verifyNotification(BODY, both, OTHER, { now: NOW }), true);
  assert.equal(await verifyNotification(BODY, both, 'a-third-secret-nobody-signed-with-0123456789', { now: NOW }), false);
  // Unknown schemes next to v1 (a later v2) are skipped, not refused.
  const [t, v1] = (await signNotification(BODY, [SECRET], T)).split(',');
  assert.equal(await verifyNotification(BODY, `${t},v2=abc,${v1}`, SECRET, { now: NOW }), true);
  assert.equal(await verifyNotification(BODY, ` ${v1} , ${t} `, SECRET, { now: NOW }), true);
});

test('malformed headers fail', async () => {
  const good = await signNotification(BODY, [SECRET], T);
  const [t, v1] = good.split(',') as [string, string];
  const mac = v1.slice(3);
  const bad = [
    '',
    'garbage',
    t,
    v1,
    `${t},${t},${v1}`,
    `t=,${v1}`,
    `t=-${T},${v1}`,
    `t=${T}.5,${v1}`,
    `t=1e9,${v1}`,
    `${t},v1=`,
    `${t},v1=${mac.slice(0, 63)}`,
    `${t},v1=${mac}00`,
    `${t},v1=${mac.replace(/^./, 'z')}`,
    `${t},v1=${mac.toUpperCase()}x`,
    `${t},,${v1}`,
    `${t};${v1}`,
    `${t},${v1},=x`,
    `${t},${Array.from({ length: 9 }, () => v1).join(',')}`,
    `${t},${v1},${'x'.repeat(5000)}=1`,
  ];
  for (const header of bad) assert.equal(await verifyNotification(BODY, header, SECRET, { now: NOW }), false, header.slice(0, 80));
  // Hex case is not meaning: an upper-case MAC is the same MAC.
  assert.equal(await verifyNotification(BODY, `${t},v1=${mac.toUpperCase()}`, SECRET, { now: NOW }), true);
});

test('garbage of any type gives false, never a throw', async () => {
  const good = await signNotification(BODY, [SECRET], T);
  const junk: unknown[] = [undefined, null, 0, 1, NaN, true, {}, [], () => 1, Symbol('x'), 10n, new ArrayBuffer(4), new Date()];
  for (const j of junk) {
    assert.equal(await verifyNotification(j as string, good, SECRET, { now: NOW }), false);
    assert.equal(await verifyNotification(BODY, j as string, SECRET, { now: NOW }), false);
    assert.equal(await verifyNotification(BODY, good, j as string, { now: NOW }), false);
    // Odd options are no reason to throw either (the real clock then says the 2026 signature is stale, or the options are unreadable).
    assert.equal(await verifyNotification(BODY, good, SECRET, j as never), false);
    // Not a number: the real clock stands in (for which this signature is stale) or the input is refused.
    assert.equal(await verifyNotification(BODY, good, SECRET, { now: j as number }), false);
    // Signed exactly at NOW: any tolerance that is a number >= 0 passes, anything else is refused.
    assert.equal(
      await verifyNotification(BODY, good, SECRET, { now: NOW, toleranceS: j as number }),
      j === undefined || j === 0 || j === 1,
    );
  }
  assert.equal(await verifyNotification(BODY, good, '', { now: NOW }), false);
  assert.equal(await verifyNotification(BODY, good, SECRET, { now: NOW, toleranceS: -1 }), false);
});

test('signing refuses what could never verify', async () => {
  await assert.rejects(signNotification(BODY, [], T), RangeError);
  await assert.rejects(signNotification(BODY, [SECRET], -1), RangeError);
  await assert.rejects(signNotification(BODY, [SECRET], 1.5), RangeError);
});

test('every v1 MAC goes through Web Crypto verify (constant time), whatever its hex case: never a string comparison', async () => {
  const header = await signNotification(BODY, [OTHER, SECRET], T);
  const upper = header.replace(/v1=([0-9a-f]+)/g, (_, mac: string) => `v1=${mac.toUpperCase()}`);
  const subtle = globalThis.crypto.subtle;
  const calls = { verify: 0, sign: 0 };
  const { verify, sign } = subtle;
  // Own properties shadow the prototype's methods while the test runs.
  Object.assign(subtle, {
    verify(...args: Parameters<SubtleCrypto['verify']>) {
      calls.verify++;
      return verify.apply(subtle, args);
    },
    sign(...args: Parameters<SubtleCrypto['sign']>) {
      calls.sign++;
      return sign.apply(subtle, args);
    },
  });
  try {
    for (const h of [header, upper]) assert.equal(await verifyNotification(BODY, h, SECRET, { now: NOW }), true, h);
    assert.equal(await verifyNotification(BODY, upper, 'whsec-wrong-0123456789abcdefghijklmnopqrstuvwx', { now: NOW }), false);
  } finally {
    delete (subtle as Partial<Record<'verify' | 'sign', unknown>>).verify;
    delete (subtle as Partial<Record<'verify' | 'sign', unknown>>).sign;
  }
  // Two signatures per header, three headers: each MAC verified, none recomputed and compared as text.
  assert.deepEqual(calls, { verify: 6, sign: 0 });
});
