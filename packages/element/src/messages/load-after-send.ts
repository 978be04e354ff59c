import type { afterSend } from './after-send.js';
import { lazyOnce } from './lazy-once.js';

export type AfterSendCatalog = typeof afterSend;

/** The waiting and outcome texts, fetched once; a failed fetch is tried again on the next call. */
export const loadAfterSend: () => Promise<AfterSendCatalog> = lazyOnce(
  () => import('./after-send.js').then((module) => module.afterSend),
  'after-send',
);
