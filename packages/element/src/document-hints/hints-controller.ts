/**
 * The hints of the visible document photo as a Lit reactive controller of `<onboarding-flow>`:
 * it works them out from the photos' readings (document-hints/hints.ts) whenever a reading
 * arrives or changes, says them once in the live region, and carries out their actions: switching
 * to the document read, swapping the two sides.
 */
import type { ReactiveController, ReactiveElement } from 'lit';
import { hintTexts, type HintTexts } from '../messages/document-hints.js';
import type { FlowRefs } from '../onboarding-flow/flow-refs.js';
import { documentHasBack } from '../onboarding-flow/steps.js';
import { documentHints, type DocumentHint } from './hints.js';

export class DocumentHintsController implements ReactiveController {
  readonly #host: ReactiveElement;
  readonly #options: FlowRefs;
  /** The photo (its JPEG) and hints last said: the same hints of the same photo are said once, its reading arriving or not. */
  #saidFor: string | undefined;
  #saidKinds = '';

  constructor(host: ReactiveElement, options: FlowRefs) {
    this.#host = host;
    this.#options = options;
    host.addController(this);
  }

  /** The document photo the visible step shows, or null on any other step. */
  #side(): 'documentFront' | 'documentBack' | null {
    const step = this.#options.nav.step;
    return step === 'document-front' ? 'documentFront' : step === 'document-back' ? 'documentBack' : null;
  }

  /** The hints of the visible document photo (none off those steps, or where nothing was read). */
  get hints(): DocumentHint[] {
    const o = this.#options;
    const side = this.#side();
    const photos = o.capture()?.photos;
    if (!side || !photos?.[side]) return [];
    return documentHints({
      documentType: o.details.documentType,
      offeredTypes: o.offeredTypes(),
      typedCpf: o.details.wholeCpf,
      side,
      front: photos.documentFront?.reading,
      back: photos.documentBack?.reading,
    });
  }

  get texts(): HintTexts {
    return hintTexts[this.#options.context.current.locale];
  }

  /** The hints as the review says them, each in a line. */
  lines(hints: DocumentHint[]): string[] {
    const { lines } = this.texts;
    const names = this.#options.context.current.messages.documentType.names;
    return hints.map((h) => (h.kind === 'other-document' ? lines[h.kind](names[h.switchTo] ?? h.switchTo) : lines[h.kind]));
  }

  hostUpdated(): void {
    const hints = this.hints;
    const side = this.#side();
    const photo = side ? this.#options.capture()?.photos[side]?.base64 : undefined;
    const kinds = hints.map((h) => h.kind).join();
    if (photo === this.#saidFor && kinds === this.#saidKinds) return;
    this.#saidFor = photo;
    this.#saidKinds = kinds;
    if (kinds) this.#options.nav.announce(`${this.lines(hints).join(' ')} ${this.texts.goOn}`);
  }

  /** Chooses `type` instead and shows its front photo (presented again when it is the visible step), keeping the photos taken. */
  switchTo(type: string): void {
    const { details, capture, nav } = this.#options;
    details.switchDocumentType(type);
    if (!documentHasBack(type)) capture()?.remove('documentBack');
    if (nav.step !== 'document-front') return nav.goTo('document-front');
    nav.presentStep();
    this.#host.requestUpdate();
  }

  /** The front and back photos change places, and the person is told. */
  swapSides(): void {
    this.#options.capture()?.swapSides();
    this.#options.nav.announce(this.texts.swapped);
  }
}
