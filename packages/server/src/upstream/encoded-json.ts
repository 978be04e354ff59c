/**
 * A JSON body already encoded, in pieces: a creation's images are views of the page's request
 * body, sent as they are (no string, no copy). Its text must be the JSON of an
 * `OnboardingTokenRequest`.
 */
export class EncodedJson {
  /**
   * Settles once no call reads the pieces any more: each call that carried them has written them
   * out or been torn down (a `fetch` given to the client copies them at once). Only then may the
   * memory under them be used for anything else.
   */
  readonly released: Promise<void>;
  #calls = 0;
  #settled = false;
  #release!: () => void;
  constructor(readonly pieces: readonly Uint8Array[]) {
    this.released = new Promise((resolve) => (this.#release = resolve));
  }
  /** A call starts reading the pieces; the function it gets says when it has stopped (once). */
  hold(): () => void {
    this.#calls++;
    let done = false;
    return () => {
      if (done) return;
      done = true;
      if (--this.#calls === 0 && this.#settled) this.#release();
    };
  }
  /** No further call will be made with these pieces: `released` settles as soon as the calls made are done. */
  settle(): void {
    this.#settled = true;
    if (this.#calls === 0) this.#release();
  }
}
