/**
 * When the document reader's worker is fetched: while the browser is idle on the data steps
 * (after consent, so nothing is read before the person agreed), only in a flow with document
 * steps; at the latest on the first document photo. Its file (`onboarding-flow.reader-worker.js`)
 * is fetched once, when the worker starts.
 */
import { idleStartOnce } from '../lazy/idle-start.js';
import { documentReader, type DocumentReader } from './document-reader.js';

/** Starts the reader's worker at the browser's next idle moment, once per page. */
export const preloadReader = idleStartOnce(() => void documentReader());

/** The reader, started now if the data steps did not already; null where the page has no workers. */
export function loadReader(start: () => DocumentReader = documentReader): DocumentReader | null {
  return typeof Worker === 'function' ? start() : null;
}
