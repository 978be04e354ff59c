/**
 * The texts the flow fetches after its first load, as a Lit reactive controller: the full
 * consent text behind "Ler detalhes" (once the element connects) and the waiting and outcome
 * texts (once the person nears sending, or a reload resumes a wait). A failed fetch is tried
 * again on the next ask; until then the flow shows what it has (the headings, the status).
 */
import type { ReactiveController, ReactiveElement } from 'lit';
import { loadAfterSend, type AfterSendCatalog } from '../messages/load-after-send.js';
import { loadConsentText, type ConsentTextCatalog } from '../messages/load-consent-text.js';

export class LazyTextsController implements ReactiveController {
  readonly #host: ReactiveElement;
  #consent: ConsentTextCatalog | null = null;
  #afterSend: AfterSendCatalog | null = null;

  constructor(host: ReactiveElement) {
    this.#host = host;
    host.addController(this);
  }

  get consent(): ConsentTextCatalog | null {
    return this.#consent;
  }
  get afterSend(): AfterSendCatalog | null {
    return this.#afterSend;
  }

  hostConnected(): void {
    this.loadConsent();
  }

  loadConsent(): void {
    if (this.#consent) return;
    loadConsentText().then(
      (text) => {
        this.#consent = text;
        this.#host.requestUpdate();
      },
      () => undefined,
    );
  }

  /** Resolves once the waiting and outcome texts are here, or could not be fetched. */
  loadAfterSend(): Promise<void> {
    if (this.#afterSend) return Promise.resolve();
    return loadAfterSend().then(
      (catalog) => {
        this.#afterSend = catalog;
        this.#host.requestUpdate();
      },
      () => undefined,
    );
  }
}
