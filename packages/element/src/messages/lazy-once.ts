/**
 * A lazily loaded module part, fetched once and shared by every caller; a failed fetch is
 * forgotten, so the next call tries again (a flaky network must not break a text for good).
 */
export function lazyOnce<T>(load: () => Promise<T>): () => Promise<T> {
  let loading: Promise<T> | undefined;
  return () =>
    (loading ??= load().catch((error: unknown) => {
      loading = undefined;
      throw error;
    }));
}
