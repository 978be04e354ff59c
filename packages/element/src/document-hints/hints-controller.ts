/**
 * The hints of the visible document photo as a Lit reactive controller of `<onboarding-flow>`:
 * it works them out from the photos' readings (document-hints/hints.ts) whenever a reading
 * arrives or changes, says them once in the live region, and carries out their actions: switching
 * to the document read, swapping the two sides.
 */
import type { ReactiveController, ReactiveElement } from 'lit';
import type { CaptureController } from '../controllers/capture-controller.js';
import { hintTexts, type HintTexts } from '../messages/document-hints.js';
import type { FlowContextSource } from '../onboarding-flow/flow-context.js';
import { documentHints, type DocumentHint } from './hints.js';

export interface DocumentHintsOptions {
  context: FlowContextSource;
  capture: () => CaptureController | null;
  /** The document photo the visible step shows, or null on any other step. */
  side(): 'documentFront' | 'documentBack' | null;
  documentType(): string | null;
  offeredTypes(): readonly string[];
  /** The CPF typed, when the page holds it whole. */
  typedCpf(): string | null;
  announce(text: string): void;
  /** Chooses `type` instead and shows its front photo, keeping the photos taken. */
  switchDocumentType(type: string): void;
}

export class DocumentHintsController implements ReactiveController {
  readonly #options: DocumentHintsOptions;
  /** The photo and hints last said: the same hints of the same photo are said once. */
  #saidFor: object | undefined;
  #saidKinds = '';

  constructor(host: ReactiveElement, options: DocumentHintsOptions) {
    this.#options = options;
    host.addController(this);
  }

  /** The hints of the visible document photo (none off those steps, or where nothing was read). */
  get hints(): DocumentHint[] {
    const o = this.#options;
    const side = o.side();
    const photos = o.capture()?.photos;
    if (!side || !photos?.[side]) return [];
    return documentHints({
      documentType: o.documentType(),
      offeredTypes: o.offeredTypes(),
      typedCpf: o.typedCpf(),
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
    const side = this.#options.side();
    const photo = side ? this.#options.capture()?.photos[side] : undefined;
    const kinds = hints.map((h) => h.kind).join();
    if (photo === this.#saidFor && kinds === this.#saidKinds) return;
    this.#saidFor = photo;
    this.#saidKinds = kinds;
    if (kinds) this.#options.announce(`${this.lines(hints).join(' ')} ${this.texts.goOn}`);
  }

  switchTo(type: string): void {
    this.#options.switchDocumentType(type);
  }

  /** The front and back photos change places, and the person is told. */
  swapSides(): void {
    this.#options.capture()?.swapSides();
    this.#options.announce(this.texts.swapped);
  }
}
