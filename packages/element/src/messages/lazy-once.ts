import type { LoadFailure } from '../lazy/load-failure.js';
import { classifyFileFailure } from '../lazy/report-load-failure.js';

/**
 * A lazily loaded module part, fetched once and shared by every caller; a failed fetch is
 * forgotten, so the next call tries again (a flaky network must not break a text for good).
 * With `part` (a name its file holds in every build), a failed fetch is marked with whether the
 * connection or the page is at fault (its `failure`: see loadFailureOf), and a file the page
 * does not serve is named in the console.
 */
export function lazyOnce<T>(load: () => Promise<T>, part?: string): () => Promise<T> {
  let loading: Promise<T> | undefined;
  return () =>
    (loading ??= load().catch(async (error: unknown) => {
      loading = undefined;
      // Every engine throws a TypeError for a fetch that failed; any other error is the part's own.
      if (part && error instanceof TypeError) Object.assign(error, { failure: await classifyFileFailure(part) });
      throw error;
    }));
}

/** Whose fault a failed load of a lazyOnce part is (an error it did not mark: the connection's). */
export function loadFailureOf(error: unknown): LoadFailure {
  return (error as { failure?: LoadFailure } | null)?.failure ?? 'offline';
}
