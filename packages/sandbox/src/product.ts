/**
 * The product: which call aliases the caller may use and which catalog service each one runs
 * (docs/upstream-api.md#aliases). With an alias configured, the documented identifier itself is no longer callable,
 * as in a real product where only the configured alias exists.
 */
import { SERVICE_IDS, callAlias, isServiceId, serviceForAlias, type AliasMap, type ServiceId } from '@onboarding-kit/contract';

export class Product {
  /** call alias -> catalog service */
  readonly #callable = new Map<string, ServiceId>();

  constructor(enabled: readonly string[] | 'all', aliases: AliasMap) {
    for (const [id, alias] of Object.entries(aliases)) {
      if (!isServiceId(id)) throw new RangeError(`aliases: "${id}" is not a catalog service`);
      if (typeof alias !== 'string' || alias === '') throw new RangeError(`aliases: the alias of ${id} must be a non-empty string`);
    }
    const ids =
      enabled === 'all'
        ? SERVICE_IDS
        : enabled.map((entry) => {
            // An entry is a call alias of this product, or a catalog identifier (which then runs through its alias).
            const id = serviceForAlias(entry, aliases);
            if (!id) throw new RangeError(`enabledServices: "${entry}" names no catalog service`);
            return id;
          });
    for (const id of ids) this.#callable.set(callAlias(id, aliases), id);
  }

  /** The catalog service behind `alias`, or undefined when the product does not enable it. */
  resolve(alias: string): ServiceId | undefined {
    return this.#callable.get(alias);
  }

  get aliases(): string[] {
    return [...this.#callable.keys()];
  }
}
