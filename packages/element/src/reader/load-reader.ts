/**
 * When the document reader's worker is fetched: while the browser is idle on the data steps
 * (after consent, so nothing is read before the person agreed), only in a flow with document
 * steps; at the latest on the first document photo. Its file (`onboarding-flow.reader-worker.js`)
 * is fetched once, when the worker starts.
 */
import { documentReader, type DocumentReader } from './document-reader.js';

/** The longest the data steps wait for an idle moment before the worker is started anyway. */
const IDLE_WAIT_MS = 2_000;

let scheduled = false;

/** Starts the reader's worker at the browser's next idle moment, once per page. */
export function preloadReader(start: () => DocumentReader = documentReader): void {
  if (scheduled || typeof Worker !== 'function') return;
  scheduled = true;
  const load = () => void start();
  if (typeof requestIdleCallback === 'function') requestIdleCallback(load, { timeout: IDLE_WAIT_MS });
  else setTimeout(load, IDLE_WAIT_MS);
}

/** The reader, started now if the data steps did not already; null where the page has no workers. */
export function loadReader(start: () => DocumentReader = documentReader): DocumentReader | null {
  return typeof Worker === 'function' ? start() : null;
}
