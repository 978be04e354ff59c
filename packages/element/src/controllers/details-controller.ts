/**
 * The form steps of `<onboarding-flow>` as a Lit reactive controller: LGPD consent, the CPF
 * (masked as it is typed, with the caret kept in place) and the optional name, and the document
 * type. It holds what the person entered, checks it when a step is submitted (focusing the
 * first field in error), and applies the element's prefills until the person edits a field.
 * A tax id given by the service provider (a session's) is locked: shown, never edited, and sent
 * unless the companion showed it masked (it then knows the whole one).
 */
import {
  formatCnpj,
  formatCpf,
  isValidCpf,
  maskCpfInput,
  isMaskedTaxId,
  isPersonName,
  onlyDigits,
  type CreateOnboardingRequest,
  type DocumentReading,
  type KeptAnyway,
  type KeptCheck,
  type SideReading,
} from '@onboarding-kit/contract';
import type { ReactiveController, ReactiveElement } from 'lit';
import type { CaptureRole, ProcessedImage } from '../image/pipeline.js';
import { parseDocumentTypes, rolesFor, type OnboardingStep } from '../onboarding-flow/steps.js';
import type { CpfProblem } from '../steps/index.js';

/** The element's properties that preset the form. */
export interface Prefill {
  cpf: string | null | undefined;
  name: string | null | undefined;
  /** The `document-types` attribute, comma-separated. */
  documentTypes: string | null | undefined;
  /** A CPF or CNPJ that the person may not change (a session's). */
  lockedTaxId?: LockedTaxId | null;
}

export interface LockedTaxId {
  kind: 'cpf' | 'cnpj';
  /** Canonical (digits, or the CNPJ's 14 characters), or masked as the companion shows it (`***.982.247-**`). */
  value: string;
}

/**
 * A session's CPF, else its CNPJ, as the form locks it (on a phone handed the session, the CPF
 * typed on the computer: the companion puts it, masked, in the prefill).
 */
export function lockedTaxIdOf(prefill: { cpf?: string; cnpj?: string }): LockedTaxId | null {
  if (prefill.cpf) return { kind: 'cpf', value: prefill.cpf };
  if (prefill.cnpj) return { kind: 'cnpj', value: prefill.cnpj };
  return null;
}

const formatTaxId = (id: LockedTaxId): string => (id.kind === 'cpf' ? formatCpf(id.value) : formatCnpj(id.value));
const sameLock = (a: LockedTaxId | null | undefined, b: LockedTaxId | null | undefined): boolean =>
  (a?.kind ?? null) === (b?.kind ?? null) && (a?.value ?? null) === (b?.value ?? null);

export interface DetailsOptions {
  /** Read before each render: a changed prefill applies to a field the person has not edited. */
  prefill(): Prefill;
  goTo(step: OnboardingStep): void;
  next(): void;
  /** Another document type was chosen: photos of the previous one no longer apply. */
  documentTypeChanged(): void;
}

export function cpfProblem(value: string): CpfProblem | null {
  const digits = onlyDigits(value);
  if (digits.length === 0) return 'errorEmpty';
  if (digits.length < 11) return 'errorIncomplete';
  if (!isValidCpf(value)) return 'errorCheckDigits';
  return null;
}

/** Whether a non-empty name breaks the contract's rule for names. */
export function nameIsInvalid(name: string): boolean {
  if (!name.trim()) return false;
  // The contract's own rule, as the companion applies it to the name sent.
  return !isPersonName(name.trim());
}

export class DetailsController implements ReactiveController {
  readonly #host: ReactiveElement;
  readonly #options: DetailsOptions;
  #consent = false;
  #consentAt: number | null = null;
  #consentError = false;
  #cpf = '';
  #name = '';
  #cpfError: CpfProblem | null = null;
  #nameError = false;
  #documentType: string | null = null;
  #documentTypeError = false;
  #prefilledCpf = '';
  #prefilledName = '';
  #locked: LockedTaxId | null = null;
  /** The prefill as of the last render, to see what changed since. */
  #seen: Partial<Prefill> = {};

  constructor(host: ReactiveElement, options: DetailsOptions) {
    this.#host = host;
    this.#options = options;
    host.addController(this);
  }

  get consent(): boolean {
    return this.#consent;
  }
  /** When the person consented here (ms since the epoch), null before (or when it was given on the computer that handed the session over). */
  get consentAt(): number | null {
    return this.#consentAt;
  }
  get consentError(): boolean {
    return this.#consentError;
  }
  /** The CPF as shown, masked (`529.982.247-25`, or the digits typed so far). */
  get cpf(): string {
    return this.#cpf;
  }
  get name(): string {
    return this.#name;
  }
  /** The kind of the locked tax id, or null when the person types a CPF. */
  get lockedKind(): 'cpf' | 'cnpj' | null {
    return this.#locked?.kind ?? null;
  }
  /** The CPF the page holds whole (typed and valid, or a session's given unmasked), or null. */
  get wholeCpf(): string | null {
    if (this.#locked) return this.#locked.kind === 'cpf' && !isMaskedTaxId(this.#locked.value) ? this.#locked.value : null;
    return isValidCpf(this.#cpf) ? this.#cpf : null;
  }
  get cpfError(): CpfProblem | null {
    return this.#cpfError;
  }
  get nameError(): boolean {
    return this.#nameError;
  }
  get documentType(): string | null {
    return this.#documentType;
  }
  get documentTypeError(): boolean {
    return this.#documentTypeError;
  }

  hostUpdate(): void {
    const prefill = this.#options.prefill();
    const seen = this.#seen;
    this.#seen = { ...prefill };
    // Prefills apply until the person edits the field.
    if (!sameLock(prefill.lockedTaxId, seen.lockedTaxId)) {
      // A lock wins over whatever was typed; without one the field is the person's again.
      this.#locked = prefill.lockedTaxId ?? null;
      this.#cpfError = null;
      this.#cpf = this.#locked ? formatTaxId(this.#locked) : (this.#prefilledCpf = maskCpfInput(prefill.cpf ?? ''));
    } else if (!this.#locked && prefill.cpf !== seen.cpf && this.#cpf === this.#prefilledCpf) {
      this.#cpf = this.#prefilledCpf = maskCpfInput(prefill.cpf ?? '');
    }
    if (prefill.name !== seen.name && this.#name === this.#prefilledName) this.#name = this.#prefilledName = prefill.name ?? '';
    if (prefill.documentTypes !== seen.documentTypes) {
      // A choice no longer offered goes; a single offered type is chosen.
      const types = parseDocumentTypes(prefill.documentTypes);
      if (this.#documentType && !types.includes(this.#documentType)) this.#documentType = null;
      if (!this.#documentType && types.length === 1) this.#documentType = types[0]!;
    }
  }

  /** Everything entered is forgotten; the prefills and the single offered type apply again. */
  reset(): void {
    const prefill = this.#options.prefill();
    const types = parseDocumentTypes(prefill.documentTypes);
    this.#consent = false;
    this.#consentAt = null;
    this.#consentError = false;
    this.#locked = prefill.lockedTaxId ?? null;
    this.#prefilledCpf = maskCpfInput(prefill.cpf ?? '');
    this.#cpf = this.#locked ? formatTaxId(this.#locked) : this.#prefilledCpf;
    this.#name = this.#prefilledName = prefill.name ?? '';
    this.#cpfError = null;
    this.#nameError = false;
    this.#documentType = types.length === 1 ? types[0]! : null;
    this.#documentTypeError = false;
    this.#host.requestUpdate();
  }

  /**
   * The body of `POST /onboardings` with these photos (those the chosen document needs), and for
   * each one kept anyway the check that refused it, so the backend learns of it.
   */
  request(
    photos: Partial<Record<CaptureRole, ProcessedImage & { keptCheck?: KeptCheck; reading?: SideReading }>>,
  ): CreateOnboardingRequest {
    const images: CreateOnboardingRequest['images'] = {};
    const kept: KeptAnyway = {};
    const reading: DocumentReading = {};
    for (const role of rolesFor(this.#documentType)) {
      const photo = photos[role];
      if (photo) images[role] = photo.base64;
      if (photo?.keptCheck) kept[role] = photo.keptCheck;
      // A side that gave nothing is left out; the selfie is never read.
      const read = photo?.reading;
      if (role !== 'selfie' && (read?.qr || read?.mrz)) reading[role] = read;
    }
    const name = this.#name.trim();
    // A session's tax id the page holds masked goes unsent: the companion takes the session's own.
    const taxId = !this.#locked
      ? { cpf: formatCpf(this.#cpf) }
      : isMaskedTaxId(this.#locked.value)
        ? {}
        : { [this.#locked.kind]: formatTaxId(this.#locked) };
    return {
      ...taxId,
      ...(name && { name }),
      ...(this.#documentType && { documentType: this.#documentType }),
      images,
      ...(Object.keys(kept).length > 0 && { keptAnyway: kept }),
      ...(Object.keys(reading).length > 0 && { documentReading: reading }),
    };
  }

  /** The consent a computer recorded (with its time, on the companion) before handing the session over: given (the step change that follows renders it). */
  consentGiven(): void {
    this.#consent = true;
  }

  // ---------------------------------------------------------------- consent

  onConsentChange(e: Event): void {
    this.#consent = (e.target as HTMLInputElement).checked;
    if (this.#consent) this.#consentError = false;
    this.#host.requestUpdate();
  }

  onConsentSubmit(e: SubmitEvent): void {
    e.preventDefault();
    if (!this.#consent) {
      this.#consentError = true;
      this.#host.requestUpdate();
      this.#focus('#consent');
      return;
    }
    this.#consentAt = Date.now();
    this.#options.next();
  }

  // ---------------------------------------------------------------- CPF and name

  onCpfInput(e: InputEvent): void {
    const input = e.target as HTMLInputElement;
    if (this.#locked) {
      input.value = this.#cpf;
      return;
    }
    const raw = input.value;
    // Keep the caret after the same number of digits once punctuation is added or removed.
    const digitsBefore = onlyDigits(raw.slice(0, input.selectionStart ?? raw.length)).length;
    const masked = maskCpfInput(raw);
    let caret = 0;
    for (let seen = 0; caret < masked.length && seen < digitsBefore; caret++) if (/\d/.test(masked[caret]!)) seen++;
    if (input.value !== masked) {
      input.value = masked;
      input.setSelectionRange(caret, caret);
    }
    this.#cpf = masked;
    if (this.#cpfError && cpfProblem(masked) === null) this.#cpfError = null;
    this.#host.requestUpdate();
  }

  onNameInput(e: InputEvent): void {
    this.#name = (e.target as HTMLInputElement).value;
    this.#nameError = false;
    this.#host.requestUpdate();
  }

  onCpfSubmit(e: SubmitEvent): void {
    e.preventDefault();
    this.submitCpf();
  }

  /** What the document's OCR read, put in the fields as if typed (a tax id the service provider gave stays). */
  fill(read: { cpf?: string; name?: string }): void {
    if (read.cpf && !this.#locked) this.#cpf = maskCpfInput(read.cpf);
    if (read.name && !nameIsInvalid(read.name)) this.#name = read.name;
    this.#cpfError = null;
    this.#nameError = false;
    this.#host.requestUpdate();
  }

  /** Checks the CPF and the name and goes on, or focuses the first field in error. */
  submitCpf(): void {
    this.#cpfError = this.#locked ? null : cpfProblem(this.#cpf);
    this.#nameError = nameIsInvalid(this.#name);
    this.#host.requestUpdate();
    if (this.#cpfError) return this.#focus('#cpf');
    if (this.#nameError) return this.#focus('#name');
    this.#options.next();
  }

  // ---------------------------------------------------------------- document type

  onDocumentTypeChange(e: Event): void {
    const type = (e.target as HTMLInputElement).value;
    if (type === this.#documentType) return;
    this.#documentType = type;
    this.#documentTypeError = false;
    this.#host.requestUpdate();
    this.#options.documentTypeChanged();
  }

  /** Another type, chosen from a photo's hint: the photos taken stay, to be looked at again under it. */
  switchDocumentType(type: string): void {
    this.#documentType = type;
    this.#documentTypeError = false;
    this.#host.requestUpdate();
  }

  onDocumentTypeSubmit(e: SubmitEvent): void {
    e.preventDefault();
    if (!this.#documentType) {
      this.#documentTypeError = true;
      this.#host.requestUpdate();
      this.#focus('input[type=radio]');
      return;
    }
    this.#options.next();
  }

  #focus(selector: string): void {
    this.#host.renderRoot.querySelector<HTMLElement>(selector)?.focus();
  }
}
