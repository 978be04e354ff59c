import type { consentText } from './consent-text.js';
import { lazyOnce } from './lazy-once.js';

export type ConsentTextCatalog = typeof consentText;

/** The full consent text, fetched once; a failed fetch is tried again on the next call. */
export const loadConsentText: () => Promise<ConsentTextCatalog> = lazyOnce(
  () => import('./consent-text.js').then((module) => module.consentText),
  'consent-text',
);
