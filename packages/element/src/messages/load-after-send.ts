import type { afterSend } from './after-send.js';

export type AfterSendCatalog = typeof afterSend;

let loading: Promise<AfterSendCatalog> | undefined;

/** The waiting and outcome texts, fetched once; a failed fetch is tried again on the next call. */
export function loadAfterSend(): Promise<AfterSendCatalog> {
  loading ??= import('./after-send.js').then(
    (module) => module.afterSend,
    (error: unknown) => {
      loading = undefined;
      throw error;
    },
  );
  return loading;
}
