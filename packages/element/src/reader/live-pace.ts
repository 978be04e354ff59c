/**
 * How often the document step's live frames are read. A read keeps one core busy (the QR decoder,
 * about 100 ms a frame on this kit's slowest engine); read back to back, it kept WebKit's page
 * from its own thread for 55-65 ms at a time on a two-core machine, as a worker spinning on a plain
 * loop did (60-70 ms), against about 30 ms with the camera and guidance alone. Resting twice as
 * long as the last read took leaves the reader a third of a core, and a code on the card is still
 * looked for several times a second.
 */

/** The rest after a live read, as a multiple of the time that read took. */
export const LIVE_READ_REST = 2;

/** When the next live frame may be read, given when the last read started and ended (ms, one clock). */
export function nextLiveRead(started: number, ended: number): number {
  return ended + Math.max(0, ended - started) * LIVE_READ_REST;
}
