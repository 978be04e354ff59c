/**
 * The CPF and name read from the document (a session's `prefillFromDocument`), as a Lit reactive
 * controller of `<onboarding-flow>`: on the CPF step, which then follows the document's photos,
 * it asks the companion what the upstream's OCR reads of them (again only when the photos
 * change), offers what came back for the person to confirm or correct, and where nothing could be
 * read says so and leaves the CPF field to the person: reading is a help, never a gate.
 */
import { formatCpf, isValidCpf, maskTaxIdForPage, type DocumentPrefill } from '@onboarding-kit/contract';
import type { ReactiveController, ReactiveElement } from 'lit';
import { documentPrefill } from '../api/companion-client.js';
import { CompanionError } from '../api/errors.js';
import { LatestRun } from '../controllers/latest-run.js';
import { prefillTexts, type PrefillTexts } from '../messages/document-prefill.js';
import type { FlowRefs } from '../onboarding-flow/flow-refs.js';

/** Where the read stands: asked, answered (what was read), or nothing usable (unreadable, or the call failed). */
export type PrefillState =
  | { kind: 'none' }
  | { kind: 'reading' }
  | { kind: 'read'; read: DocumentPrefill }
  | { kind: 'unreadable' }
  | { kind: 'failed' };

/** A read that never answers is given up: the person types the CPF instead. */
const READ_TIMEOUT_MS = 20_000;

export class DocumentPrefillController implements ReactiveController {
  readonly #host: ReactiveElement;
  readonly #options: FlowRefs;
  readonly #run = new LatestRun();
  #state: PrefillState = { kind: 'none' };
  /** The photos last read: the same photos are not sent again. */
  #readFor: readonly (string | null | undefined)[] = [];
  /** The person chose to correct what was read: the usual form shows. */
  #correcting = false;
  #revealed = false;

  constructor(host: ReactiveElement, options: FlowRefs) {
    this.#host = host;
    this.#options = options;
    host.addController(this);
  }

  get state(): PrefillState {
    return this.#state;
  }
  get texts(): PrefillTexts {
    return prefillTexts[this.#options.context.current.locale];
  }
  get correcting(): boolean {
    return this.#correcting;
  }
  get revealed(): boolean {
    return this.#revealed;
  }

  /** The CPF read, as the step shows it: masked until the person asks to see it whole. */
  shownCpf(cpf: string): string {
    return this.#revealed ? formatCpf(cpf) : maskTaxIdForPage(cpf);
  }

  hostUpdated(): void {
    const { nav, shape, capture, details } = this.#options;
    // Read on the CPF step, where it then follows the document's photos.
    if (nav.step !== 'cpf' || !shape().cpfAfterDocument) return;
    const photos = capture()?.photos;
    const front = photos?.documentFront;
    const back = photos?.documentBack;
    const type = details.documentType;
    // By their JPEGs: a reading arriving on a photo makes a new record of the same photo.
    const key = [front?.base64, back?.base64, type];
    if (!front || !type || key.every((part, i) => part === this.#readFor[i])) return;
    this.#readFor = key;
    void this.#read({ documentType: type, images: { documentFront: front.base64, ...(back && { documentBack: back.base64 }) } });
  }

  /** The data read is right: it is what the creation sends. */
  confirm(): void {
    if (this.#state.kind === 'read') this.#options.details.fill(this.#state.read);
    this.#options.details.submitCpf();
  }

  /** The person corrects what was read in the usual fields, which start from it. */
  correct(): void {
    this.#correcting = true;
    this.#host.requestUpdate();
    void this.#host.updateComplete.then(() => this.#host.renderRoot.querySelector<HTMLElement>('#cpf')?.focus());
  }

  toggleReveal(): void {
    this.#revealed = !this.#revealed;
    this.#host.requestUpdate();
  }

  /** Another flow (or new photos after a retry): what was read no longer applies. */
  reset(): void {
    this.#run.cancel();
    this.#state = { kind: 'none' };
    this.#readFor = [];
    this.#correcting = false;
    this.#revealed = false;
  }

  async #read(body: Parameters<typeof documentPrefill>[2]): Promise<void> {
    const signal = this.#run.begin();
    const { endpoint, secret } = this.#options.context.current;
    this.#correcting = false;
    this.#revealed = false;
    this.#set({ kind: 'reading' });
    this.#options.nav.announce(this.texts.reading);
    let timer: ReturnType<typeof setTimeout> | undefined;
    const late = new Promise<never>((_, reject) => (timer = setTimeout(() => reject(new Error('no answer in time')), READ_TIMEOUT_MS)));
    let next: PrefillState;
    try {
      const read = await Promise.race([documentPrefill(endpoint, secret, body, signal), late]);
      // A CPF that is not one is not offered: the person types it.
      next = { kind: 'read', read: { ...(read.cpf && isValidCpf(read.cpf) && { cpf: read.cpf }), ...(read.name && { name: read.name }) } };
    } catch (error) {
      next = error instanceof CompanionError && error.status === 422 ? { kind: 'unreadable' } : { kind: 'failed' };
    } finally {
      clearTimeout(timer);
    }
    // Replaced by a newer read, or the flow was reset: this answer is for nobody.
    if (!this.#run.isCurrent(signal)) return;
    this.#run.end(signal);
    const t = this.texts;
    // What the person started typing while the document was read stays theirs.
    if (next.kind === 'read' && !this.#correcting) this.#options.details.fill(next.read);
    this.#set(next);
    this.#options.nav.announce(
      next.kind === 'read' ? (next.read.cpf ? t.read : t.noCpf) : next.kind === 'unreadable' ? t.unreadable : t.failed,
    );
  }

  #set(state: PrefillState): void {
    this.#state = state;
    this.#host.requestUpdate();
  }
}
