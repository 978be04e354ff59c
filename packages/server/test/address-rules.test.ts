/**
 * Which addresses an image URL may point to, and where plain http is allowed
 * (net/address-rules.ts): every spelling of an inner address, as the URL parser hands hosts over.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { addressRefusal, ipLiteral, isLoopbackHost, plainHttpRefused } from '../src/net/address-rules.js';

const hostOf = (url: string) => new URL(url).hostname;
const refusalOfHost = (host: string) => addressRefusal(ipLiteral(hostOf(`https://${host}/`)) ?? 'not an address');

test('inner addresses in every spelling are refused with their kind; public ones are not', () => {
  const cases: Record<string, string | null> = {
    '127.0.0.1': 'loopback',
    '127.1.2.3': 'loopback',
    '127.1': 'loopback',
    '0x7f000001': 'loopback',
    '2130706433': 'loopback',
    '017700000001': 'loopback',
    '[::1]': 'loopback',
    '[::ffff:127.0.0.1]': 'loopback',
    '[::127.0.0.1]': 'loopback',
    '[64:ff9b::127.0.0.1]': 'loopback',
    '[::ffff:0:127.0.0.1]': 'loopback',
    '[2002:7f00:1::]': 'loopback',
    '[2002:a9fe:a9fe::1]': 'link-local',
    '[2002:808:808::]': null,
    '10.0.0.1': 'private',
    '172.16.0.1': 'private',
    '172.31.255.255': 'private',
    '192.168.0.1': 'private',
    '100.64.0.1': 'private',
    '[::ffff:10.0.0.1]': 'private',
    '169.254.169.254': 'link-local',
    '[fe80::1]': 'link-local',
    '[febf::1]': 'link-local',
    '[fc00::1]': 'unique-local',
    '[fdff:ffff::1]': 'unique-local',
    '0.0.0.0': 'unspecified',
    '0.1.2.3': 'unspecified',
    '[::]': 'unspecified',
    '224.0.0.1': 'multicast',
    '[ff02::1]': 'multicast',
    '255.255.255.255': 'broadcast',
    '8.8.8.8': null,
    '172.15.255.255': null,
    '172.32.0.1': null,
    '192.169.0.1': null,
    '[2001:db8::1]': null,
    '[::ffff:8.8.8.8]': null,
    '[fec0::1]': 'private',
    '[64:ff9b:1::a00:1]': 'private',
    '[64:ff9b:1:a00:1::]': 'private',
    '[64:ff9b:2::a00:1]': null,
  };
  for (const [host, expected] of Object.entries(cases)) assert.equal(refusalOfHost(host), expected, host);
  assert.equal(addressRefusal('not an address'), 'unspecified', 'what is not an address is refused, never guessed at');
  assert.equal(addressRefusal('::ffff:192.168.0.4'), 'private', 'resolver answers are read the same way');
});

test('isLoopbackHost: 127/8, ::1, localhost and names under .localhost, nothing else', () => {
  for (const host of [
    '127.0.0.1',
    '127.9.9.9',
    '::1',
    '[::1]',
    'localhost',
    'LOCALHOST',
    'localhost.',
    'app.localhost',
    '[::ffff:127.0.0.1]',
  ])
    assert.ok(isLoopbackHost(host), host);
  for (const host of ['0.0.0.0', '::', '10.0.0.1', 'localhost.example', 'example.com', '128.0.0.1', 'notlocalhost'])
    assert.ok(!isLoopbackHost(host), host);
});

test('plainHttpRefused: http beyond this machine, in production only', () => {
  assert.ok(plainHttpRefused('http://kyc.example/x', 'production'));
  assert.ok(plainHttpRefused('http://kyc.internal/x', 'production'), 'a private network is still a network');
  for (const url of ['https://kyc.example/x', 'http://127.0.0.1:8787/x', 'http://[::1]/x', 'http://localhost/x', 'not a url'])
    assert.ok(!plainHttpRefused(url, 'production'), url);
  assert.ok(!plainHttpRefused('http://kyc.example/x', 'test'));
});
