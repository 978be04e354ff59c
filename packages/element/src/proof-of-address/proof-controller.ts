/**
 * The proof of address of a session that asks for one, as a Lit reactive controller of
 * `<onboarding-flow>`: a file picked (or a photo from the phone's camera app), told apart by its
 * first bytes. A PDF is kept as it is, up to the image limit; an image goes through the photo
 * pipeline (checked and compressed) as the document photos do; anything else is refused with a
 * clear message. It owns the preview's object URL.
 */
import { bytesToBase64 } from '@onboarding-kit/contract';
import type { ReactiveController, ReactiveElement } from 'lit';
import type { PipelineKit } from '../controllers/capture-texts.js';
import type { PipelineLimits } from '../controllers/capture-controller.js';
import { loadPipeline } from '../controllers/load-pipeline.js';
import { LatestRun } from '../controllers/latest-run.js';
import { focusAfterCheck } from '../controllers/photo-focus.js';
import { imageCheckCode } from '../controllers/photo-refusal.js';
import type { ImageCheckCode } from '../image/pipeline.js';
import { fileSize, proofTexts, type ProofTexts } from '../messages/proof-of-address.js';
import type { FlowContextSource } from '../onboarding-flow/flow-context.js';
import { proofFileKind } from './proof-file.js';

export interface ProofOfAddress {
  kind: 'image' | 'pdf';
  /** Pure base64, as the creation sends it. */
  base64: string;
  bytes: number;
  /** The file's name as the person picked it (shown for a PDF). */
  name: string;
  /** An image's object URL (null for a PDF). */
  previewUrl: string | null;
}

/** Why a file was refused: neither an image nor a PDF, larger than the limit, or what the photo checks said. */
export type ProofProblem = 'wrong-file' | 'too-large' | ImageCheckCode;

/** A file refused before any photo check: not an image nor a PDF, or a PDF over the limit. */
class ProofRefusal extends Error {
  constructor(readonly code: 'wrong-file' | 'too-large') {
    super(code === 'wrong-file' ? 'The file is neither an image nor a PDF' : 'The PDF is larger than the limit');
  }
}

export interface ProofOptions {
  context: FlowContextSource;
  /** Largest file sent, in bytes: the companion's limit for an image. */
  maxBytes(): number;
  /** The pipeline's size caps for an image. */
  limits(): PipelineLimits;
  announce(text: string): void;
  loadPipeline?: () => Promise<PipelineKit>;
}

export class ProofOfAddressController implements ReactiveController {
  readonly #host: ReactiveElement;
  readonly #options: ProofOptions;
  readonly #run = new LatestRun();
  #proof: ProofOfAddress | null = null;
  #problem: ProofProblem | null = null;
  #checking = false;
  #pipeline: PipelineKit | null = null;

  constructor(host: ReactiveElement, options: ProofOptions) {
    this.#host = host;
    this.#options = options;
    host.addController(this);
  }

  get proof(): ProofOfAddress | null {
    return this.#proof;
  }
  get checking(): boolean {
    return this.#checking;
  }
  get texts(): ProofTexts {
    return proofTexts[this.#options.context.current.locale];
  }

  /** The limit as a person reads it. */
  get limit(): string {
    return fileSize(this.#options.maxBytes(), this.#options.context.current.locale);
  }

  /** Why the last file was refused, in the locale in effect, or null. */
  get problem(): string | null {
    const problem = this.#problem;
    if (!problem) return null;
    if (problem === 'wrong-file' || problem === 'not-an-image') return this.texts.wrongFile;
    if (problem === 'too-large' || problem === 'file-too-large') return this.texts.tooLarge(this.limit);
    return this.#pipeline?.imageErrors[this.#options.context.current.locale][problem] ?? this.texts.wrongFile;
  }

  hostDisconnected(): void {
    this.#run.cancel();
  }

  /** The `change` of a file input: the picked file becomes the proof, or is refused. */
  pick(e: Event): void {
    const input = e.target as HTMLInputElement;
    const file = input.files?.[0];
    // Cleared so that choosing the same file again still fires `change`.
    input.value = '';
    if (file) void this.#take(file);
  }

  /** Drops the proof (to pick another). */
  remove(): void {
    if (this.#proof?.previewUrl) URL.revokeObjectURL(this.#proof.previewUrl);
    this.#proof = null;
    this.#problem = null;
    this.#host.requestUpdate();
  }

  reset(): void {
    this.#run.cancel();
    this.#checking = false;
    this.remove();
  }

  async #take(file: File): Promise<void> {
    const signal = this.#run.begin();
    this.remove();
    this.#setChecking(true);
    this.#options.announce(this.texts.checking);
    try {
      const proof = await this.#prepare(file, signal);
      if (!this.#run.isCurrent(signal)) {
        if (proof.previewUrl) URL.revokeObjectURL(proof.previewUrl);
        return;
      }
      this.#proof = proof;
      this.#options.announce(proof.kind === 'pdf' ? `${this.describe(proof)}. ${this.texts.accepted}` : this.texts.accepted);
    } catch (error) {
      if (!this.#run.isCurrent(signal)) return;
      this.#problem = error instanceof ProofRefusal ? error.code : imageCheckCode(error, this.#pipeline?.imageErrors ?? null);
      this.#options.announce(this.problem ?? '');
    } finally {
      if (this.#run.end(signal)) {
        this.#setChecking(false);
        focusAfterCheck(this.#host);
      }
    }
  }

  /** A PDF as the step and the review name it: its name and size. */
  describe(proof: ProofOfAddress): string {
    return this.texts.pdf(proof.name, fileSize(proof.bytes, this.#options.context.current.locale));
  }

  async #prepare(file: File, signal: AbortSignal): Promise<ProofOfAddress> {
    const kind = await proofFileKind(file);
    if (kind === 'other') throw new ProofRefusal('wrong-file');
    if (kind === 'pdf') {
      if (file.size > this.#options.maxBytes()) throw new ProofRefusal('too-large');
      const bytes = new Uint8Array(await file.arrayBuffer());
      return { kind, base64: bytesToBase64(bytes), bytes: bytes.length, name: file.name, previewUrl: null };
    }
    const pipeline = await (this.#options.loadPipeline ?? loadPipeline)();
    this.#pipeline = pipeline;
    // Checked as a document photo is (resolution, focus, exposure), without a frame to fit: a bill is no card.
    const image = await pipeline.processImage(file, { role: 'documentFront', signal, ...this.#options.limits() });
    return { kind, base64: image.base64, bytes: image.bytes, name: file.name, previewUrl: image.previewUrl };
  }

  #setChecking(checking: boolean): void {
    this.#checking = checking;
    this.#host.requestUpdate();
  }
}
