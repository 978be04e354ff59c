/**
 * The texts the flow fetches after its first load, as a Lit reactive controller: the full
 * consent text behind "Ler detalhes" (once the element connects) and the waiting and outcome
 * texts (once the person nears sending, or a reload resumes a wait). A failed fetch is tried
 * again on the next ask; until then the flow shows what it has (the headings, the status).
 */
import type { ReactiveController, ReactiveElement } from 'lit';
import { loadAfterSend, type AfterSendCatalog } from '../messages/load-after-send.js';
import { loadConsentText, type ConsentTextCatalog } from '../messages/load-consent-text.js';
import { loadFailureOf } from '../messages/lazy-once.js';

/** A text the flow fetches after its first load. */
export type LazyText = 'consent' | 'afterSend';

export class LazyTextsController implements ReactiveController {
  readonly #host: ReactiveElement;
  #consent: ConsentTextCatalog | null = null;
  #afterSend: AfterSendCatalog | null = null;
  /** The texts a fetch of which failed because the page does not serve their file (shown instead once they load). */
  readonly missing = new Set<LazyText>();

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
      (error: unknown) => this.#failed('consent', error),
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
      (error: unknown) => this.#failed('afterSend', error),
    );
  }

  /** A fetch of `text` failed: the page's fault is kept for the steps to say (the connection's, tried again unsaid). */
  #failed(text: LazyText, error: unknown): void {
    if (loadFailureOf(error) !== 'missing') return;
    this.missing.add(text);
    this.#host.requestUpdate();
  }
}
