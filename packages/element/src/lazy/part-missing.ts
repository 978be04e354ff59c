/**
 * A lazily loaded file the page does not serve, as the photo steps name it: the refusal of a
 * photo the page could not prepare (its image pipeline is missing), the failure of a camera
 * whose view is missing. The person reads the page's fault (`flow.partMissing`), never a fault
 * of their photo, their camera or their connection.
 */
import { loadFailureOf } from '../messages/lazy-once.js';

/** The code of a photo refusal, or a camera failure, caused by a file the page does not serve. */
export const PART_MISSING = 'part-missing';
export type PartMissing = typeof PART_MISSING;

/** Whether `error` is a lazy file the page does not serve, as lazyOnce marks it. */
export const isPartMissing = (error: unknown): boolean => loadFailureOf(error) === 'missing';
