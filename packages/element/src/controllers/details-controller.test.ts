/// <reference types="@onboarding-kit/testing/mocha-globals" />
import { expect } from '@open-wc/testing';
import { nothing } from 'lit';
import type { ProcessedImage } from '../image/pipeline.js';
import { en } from '../messages/index.js';
import { parseDocumentTypes } from '../onboarding-flow/steps.js';
import { consentStep, cpfStep, documentTypeStep } from '../steps/index.js';
import { cpfProblem, DetailsController, nameIsInvalid, type Prefill } from './details-controller.js';
import { mountHost } from './test-helpers.js';

type FormStep = 'consent' | 'cpf' | 'document-type';

async function setup(prefill: Prefill = { cpf: '', name: '', documentTypes: 'CNH,RG' }) {
  const host = await mountHost();
  const state = { step: 'consent' as FormStep, prefill, typeChanges: 0 };
  const moves: string[] = [];
  const details = new DetailsController(host, {
    prefill: () => state.prefill,
    goTo: (step) => moves.push(step),
    next: () => moves.push('next'),
    documentTypeChanged: () => state.typeChanges++,
  });
  const noop = () => undefined;
  host.view = () => {
    switch (state.step) {
      case 'consent':
        return consentStep({
          m: en,
          checked: details.consent,
          error: details.consentError,
          full: null,
          controller: 'Acme',
          privacyUrl: null,
          onChange: (e) => details.onConsentChange(e),
          onSubmit: (e) => details.onConsentSubmit(e),
          onDecline: noop,
          onToggle: noop,
        });
      case 'cpf':
        return cpfStep({
          m: en,
          cpf: details.cpf,
          name: details.name,
          cpfError: details.cpfError,
          nameError: details.nameError,
          onCpfInput: (e) => details.onCpfInput(e),
          onNameInput: (e) => details.onNameInput(e),
          onSubmit: (e) => details.onCpfSubmit(e),
        });
      case 'document-type':
        return documentTypeStep({
          m: en,
          types: parseDocumentTypes(state.prefill.documentTypes),
          selected: details.documentType,
          error: details.documentTypeError,
          onChange: (e) => details.onDocumentTypeChange(e),
          onSubmit: (e) => details.onDocumentTypeSubmit(e),
        });
      default:
        return nothing;
    }
  };
  host.requestUpdate();
  await host.updateComplete;
  const show = async (step: FormStep) => {
    state.step = step;
    host.requestUpdate();
    await host.updateComplete;
  };
  const $ = <T extends HTMLElement>(selector: string) => host.renderRoot.querySelector<T>(selector)!;
  const submit = async () => {
    $<HTMLFormElement>('form').requestSubmit();
    await host.updateComplete;
  };
  return { host, details, state, moves, show, $, submit };
}

/** Types `value` into `input` as the browser would leave it, with the caret at `caret`. */
function typeInto(input: HTMLInputElement, value: string, caret = value.length): void {
  input.value = value;
  input.setSelectionRange(caret, caret);
  input.dispatchEvent(new InputEvent('input', { bubbles: true, composed: true, inputType: 'insertText' }));
}

const photo = (base64: string) => ({ base64 }) as ProcessedImage;

describe('DetailsController', () => {
  it('consent is required before the CPF step; the error goes once it is given', async () => {
    const { host, details, moves, $, submit } = await setup();
    await submit();
    expect(moves).to.deep.equal([]);
    expect(details.consentError).to.equal(true);
    expect($('#consent-error').textContent).to.equal(en.consent.required);
    expect(host.shadowRoot!.activeElement!.id).to.equal('consent');
    $<HTMLInputElement>('#consent').click();
    await host.updateComplete;
    expect(details.consentError).to.equal(false);
    await submit();
    expect(moves).to.deep.equal(['next']);
  });

  it('masks the CPF as it is typed and keeps the caret after the same digits', async () => {
    const { details, show, $ } = await setup();
    await show('cpf');
    const input = $<HTMLInputElement>('#cpf');
    typeInto(input, '52998224725');
    expect(input.value).to.equal('529.982.247-25');
    expect(details.cpf).to.equal('529.982.247-25');
    expect(input.selectionStart).to.equal(14);
    // A digit typed into the middle: the caret stays right after it.
    typeInto(input, '5291.982.24', 4);
    expect(input.value).to.equal('529.198.224');
    expect(input.selectionStart).to.equal(5);
  });

  it('checks the CPF and the name on submit, focusing the first field in error', async () => {
    const { host, details, moves, show, $, submit } = await setup();
    await show('cpf');
    const cpf = $<HTMLInputElement>('#cpf');
    for (const [value, problem] of [
      ['', 'errorEmpty'],
      ['529.98', 'errorIncomplete'],
      ['529.982.247-26', 'errorCheckDigits'],
    ] as const) {
      typeInto(cpf, value);
      await submit();
      expect(details.cpfError, value).to.equal(problem);
      expect(host.shadowRoot!.activeElement).to.equal(cpf);
    }
    // Correcting the CPF clears its error as soon as it is valid.
    typeInto(cpf, '529.982.247-25');
    expect(details.cpfError).to.equal(null);
    typeInto($<HTMLInputElement>('#name'), 'Maria <script>');
    await submit();
    expect(details.nameError).to.equal(true);
    expect(host.shadowRoot!.activeElement!.id).to.equal('name');
    expect(moves).to.deep.equal([]);
    typeInto($<HTMLInputElement>('#name'), 'Maria da Silva');
    expect(details.nameError).to.equal(false);
    await submit();
    expect(moves).to.deep.equal(['next']);
  });

  it('prefills apply until the person edits the field, and again after reset', async () => {
    const { host, details, state, show, $ } = await setup({ cpf: '52998224725', name: 'Ana', documentTypes: 'CNH,RG' });
    expect(details.cpf).to.equal('529.982.247-25');
    expect(details.name).to.equal('Ana');
    state.prefill = { ...state.prefill, cpf: '11144477735' };
    host.requestUpdate();
    await host.updateComplete;
    expect(details.cpf).to.equal('111.444.777-35');
    await show('cpf');
    typeInto($<HTMLInputElement>('#name'), 'Bia');
    state.prefill = { ...state.prefill, name: 'Carla' };
    host.requestUpdate();
    await host.updateComplete;
    expect(details.name).to.equal('Bia');
    details.reset();
    expect(details.name).to.equal('Carla');
    expect(details.cpf).to.equal('111.444.777-35');
  });

  it('a single offered type is chosen; a choice no longer offered goes', async () => {
    const { host, details, state } = await setup({ cpf: '', name: '', documentTypes: 'RG' });
    expect(details.documentType).to.equal('RG');
    state.prefill = { ...state.prefill, documentTypes: 'CNH,PASSPORT' };
    host.requestUpdate();
    await host.updateComplete;
    expect(details.documentType).to.equal(null);
    details.reset();
    expect(details.documentType).to.equal(null);
  });

  it('the document type: required, and a different choice tells the host (its photos no longer apply)', async () => {
    const { details, state, moves, show, $, submit } = await setup();
    await show('document-type');
    await submit();
    expect(details.documentTypeError).to.equal(true);
    expect(moves).to.deep.equal([]);
    $<HTMLInputElement>('#doctype-RG').click();
    expect(details.documentType).to.equal('RG');
    expect(details.documentTypeError).to.equal(false);
    expect(state.typeChanges).to.equal(1);
    $<HTMLInputElement>('#doctype-RG').dispatchEvent(new Event('change'));
    expect(state.typeChanges).to.equal(1);
    await submit();
    expect(moves).to.deep.equal(['next']);
  });

  it('builds the upload body with the photos the chosen document needs', async () => {
    const { details, show, $ } = await setup({ cpf: '52998224725', name: '', documentTypes: 'PASSPORT' });
    const photos = { documentFront: photo('AAAA'), documentBack: photo('BBBB'), selfie: photo('CCCC') };
    expect(details.request(photos)).to.deep.equal({
      cpf: '529.982.247-25',
      documentType: 'PASSPORT',
      images: { documentFront: 'AAAA', selfie: 'CCCC' },
    });
    await show('cpf');
    typeInto($<HTMLInputElement>('#name'), '  Ana Souza ');
    expect(details.request({ selfie: photo('CCCC') })).to.deep.equal({
      cpf: '529.982.247-25',
      name: 'Ana Souza',
      documentType: 'PASSPORT',
      images: { selfie: 'CCCC' },
    });
  });

  it("sends what each document photo's reading carried, leaving out a side that gave nothing and the selfie", async () => {
    const { details } = await setup({ cpf: '52998224725', name: '', documentTypes: 'CNH' });
    const back = { qr: { payloadBase64: 'aHR0cHM6Ly9leGFtcGxlLmJy' } };
    const photos = {
      documentFront: { ...photo('AAAA'), reading: {} },
      documentBack: { ...photo('BBBB'), reading: back },
      selfie: { ...photo('CCCC'), reading: back },
    };
    expect(details.request(photos)).to.deep.equal({
      cpf: '529.982.247-25',
      documentType: 'CNH',
      images: { documentFront: 'AAAA', documentBack: 'BBBB', selfie: 'CCCC' },
      documentReading: { documentBack: back },
    });
    // Nothing read at all: no member.
    expect(details.request({ documentFront: photo('AAAA'), documentBack: { ...photo('BBBB'), reading: {} } })).to.not.have.property(
      'documentReading',
    );
  });
});

describe('a tax id the session fixes', () => {
  it('shows it as the companion sent it and sends it only when whole: a masked one is left for the companion to fill', async () => {
    const photos = { documentFront: photo('AAAA'), selfie: photo('CCCC') };
    const masked = await setup({
      cpf: '11144477735',
      name: 'Maria',
      documentTypes: 'CNH',
      lockedTaxId: { kind: 'cpf', value: '***.982.247-**' },
    });
    expect(masked.details.cpf).to.equal('***.982.247-**');
    expect(masked.details.lockedKind).to.equal('cpf');
    expect(masked.details.request(photos)).to.deep.equal({
      name: 'Maria',
      documentType: 'CNH',
      images: { documentFront: 'AAAA', selfie: 'CCCC' },
    });
    // A companion that sends the whole one (an older one) still gets it back.
    const whole = await setup({ cpf: '', name: '', documentTypes: 'CNH', lockedTaxId: { kind: 'cpf', value: '52998224725' } });
    expect(whole.details.request(photos)).to.include({ cpf: '529.982.247-25' });
  });
});

describe('CPF and name checks', () => {
  it('names the CPF problem, or none', () => {
    expect(cpfProblem('')).to.equal('errorEmpty');
    expect(cpfProblem('529.982')).to.equal('errorIncomplete');
    expect(cpfProblem('111.111.111-11')).to.equal('errorCheckDigits');
    expect(cpfProblem('52998224725')).to.equal(null);
  });

  it('an empty name is fine; a name the contract refuses is not', () => {
    expect(nameIsInvalid('   ')).to.equal(false);
    expect(nameIsInvalid('João da Silva')).to.equal(false);
    expect(nameIsInvalid('Maria <script>')).to.equal(true);
  });

  it('"Maria 123" is refused, as the message says (letters, spaces and common marks only)', () => {
    expect(nameIsInvalid('Maria 123')).to.equal(true);
    expect(nameIsInvalid('Maria_2')).to.equal(true);
    expect(nameIsInvalid("Maria d'Ávila-Souza Jr.")).to.equal(false);
    expect(nameIsInvalid('Zoë Ñandú')).to.equal(false);
  });
});
