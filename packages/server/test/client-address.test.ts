/**
 * The client's address as per-address limits count it (transport/client-address.ts): the socket's
 * by default, the one a configured number of trusted proxies wrote otherwise, and IPv6 by its /64.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { addressBucket, clientAddressFrom, forwardedFor, parseAddress } from '../src/transport/index.js';
import { resolveConfig } from '../src/config/resolve-config.js';
import { CompanionConfigError } from '../src/options.js';

test('parseAddress: ports, brackets, zones, quotes and IPv4-mapped IPv6 to the plain address; anything else null', () => {
  const cases: [string, string | null][] = [
    ['203.0.113.7', '203.0.113.7'],
    [' 203.0.113.7:4711 ', '203.0.113.7'],
    ['2001:DB8::1', '2001:db8::1'],
    ['[2001:db8::1]:4711', '2001:db8::1'],
    ['"[2001:db8::1]"', '2001:db8::1'],
    ['fe80::1%eth0', 'fe80::1'],
    ['::ffff:127.0.0.2', '127.0.0.2'],
    ['::ffff:7f00:3', '127.0.0.3'],
    ['0:0:0:0:0:ffff:198.51.100.9', '198.51.100.9'],
    ['unknown', null],
    ['_hidden', null],
    ['', null],
    ['[2001:db8::1', null],
    ['[2001:db8::1]x', null],
    ['203.0.113.256', null],
    ['example.com', null],
  ];
  for (const [raw, plain] of cases) assert.equal(parseAddress(raw), plain, raw);
});

test("addressBucket: IPv6 by its /64, IPv4 as itself, anything else (an integrator's own key) unchanged", () => {
  assert.equal(addressBucket('2001:db8:1:2:3:4:5:6'), '2001:db8:1:2::/64');
  assert.equal(addressBucket('2001:db8:1:2::ffff'), '2001:db8:1:2::/64');
  assert.equal(addressBucket('2001:0db8:0001:0002:aaaa::'), '2001:db8:1:2::/64');
  assert.equal(addressBucket('2001:db8:1:3::1'), '2001:db8:1:3::/64', 'the next /64 is another bucket');
  assert.equal(addressBucket('::1'), '0:0:0:0::/64');
  assert.equal(addressBucket('64:ff9b::192.0.2.1'), '64:ff9b:0:0::/64');
  assert.equal(addressBucket('::ffff:127.0.0.2'), '127.0.0.2');
  assert.equal(addressBucket('198.51.100.9'), '198.51.100.9');
  assert.equal(addressBucket('namespace:abc'), 'namespace:abc');
  assert.equal(addressBucket('unknown'), 'unknown');
});

test('forwardedFor: the for= of one RFC 7239 element, quoted or not, any case; null for obfuscated or missing', () => {
  assert.equal(forwardedFor('for=192.0.2.60;proto=http;by=203.0.113.43'), '192.0.2.60');
  assert.equal(forwardedFor(' proto=https; For="[2001:db8:cafe::17]:4711"'), '2001:db8:cafe::17');
  assert.equal(forwardedFor('for=_hidden'), null);
  assert.equal(forwardedFor('for=unknown'), null);
  assert.equal(forwardedFor('by=203.0.113.43'), null);
});

test('clientAddressFrom: no trusted proxies, the socket whatever the headers say', () => {
  const sources = { socket: '::ffff:127.0.0.1', xForwardedFor: '198.51.100.1', forwarded: 'for=198.51.100.2' };
  assert.equal(clientAddressFrom(sources, 0), '127.0.0.1');
});

test('clientAddressFrom: N trusted proxies take the Nth X-Forwarded-For entry from the right; what the client wrote further left is never read', () => {
  const socket = '10.0.0.5';
  assert.equal(clientAddressFrom({ socket, xForwardedFor: '203.0.113.7' }, 1), '203.0.113.7');
  assert.equal(clientAddressFrom({ socket, xForwardedFor: '6.6.6.6, 203.0.113.7' }, 1), '203.0.113.7', 'a forged entry on the left');
  assert.equal(
    clientAddressFrom({ socket, xForwardedFor: 'garbage, 203.0.113.7' }, 1),
    '203.0.113.7',
    'garbage on the left spoils nothing',
  );
  assert.equal(clientAddressFrom({ socket, xForwardedFor: '6.6.6.6, 203.0.113.7, 10.0.0.4' }, 2), '203.0.113.7');
  assert.equal(clientAddressFrom({ socket, xForwardedFor: '[2001:db8::7]:443, 10.0.0.4' }, 2), '2001:db8::7');
});

test('clientAddressFrom: a missing, short or malformed header falls back to the socket', () => {
  const socket = '10.0.0.5';
  assert.equal(clientAddressFrom({ socket }, 1), socket, 'no header');
  assert.equal(clientAddressFrom({ socket, xForwardedFor: '203.0.113.7' }, 2), socket, 'fewer entries than proxies');
  assert.equal(clientAddressFrom({ socket, xForwardedFor: '6.6.6.6, not-an-address' }, 1), socket, 'no address at its place');
  assert.equal(clientAddressFrom({ socket, xForwardedFor: '' }, 1), socket, 'empty');
  assert.equal(clientAddressFrom({ socket, forwarded: 'for=_hidden' }, 1), socket, 'obfuscated');
  assert.equal(clientAddressFrom({ socket: 'unknown' }, 1), 'unknown', 'no socket (app.request)');
});

test('clientAddressFrom: Forwarded is read only when the request has no X-Forwarded-For', () => {
  const socket = '10.0.0.5';
  assert.equal(clientAddressFrom({ socket, forwarded: 'for=6.6.6.6, for="[2001:db8::9]";proto=https' }, 1), '2001:db8::9');
  assert.equal(clientAddressFrom({ socket, forwarded: 'for=198.51.100.2', xForwardedFor: '203.0.113.7' }, 1), '203.0.113.7');
});

test('trustedProxies is checked: a whole number, 0 for none; the given clientAddress wins, by its /64 for IPv6', () => {
  const base = { baseUrl: 'http://127.0.0.1:1', client: 'c', secret: 's', webhookKey: 'w' };
  for (const bad of [-1, 1.5, Number.NaN])
    assert.throws(
      () => resolveConfig({ ...base, trustedProxies: bad }),
      (e: unknown) => e instanceof CompanionConfigError && /trustedProxies/.test(e.message),
    );
  assert.throws(() => resolveConfig({ ...base, handoff: { codeAttemptsPerMinute: 0 } }), /codeAttemptsPerMinute/);
  const config = resolveConfig({ ...base, trustedProxies: 1, clientAddress: () => '2001:db8:5:6::42' });
  assert.equal(config.clientAddress({} as never), '2001:db8:5:6::/64');
});
