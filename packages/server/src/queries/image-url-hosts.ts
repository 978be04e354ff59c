/**
 * The hosts of image URLs (`image1Url`, `image2Url`) are looked at before a query goes upstream
 * (docs/backend-api.md#standalone-queries): the upstream fetches the URL itself, so one that
 * names or resolves to an address inside a network (loopback, private, link-local, unique-local,
 * unspecified) would have it fetch from wherever it runs. A host name is refused when ANY of its
 * addresses is such: a name with one public and one private address is still a way in.
 */
import { lookup } from 'node:dns/promises';
import { DomainError } from '../errors/domain-error.js';
import { addressRefusal, ipLiteral, isLoopbackHost } from '../net/address-rules.js';
import { URL_FIELDS } from './query-rules.js';

/** Every address a host name has (the companion's option `resolveHost`). */
export type ResolveHost = (hostname: string) => Promise<readonly string[]>;

/** The system resolver, as the upstream's own fetch would most likely see it: every address, in its order. */
export const systemResolveHost: ResolveHost = async (hostname) =>
  (await lookup(hostname, { all: true, verbatim: true })).map((a) => a.address);

/** 400 `invalid_field` naming the URL field whose host is, or resolves to, an address that is not public. */
export async function refuseInnerImageHosts(fields: Readonly<Record<string, string>>, resolveHost: ResolveHost): Promise<void> {
  for (const name of Object.keys(URL_FIELDS)) {
    const value = fields[name];
    if (value === undefined) continue;
    const hostname = new URL(value).hostname;
    const refused = (why: string) =>
      new DomainError('invalid_field', `${name} must point to a public host: its host ${why}.`, { field: name });
    const literal = ipLiteral(hostname);
    if (literal) {
      const refusal = addressRefusal(literal);
      if (refusal) throw refused(`is a ${refusal} address`);
      continue;
    }
    // Names that never leave the machine are refused without asking any resolver.
    if (isLoopbackHost(hostname)) throw refused('is this machine');
    let addresses: readonly string[];
    try {
      addresses = await resolveHost(hostname);
    } catch {
      throw refused('could not be resolved');
    }
    if (addresses.length === 0) throw refused('could not be resolved');
    for (const address of addresses) {
      const refusal = addressRefusal(address);
      if (refusal) throw refused(`resolves to a ${refusal} address`);
    }
  }
}
