/**
 * Whether a run of bytes holds only base64 alphabet characters (`A-Z a-z 0-9 + /`, no padding):
 * the bulk of the pure-base64 check a server runs on every image of a creation (about a megabyte
 * per creation). Where WebAssembly with SIMD runs (Node, current browsers), a 300-byte module
 * checks 32 bytes per step, under half the time of the JavaScript table below; elsewhere, or where
 * it may not be compiled (a page whose CSP lacks 'wasm-unsafe-eval'), the table does it alone.
 */

/** The base64 alphabet, in the order of its values (base64.ts encodes and decodes with it). */
export const ALPHABET = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/';

/** 1 for the bytes of the base64 alphabet (no padding), 0 for every other byte. */
export const ALPHABET_BYTE = /* @__PURE__ */ (() => {
  const table = new Uint8Array(256);
  for (const c of ALPHABET) table[c.charCodeAt(0)] = 1;
  return table;
})();

/** 1 at `(a << 8) | b` when bytes `a` and `b` are both base64 characters (64 KiB, made when first needed). */
let pairs: Uint8Array | undefined;

/** The table's way: two characters per lookup. */
export function alphabetOnlyByTable(text: Uint8Array, from: number, to: number): boolean {
  if (!pairs) {
    pairs = new Uint8Array(65536);
    for (let a = 0; a < 256; a++) if (ALPHABET_BYTE[a]) for (let b = 0; b < 256; b++) pairs[(a << 8) | b] = ALPHABET_BYTE[b]!;
  }
  const p = pairs;
  const view = new DataView(text.buffer, text.byteOffset, text.byteLength);
  let ok = 1;
  let i = from;
  for (; i + 8 <= to; i += 8)
    ok &= p[view.getUint16(i)]! & p[view.getUint16(i + 2)]! & p[view.getUint16(i + 4)]! & p[view.getUint16(i + 6)]!;
  for (; i < to; i++) ok &= ALPHABET_BYTE[text[i]!]!;
  return ok === 1;
}

/**
 * The module: memory `m` (one 64 KiB page, the scratch the bytes are copied into) and
 * `c(start, end) -> i32`, nonzero when a byte of `m[start..end)` is outside the alphabet, for a
 * length that is a multiple of 32. Per 16 bytes `c`: `(c - 'A') <u 26 | (c - 'a') <u 26 |
 * (c - '0') <u 10 | c == '+' | c == '/'`, two such vectors and-ed per step, their complement
 * or-ed into an accumulator tested once at the end.
 */
// biome-ignore format: the bytecode is laid out one WebAssembly instruction group per line
function moduleBytes(): Uint8Array<ArrayBuffer> {
  const SIMD = 0xfd;
  const [LOAD, CONST, EQ, LT_U, NOT, AND, OR, ANY_TRUE, SUB] = [0x00, 0x0c, 0x23, 0x26, 0x4d, 0x4e, 0x50, 0x53, 0x71];
  const get = (i: number) => [0x20, i];
  const set = (i: number) => [0x21, i];
  const splat = (b: number) => [SIMD, CONST, ...new Array<number>(16).fill(b)];
  // Locals: 0 start, 1 end (params), 2 accumulator, 3 the 16 bytes, 4-10 the constants.
  const [A, a, ZERO, N26, N10, PLUS, SLASH] = [4, 5, 6, 7, 8, 9, 10];
  const inAlphabet = () => [
    ...get(3), ...get(A), SIMD, SUB, ...get(N26), SIMD, LT_U,
    ...get(3), ...get(a), SIMD, SUB, ...get(N26), SIMD, LT_U, SIMD, OR,
    ...get(3), ...get(ZERO), SIMD, SUB, ...get(N10), SIMD, LT_U, SIMD, OR,
    ...get(3), ...get(PLUS), SIMD, EQ, SIMD, OR,
    ...get(3), ...get(SLASH), SIMD, EQ, SIMD, OR,
  ];
  const body = [
    0x01, 0x09, 0x7b, // nine v128 locals
    ...splat(65), ...set(A), ...splat(97), ...set(a), ...splat(48), ...set(ZERO), ...splat(26), ...set(N26),
    ...splat(10), ...set(N10), ...splat(43), ...set(PLUS), ...splat(47), ...set(SLASH),
    0x02, 0x40, 0x03, 0x40, // block, loop
    ...get(0), ...get(1), 0x4f, 0x0d, 0x01, // start >= end: out
    ...get(0), SIMD, LOAD, 0x00, 0x00, ...set(3), ...inAlphabet(),
    ...get(0), SIMD, LOAD, 0x00, 0x10, ...set(3), ...inAlphabet(), SIMD, AND,
    SIMD, NOT, ...get(2), SIMD, OR, ...set(2),
    ...get(0), 0x41, 0x20, 0x6a, ...set(0), // start += 32
    0x0c, 0x00, 0x0b, 0x0b, // again; end loop, end block
    ...get(2), SIMD, ANY_TRUE, 0x0b,
  ];
  const leb = (n: number) => {
    const out: number[] = [];
    do {
      const b = n & 0x7f;
      n >>>= 7;
      out.push(n ? b | 0x80 : b);
    } while (n);
    return out;
  };
  const section = (id: number, content: number[]) => [id, ...leb(content.length), ...content];
  const name = (s: string) => [s.length, ...Array.from(s, (ch) => ch.charCodeAt(0))];
  return new Uint8Array([
    0x00, 0x61, 0x73, 0x6d, 0x01, 0x00, 0x00, 0x00,
    ...section(1, [1, 0x60, 2, 0x7f, 0x7f, 1, 0x7f]), // type: (i32, i32) -> i32
    ...section(3, [1, 0]), // one function of that type
    ...section(5, [1, 0x00, 1]), // memory: one page
    ...section(7, [2, ...name('m'), 0x02, 0, ...name('c'), 0x00, 0]), // exports
    ...section(10, [1, ...leb(body.length), ...body]),
  ]);
}

const SCRATCH = 65536;
/** Shorter runs are not worth the copy. */
const SIMD_FROM = 512;

interface SimdScan {
  scratch: Uint8Array;
  check(start: number, end: number): number;
}
let simd: SimdScan | null | undefined;

function simdScan(): SimdScan | null {
  if (simd !== undefined) return simd;
  simd = null;
  try {
    const wasm = (globalThis as { WebAssembly?: typeof WebAssembly }).WebAssembly;
    const bytes = moduleBytes();
    if (wasm?.validate(bytes)) {
      const { exports } = new wasm.Instance(new wasm.Module(bytes));
      simd = { scratch: new Uint8Array((exports.m as WebAssembly.Memory).buffer), check: exports.c as SimdScan['check'] };
    }
  } catch {
    // No SIMD, or compiling refused (CSP): the table alone.
  }
  return simd;
}

/** True when `text[from..to)` holds only base64 alphabet characters (no padding). */
export function alphabetOnly(text: Uint8Array, from: number, to: number): boolean {
  const scan = to - from >= SIMD_FROM ? simdScan() : null;
  if (!scan) return alphabetOnlyByTable(text, from, to);
  let i = from;
  for (; to - i >= 32; ) {
    const n = Math.min(SCRATCH, (to - i) & ~31);
    scan.scratch.set(text.subarray(i, i + n));
    if (scan.check(0, n) !== 0) return false;
    i += n;
  }
  return alphabetOnlyByTable(text, i, to);
}

/** For tests: which way `alphabetOnly` takes on a long run. */
export function alphabetScanKind(): 'simd' | 'table' {
  return simdScan() ? 'simd' : 'table';
}
