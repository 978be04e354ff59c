/**
 * AES-256-GCM through Web Crypto (`globalThis.crypto.subtle`) for the personal data of
 * ../rules/personal-data.ts: the first data key seals, every key opens (rotation: put the new key
 * first and keep the old ones until what they sealed has been rewritten or purged). Without keys,
 * values are stored as given, and a sealed value met anyway is refused naming its key id.
 */
import { DataKeyError, StoreConfigError } from '../errors.js';
import { IV_BYTES, isSealed, parseDataKeys, sealedKeyId, sealedParts, sealedText, type DataKey } from '../rules/personal-data.js';

const ALGORITHM = 'AES-GCM';
const encoder = new TextEncoder();
const decoder = new TextDecoder('utf-8', { fatal: true });

export class DataSealer {
  readonly #keys: ReadonlyMap<string, Promise<CryptoKey>>;
  readonly #sealWith: string | undefined;

  constructor(keys: readonly DataKey[] = []) {
    this.#keys = new Map(
      keys.map((k) => [k.id, globalThis.crypto.subtle.importKey('raw', new Uint8Array(k.bytes), ALGORITHM, false, ['encrypt', 'decrypt'])]),
    );
    this.#sealWith = keys[0]?.id;
  }

  /** Whether values are sealed on write (some key was given). */
  get sealing(): boolean {
    return this.#sealWith !== undefined;
  }

  /** The ids of the keys given, the sealing one first. */
  get keyIds(): string[] {
    return [...this.#keys.keys()];
  }

  /** `plaintext` sealed with the first key and bound to `binding`; unchanged when there is no key. */
  async seal(plaintext: string, binding: string): Promise<string> {
    const keyId = this.#sealWith;
    if (keyId === undefined) return plaintext;
    const iv = globalThis.crypto.getRandomValues(new Uint8Array(IV_BYTES));
    const ciphertext = await globalThis.crypto.subtle.encrypt(
      { name: ALGORITHM, iv, additionalData: encoder.encode(binding) },
      await this.#keys.get(keyId)!,
      encoder.encode(plaintext),
    );
    return sealedText({ keyId, iv, ciphertext: new Uint8Array(ciphertext) });
  }

  /** What `seal` gave for the same `binding`, opened with the key its id names; a plain value is returned as is. `what` names the record in errors. */
  async open(stored: string, binding: string, what: string): Promise<string> {
    if (!isSealed(stored)) return stored;
    const parts = sealedParts(stored);
    if (!parts) throw new DataKeyError(`The personal data of ${what} is not in a sealed form this kit reads.`, sealedKeyId(stored));
    const key = this.#keys.get(parts.keyId);
    if (!key)
      throw new DataKeyError(
        `The personal data of ${what} was sealed with data key "${parts.keyId}", which this store was not given (ONBOARDING_DATA_KEY holds ${this.#held()}).`,
        parts.keyId,
      );
    try {
      const plain = await globalThis.crypto.subtle.decrypt(
        { name: ALGORITHM, iv: parts.iv, additionalData: encoder.encode(binding) },
        await key,
        parts.ciphertext,
      );
      return decoder.decode(plain);
    } catch {
      throw new DataKeyError(
        `The personal data of ${what} does not open with data key "${parts.keyId}": that id names other key bytes here, or the stored value was altered.`,
        parts.keyId,
      );
    }
  }

  #held(): string {
    const ids = this.keyIds;
    return ids.length === 0 ? 'no key' : `key ids ${ids.map((id) => `"${id}"`).join(', ')}`;
  }
}

/** The sealer of a store's `dataKey` option (`ONBOARDING_DATA_KEY`'s format); unset or blank: none. */
export function sealerFor(dataKey: string | undefined): DataSealer {
  if (dataKey === undefined || dataKey.trim() === '') return new DataSealer();
  const parsed = parseDataKeys(dataKey);
  if (!parsed.ok) throw new StoreConfigError(`ONBOARDING_DATA_KEY: ${parsed.error}`);
  return new DataSealer(parsed.keys);
}
