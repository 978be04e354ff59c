/// <reference types="@onboarding-kit/testing/mocha-globals" />
/**
 * What a person sees on a document photo's review when the reader found something: the hint,
 * said in the live region, its actions (switching to the document read, swapping the sides,
 * taking the photo again) and continuing anyway. The readings are set on the captured photos as
 * the reader sets them (the record's `reading`); everything else is the real flow.
 */
import type { MrzReading, SideReading } from '@onboarding-kit/contract';
import { expect } from '@open-wc/testing';
import { CapturedPhotos, type CapturedPhoto } from '../controllers/captured-photos.js';
import type { CaptureRole } from '../image/pipeline.js';
import type { OnboardingFlow } from '../onboarding-flow/onboarding-flow.js';
import {
  CPF,
  button,
  cardJpeg,
  chooseType,
  cleanupListeners,
  click,
  hasButton,
  heading,
  liveText,
  mount,
  passConsent,
  passCpf,
  pickFile,
  preview,
  root,
  stepOf,
  waitFor,
  waitForStep,
} from '../onboarding-flow/test-helpers.js';

/** A TD1 zone as a CIN carries it, its document number the CPF `cpf`. */
const zone = (cpf?: string): MrzReading => ({
  format: 'TD1',
  lines: ['IDBRA', 'X', 'Y'],
  fields: { documentCode: 'ID', issuingState: 'BRA', ...(cpf && { cpf }) },
  checks: [],
  valid: true,
});
const CIN_BACK: SideReading = { mrz: zone('52998224725'), documentKind: 'CIN' };
const CNH_BACK: SideReading = { mrz: zone(), qr: { payloadBase64: 'AAEC' }, documentKind: 'CNH' };

/** What the reader gives each photo accepted from now on, by role. */
let readings: Partial<Record<CaptureRole, SideReading>> = {};
const { accept, setReading } = CapturedPhotos.prototype;
before(() => {
  CapturedPhotos.prototype.accept = function (this: CapturedPhotos, role: CaptureRole, photo: CapturedPhoto) {
    const reading = readings[role];
    accept.call(this, role, reading ? { ...photo, reading } : photo);
  };
  // The reader's own result for these test pictures gives way to the scripted one.
  CapturedPhotos.prototype.setReading = function (this: CapturedPhotos, role: CaptureRole, photo: CapturedPhoto, reading: SideReading) {
    setReading.call(this, role, photo, readings[role] ?? reading);
  };
});
after(() => {
  Object.assign(CapturedPhotos.prototype, { accept, setReading });
});
afterEach(() => {
  readings = {};
  cleanupListeners();
});

const hints = (el: OnboardingFlow): HTMLElement | null => root(el).querySelector('[part~=document-hints]');
const primary = (el: OnboardingFlow): HTMLButtonElement => root(el).querySelector('button[part~=button-primary]')!;

async function toFront(el: OnboardingFlow, type: string, cpf: string = CPF.approved): Promise<void> {
  await passConsent(el);
  await passCpf(el, cpf);
  await chooseType(el, type);
}

describe('document hints on a photo review', () => {
  it('offers a CIN read where a CNH was chosen: switching keeps the photo, shows the CIN front, and its hint follows', async function () {
    this.timeout(90_000);
    const { el } = await mount({ documentTypes: 'CNH,RG,CIN' });
    readings = { documentFront: CIN_BACK };
    await toFront(el, 'CNH');
    // Picked from the keyboard: the file picker had focus.
    root(el).querySelector<HTMLInputElement>('input[type=file]')!.focus();
    await pickFile(el, await cardJpeg());
    await waitFor(() => !!hints(el), 'no hint shown');
    expect(hints(el)!.textContent).to.contain('CIN (Carteira de Identidade Nacional)');
    expect(liveText(el)).to.contain('Este documento parece ser outro');
    expect(liveText(el)).to.contain('continuar mesmo assim');
    expect(primary(el).textContent!.trim()).to.equal('Trocar para CIN');
    expect(hasButton(el, 'Tirar de novo')).to.equal(true);
    expect(hasButton(el, 'Continuar mesmo assim')).to.equal(true);
    // Focus is on the first thing to do about it, as after any photo.
    await waitFor(() => el.shadowRoot!.activeElement === primary(el), 'focus never reached the main action');
    await expect(el).to.be.accessible();

    await click(el, 'Trocar para CIN');
    await waitFor(() => heading(el).textContent === 'Frente da CIN', `heading: ${heading(el).textContent}`);
    expect(stepOf(el)).to.equal('document-front');
    await waitFor(() => el.shadowRoot!.activeElement === heading(el), 'the heading never took focus');
    // The photo stays; under a CIN, a front carrying the zone looks like the back.
    expect(preview(el)).to.not.equal(null);
    await waitFor(() => liveText(el).includes('parece ser do verso'), `live region: ${liveText(el)}`);
    expect(primary(el).textContent!.trim()).to.equal('Tirar de novo');
    expect(hasButton(el, 'Trocar para CIN')).to.equal(false);

    await click(el, 'Continuar mesmo assim');
    await waitForStep(el, 'document-back');
    expect(heading(el).textContent).to.equal('Verso da CIN');
  });

  it('says when the front and back were swapped, and swaps them', async function () {
    this.timeout(90_000);
    const { el } = await mount({ documentTypes: 'CNH,RG' });
    readings = { documentFront: CNH_BACK, documentBack: {} };
    await toFront(el, 'CNH');
    await pickFile(el, await cardJpeg());
    await waitFor(() => !!hints(el), 'no hint on the front');
    expect(hints(el)!.textContent).to.contain('parece ser do verso');
    await click(el, 'Continuar mesmo assim');
    await waitForStep(el, 'document-back');
    await pickFile(el, await cardJpeg());
    await waitFor(() => !!hints(el), 'no hint on the back');
    expect(hints(el)!.textContent).to.contain('trocados');
    expect(primary(el).textContent!.trim()).to.equal('Trocar frente e verso');
    await click(el, 'Trocar frente e verso');
    // The back now holds the photo with the codes: nothing left to say.
    await waitFor(() => !hints(el), 'the hint stayed after the swap');
    expect(liveText(el)).to.contain('Frente e verso trocados.');
    await click(el, 'Usar esta foto');
    await waitForStep(el, 'selfie');
  });

  it('says when the zone carries another CPF than the one typed, and lets the person go on', async function () {
    this.timeout(90_000);
    const { el } = await mount({ documentTypes: 'CIN', locale: 'en' });
    readings = { documentBack: CIN_BACK };
    await passConsent(el);
    await passCpf(el, CPF.refused);
    root(el).querySelector<HTMLButtonElement>('button[type=submit]')!.click();
    await waitForStep(el, 'document-front');
    await pickFile(el, await cardJpeg());
    // Nothing read on the front: nothing said.
    expect(hints(el)).to.equal(null);
    await click(el, 'Use this photo');
    await waitForStep(el, 'document-back');
    await pickFile(el, await cardJpeg());
    await waitFor(() => !!hints(el), 'no hint on the back');
    expect(hints(el)!.textContent).to.contain('The CPF read on the document is not the CPF you typed');
    expect(liveText(el)).to.contain('not the CPF you typed');
    expect(primary(el).textContent!.trim()).to.equal('Take it again');
    await expect(el).to.be.accessible();
    await click(el, 'Continue anyway');
    await waitForStep(el, 'selfie');
  });

  it('claims nothing where nothing was read', async function () {
    this.timeout(90_000);
    const { el } = await mount({ documentTypes: 'CNH,CIN', locale: 'es' });
    readings = { documentFront: {}, documentBack: {} };
    await toFront(el, 'CNH');
    await pickFile(el, await cardJpeg());
    expect(hints(el)).to.equal(null);
    expect(button(el, 'Usar esta foto')).to.exist;
    expect(liveText(el)).to.not.contain('parece');
  });

  it('Tirar de novo drops the photo and offers the sources again', async function () {
    this.timeout(90_000);
    const { el } = await mount({ documentTypes: 'CNH,CIN' });
    readings = { documentFront: CIN_BACK };
    await toFront(el, 'CNH');
    await pickFile(el, await cardJpeg());
    await waitFor(() => !!hints(el), 'no hint shown');
    await click(el, 'Tirar de novo');
    await waitFor(() => !preview(el), 'the photo stayed');
    expect(hints(el)).to.equal(null);
    expect(stepOf(el)).to.equal('document-front');
  });
});
