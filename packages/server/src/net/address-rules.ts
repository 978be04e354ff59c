/**
 * Which network addresses the companion may send something towards (docs/backend-api.md#standalone-queries):
 * an image URL the upstream fetches must not point inside the integrator's network, and plain
 * http is only for this machine. Pure: the host names are resolved by the caller.
 */
import { isIPv4, isIPv6 } from 'node:net';

/**
 * Whether `url` must be refused in production: plain `http://` to anywhere but this machine. A
 * notification, a session URL or a return URL over http would cross the network readable and
 * changeable by anyone on the path; on a loopback host it never leaves the machine.
 */
export function plainHttpRefused(url: string, environment: string | undefined): boolean {
  if (environment !== 'production') return false;
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    return false;
  }
  return parsed.protocol === 'http:' && !isLoopbackHost(parsed.hostname);
}

/** Why an address must not be fetched, or null for a public one. */
export type AddressRefusal = 'loopback' | 'private' | 'link-local' | 'unique-local' | 'unspecified' | 'broadcast' | 'multicast';

/** `127.0.0.1`, `::1`, `[::1]`, `localhost` or a name under `.localhost`: hosts that never leave this machine. */
export function isLoopbackHost(hostname: string): boolean {
  const host = hostname.toLowerCase().replace(/\.$/, '');
  if (host === 'localhost' || host.endsWith('.localhost')) return true;
  const ip = ipLiteral(host);
  return ip !== undefined && refusalOf(ip) === 'loopback';
}

/** An IP literal host (brackets allowed) as its bytes, or undefined for a name. URL hosts arrive with IPv4 already normalised (`0x7f000001`, `127.1` -> `127.0.0.1`). */
export function ipLiteral(host: string): Uint8Array | undefined {
  const bare = host.startsWith('[') && host.endsWith(']') ? host.slice(1, -1) : host;
  if (isIPv4(bare)) return Uint8Array.from(bare.split('.').map(Number));
  if (isIPv6(bare)) return ipv6Bytes(bare);
  return undefined;
}

/** Why `address` (an IPv4 or IPv6 text, or its bytes) must not be fetched, or null when it is public. */
export function addressRefusal(address: string | Uint8Array): AddressRefusal | null {
  const ip = typeof address === 'string' ? ipLiteral(address) : address;
  // Not an address at all: refused rather than guessed at.
  if (!ip) return 'unspecified';
  return refusalOf(ip);
}

function refusalOf(ip: Uint8Array): AddressRefusal | null {
  if (ip.length === 16) {
    const mapped = ipv4Inside(ip);
    if (mapped) return refusalOf(mapped);
    if (ip.every((b) => b === 0)) return 'unspecified';
    if (ip.subarray(0, 15).every((b) => b === 0) && ip[15] === 1) return 'loopback';
    if ((ip[0]! & 0xfe) === 0xfc) return 'unique-local';
    if (ip[0] === 0xfe && (ip[1]! & 0xc0) === 0x80) return 'link-local';
    // fec0::/10, the deprecated site-local range, still routes inside networks that use it.
    if (ip[0] === 0xfe && (ip[1]! & 0xc0) === 0xc0) return 'private';
    // 64:ff9b:1::/48, the local-use NAT64 prefix (RFC 8215): a network's own translator, which may carry the IPv4 address anywhere in it.
    if (ip[0] === 0x00 && ip[1] === 0x64 && ip[2] === 0xff && ip[3] === 0x9b && ip[4] === 0x00 && ip[5] === 0x01) return 'private';
    if (ip[0] === 0xff) return 'multicast';
    return null;
  }
  const [a, b] = [ip[0]!, ip[1]!];
  if (a === 127) return 'loopback';
  if (a === 0) return 'unspecified';
  if (a === 10 || (a === 172 && b >= 16 && b <= 31) || (a === 192 && b === 168)) return 'private';
  // 100.64/10: carrier-grade NAT, inside a provider's network.
  if (a === 100 && b >= 64 && b <= 127) return 'private';
  if (a === 169 && b === 254) return 'link-local';
  if (a >= 224 && a <= 239) return 'multicast';
  if (a >= 240) return 'broadcast';
  return null;
}

/**
 * The IPv4 address an IPv6 one carries: IPv4-mapped (`::ffff:a.b.c.d`), IPv4-translated
 * (`::ffff:0:a.b.c.d`), IPv4-compatible (`::a.b.c.d`), NAT64 (`64:ff9b::a.b.c.d`) or 6to4
 * (`2002:aabb:ccdd::`): each can reach that IPv4 address.
 */
function ipv4Inside(ip: Uint8Array): Uint8Array | undefined {
  const zeros = (from: number, to: number) => ip.subarray(from, to).every((x) => x === 0);
  const mapped = zeros(0, 10) && ip[10] === 0xff && ip[11] === 0xff;
  const translated = zeros(0, 8) && ip[8] === 0xff && ip[9] === 0xff && zeros(10, 12);
  const compatible = zeros(0, 12) && !zeros(12, 16) && !(zeros(12, 15) && ip[15] === 1);
  const nat64 = ip[0] === 0x00 && ip[1] === 0x64 && ip[2] === 0xff && ip[3] === 0x9b && zeros(4, 12);
  if (mapped || translated || compatible || nat64) return ip.slice(12);
  if (ip[0] === 0x20 && ip[1] === 0x02) return ip.slice(2, 6);
  return undefined;
}

/** The 16 bytes of a valid IPv6 text (zone dropped, an embedded IPv4 read as its two groups). */
function ipv6Bytes(text: string): Uint8Array {
  const s = text
    .split('%')[0]!
    .toLowerCase()
    .replace(/(\d+)\.(\d+)\.(\d+)\.(\d+)$/, (_m, a, b, c, d) =>
      [(Number(a) << 8) | Number(b), (Number(c) << 8) | Number(d)].map((g) => g.toString(16)).join(':'),
    );
  const [head, rest] = s.split('::') as [string, string | undefined];
  const parse = (part: string) => (part ? part.split(':').map((g) => parseInt(g, 16)) : []);
  const left = parse(head);
  const right = parse(rest ?? '');
  const groups = [...left, ...new Array<number>(Math.max(0, 8 - left.length - right.length)).fill(0), ...right];
  const bytes = new Uint8Array(16);
  groups.slice(0, 8).forEach((g, i) => {
    bytes[i * 2] = g >> 8;
    bytes[i * 2 + 1] = g & 0xff;
  });
  return bytes;
}
