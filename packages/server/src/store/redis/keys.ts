/**
 * Key names, all under the store's prefix (default `okit:`):
 * - `onboarding:<token>`: hash of the record (the history as one JSON array field, the session id,
 *   and `moreAccessKeyHash:<hash>` fields); expires at `createdAt + maxAge`, and `retention` after
 *   reaching a terminal status if that is sooner.
 * - `in-process`: set of the tokens still IN_PROCESS; `created`, `finished`: sorted sets of
 *   tokens by creation and outcome time (ms), which `expire()` reads to find old records.
 * - `lease:<name>`: the owner id, with the lease's TTL. `rate:<key>`: a window's counter, with
 *   the window's TTL. `place:<key>`: sorted set of a key's place holders by expiry (ms, Redis's
 *   clock), with the TTL of its last place. `idempotency:<key>`: hash of `fingerprint` and, once completed, `result`;
 *   its TTL is the reservation's and then the result's. `attested:<sha256>`: the nonce an image's
 *   bytes were first attested under, with the TTL they are remembered for.
 * - sessions, their secrets and hand-off keys: ./sessions.ts; the outbox: ./outbox.ts; standalone
 *   query requests: ./query-requests.ts.
 * - channels `changes` (every status change, with the record, published by the script that
 *   applies it) and `session-changes` (`<instance id> <session id>` for every session written).
 *   Each instance subscribes once to each and fans the news out to its own listeners, so
 *   subscribing is immediate and cannot miss a change.
 */
export class RedisKeys {
  constructor(readonly prefix: string) {}

  /** Any key under the prefix. */
  k(name: string): string {
    return `${this.prefix}${name}`;
  }

  onboarding(token: string): string {
    return this.k(`onboarding:${token}`);
  }

  lease(name: string): string {
    return this.k(`lease:${name}`);
  }

  rate(key: string): string {
    return this.k(`rate:${key}`);
  }

  place(key: string): string {
    return this.k(`place:${key}`);
  }

  attested(sha256: string): string {
    return this.k(`attested:${sha256}`);
  }

  idempotency(key: string): string {
    return this.k(`idempotency:${key}`);
  }

  get inProcess(): string {
    return this.k('in-process');
  }

  get created(): string {
    return this.k('created');
  }

  get finished(): string {
    return this.k('finished');
  }

  get changes(): string {
    return this.k('changes');
  }

  get sessionChanges(): string {
    return this.k('session-changes');
  }
}
