import type { consentText } from './consent-text.js';

export type ConsentTextCatalog = typeof consentText;

let loading: Promise<ConsentTextCatalog> | undefined;

/** The full consent text, fetched once; a failed fetch is tried again on the next call. */
export function loadConsentText(): Promise<ConsentTextCatalog> {
  loading ??= import('./consent-text.js').then(
    (module) => module.consentText,
    (error: unknown) => {
      loading = undefined;
      throw error;
    },
  );
  return loading;
}
