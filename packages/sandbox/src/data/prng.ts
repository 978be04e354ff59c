/**
 * Deterministic data: a small PRNG (sfc32) seeded from SHA-256 of a label, so the same service
 * and tax id always give the same answer, across processes and machines.
 */
import { createHash } from 'node:crypto';

export class Rng {
  #a: number;
  #b: number;
  #c: number;
  #d: number;

  constructor(label: string) {
    const h = createHash('sha256').update(label).digest();
    this.#a = h.readUInt32LE(0);
    this.#b = h.readUInt32LE(4);
    this.#c = h.readUInt32LE(8);
    this.#d = h.readUInt32LE(12);
    for (let i = 0; i < 12; i++) this.next();
  }

  /** Uniform in [0, 1). */
  next(): number {
    const t = (((this.#a + this.#b) | 0) + this.#d) | 0;
    this.#d = (this.#d + 1) | 0;
    this.#a = this.#b ^ (this.#b >>> 9);
    this.#b = (this.#c + (this.#c << 3)) | 0;
    this.#c = (this.#c << 21) | (this.#c >>> 11);
    this.#c = (this.#c + t) | 0;
    return (t >>> 0) / 4294967296;
  }

  /** Integer in [min, max]. */
  int(min: number, max: number): number {
    return min + Math.floor(this.next() * (max - min + 1));
  }

  bool(pTrue = 0.5): boolean {
    return this.next() < pTrue;
  }

  pick<T>(items: readonly T[]): T {
    return items[Math.floor(this.next() * items.length)]!;
  }

  /** Decimal string with two places, e.g. "1234.56". */
  money(min: number, max: number): string {
    return (this.int(Math.round(min * 100), Math.round(max * 100)) / 100).toFixed(2);
  }

  /** A date `yyyy-MM-dd` between two years (inclusive). */
  date(fromYear: number, toYear: number): string {
    const y = this.int(fromYear, toYear);
    const m = this.int(1, 12);
    const d = this.int(1, 28);
    return `${y}-${String(m).padStart(2, '0')}-${String(d).padStart(2, '0')}`;
  }

  digits(n: number): string {
    let out = '';
    for (let i = 0; i < n; i++) out += String(this.int(0, 9));
    return out;
  }

  /** A UUID-shaped string (version 4 layout) from the stream. */
  uuid(): string {
    const hex = Array.from({ length: 32 }, () => this.int(0, 15).toString(16));
    hex[12] = '4';
    hex[16] = ((this.int(0, 15) & 0x3) | 0x8).toString(16);
    const s = hex.join('');
    return `${s.slice(0, 8)}-${s.slice(8, 12)}-${s.slice(12, 16)}-${s.slice(16, 20)}-${s.slice(20)}`;
  }
}
