/**
 * The client's address as every per-address limit counts it (docs/page-api.md#client-addresses):
 * the socket's, or, behind `trustedProxies` proxies, the address the farthest trusted proxy saw,
 * read from `X-Forwarded-For` (or, without it, RFC 7239 `Forwarded`) that many entries from the
 * right. Entries further left are whatever the client sent and are never read, so a forged header
 * can neither pick an address nor spoil the one a proxy appended. An IPv6 address is counted by
 * its /64, the block one subscriber usually holds whole.
 */
import { ipLiteral } from '../net/address-rules.js';
import { isIP } from 'node:net';
import type { Context } from 'hono';
import { socketAddress } from './node-bindings.js';
import { requestHeader } from './request-header.js';

/** An address as a socket or a proxy header writes it (port, brackets, zone, IPv4-mapped IPv6) to its plain form; null if it is none. */
export function parseAddress(raw: string): string | null {
  let a = raw.trim();
  if (a.startsWith('"') && a.endsWith('"') && a.length >= 2) a = a.slice(1, -1);
  if (a.startsWith('[')) {
    const end = a.indexOf(']');
    if (end < 0 || !/^(:\d{1,5})?$/.test(a.slice(end + 1))) return null;
    a = a.slice(1, end);
  } else if (/^[\d.]+:\d{1,5}$/.test(a)) {
    a = a.slice(0, a.indexOf(':'));
  }
  a = a.replace(/%.*$/, '').toLowerCase();
  const version = isIP(a);
  if (version === 4) return a;
  if (version !== 6) return null;
  const b = ipLiteral(a)!;
  // An IPv4-mapped address (a dual-stack socket's view of an IPv4 client) is that IPv4 address.
  return b.subarray(0, 10).every((x) => x === 0) && b[10] === 0xff && b[11] === 0xff ? [...b.subarray(12)].join('.') : a;
}

/** The `hops`-th entry from the right of a comma-separated header, or undefined when it has fewer. */
function fromRight(header: string, hops: number): string | undefined {
  const entries = header.split(',');
  return entries.length >= hops ? entries[entries.length - hops] : undefined;
}

/** The `for=` address of one RFC 7239 `Forwarded` element (`for=192.0.2.60;proto=https`), or null. */
export function forwardedFor(element: string): string | null {
  for (const pair of element.split(';')) {
    const eq = pair.indexOf('=');
    if (eq > 0 && pair.slice(0, eq).trim().toLowerCase() === 'for') return parseAddress(pair.slice(eq + 1));
  }
  return null;
}

export interface AddressSources {
  /** The socket's remote address. */
  socket: string;
  xForwardedFor?: string | undefined;
  forwarded?: string | undefined;
}

/**
 * The client's address `trustedProxies` hops from the right of `X-Forwarded-For` (or, when the
 * request has none, of `Forwarded`); the socket's when there are no trusted proxies, or the header
 * is missing, too short or not an address at that place.
 */
export function clientAddressFrom(sources: AddressSources, trustedProxies: number): string {
  const socket = parseAddress(sources.socket) ?? sources.socket;
  if (trustedProxies <= 0) return socket;
  if (sources.xForwardedFor !== undefined) {
    const entry = fromRight(sources.xForwardedFor, trustedProxies);
    return (entry !== undefined && parseAddress(entry)) || socket;
  }
  if (sources.forwarded !== undefined) {
    const element = fromRight(sources.forwarded, trustedProxies);
    return (element !== undefined && forwardedFor(element)) || socket;
  }
  return socket;
}

/** What a per-address limit counts: an IPv6 address by its /64 (`2001:db8:0:1::/64`), anything else as it is. */
export function addressBucket(address: string): string {
  const plain = parseAddress(address);
  if (plain === null) return address;
  if (isIP(plain) === 4) return plain;
  const bytes = ipLiteral(plain)!;
  const groups = [0, 2, 4, 6].map((i) => ((bytes[i]! << 8) | bytes[i + 1]!).toString(16));
  return `${groups.join(':')}::/64`;
}

/** The companion's `clientAddress`: an integrator's function when given, else the socket behind `trustedProxies` proxies; IPv6 by its /64 either way. */
export function clientAddressResolver(trustedProxies: number, given?: (c: Context) => string): (c: Context) => string {
  const raw =
    given ??
    ((c: Context) =>
      clientAddressFrom(
        { socket: socketAddress(c), xForwardedFor: requestHeader(c, 'x-forwarded-for'), forwarded: requestHeader(c, 'forwarded') },
        trustedProxies,
      ));
  return (c) => addressBucket(raw(c));
}
