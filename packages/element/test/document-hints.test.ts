/**
 * The hints a document photo's review shows, as a case table: what was chosen and typed, what each
 * side gave, and the hints that follow. Nothing read claims nothing.
 */
import test from 'node:test';
import assert from 'node:assert/strict';
import type { MrzReading, SideReading } from '@onboarding-kit/contract';
import { documentHints, type HintInput, type HintKind } from '../src/document-hints/hints.js';

/** A CIN's zone (TD1) whose document number is the CPF `cpf`. */
function cinMrz(cpf?: string): MrzReading {
  return {
    format: 'TD1',
    lines: ['IDBRA', 'X', 'Y'],
    fields: { documentCode: 'ID', issuingState: 'BRA', ...(cpf && { cpf }) },
    checks: [],
    valid: true,
  };
}

const QR: SideReading = { qr: { payloadBase64: 'AAEC' } };
const CIN_BACK: SideReading = { mrz: cinMrz('52998224725'), documentKind: 'CIN' };
const CNH_BACK: SideReading = { mrz: cinMrz(), qr: QR.qr!, documentKind: 'CNH' };
const PASSPORT: SideReading = { mrz: { ...cinMrz(), format: 'TD3' }, documentKind: 'PASSPORT' };
const NOTHING: SideReading = {};

const base: HintInput = { documentType: 'CNH', offeredTypes: ['CNH', 'RG', 'CIN'], typedCpf: null, side: 'documentFront' };

const cases: [string, Partial<HintInput>, (HintKind | string)[]][] = [
  ['no reading at all', {}, []],
  ['a front read with nothing found', { front: NOTHING }, []],
  ['a CNH front carrying its back codes', { front: CNH_BACK }, ['looks-like-back']],
  ['a CIN front carrying its zone', { documentType: 'CIN', front: CIN_BACK }, ['looks-like-back']],
  ['an RG front with a zone: the RG has none on its back', { documentType: 'RG', front: { mrz: cinMrz() } }, []],
  ['a front with a QR only: not a zone', { front: QR }, []],
  ['a passport, where the zone is on the photo page', { documentType: 'PASSPORT', offeredTypes: ['PASSPORT'], front: PASSPORT }, []],
  ['back review: codes on the front, none on the back', { side: 'documentBack', front: CNH_BACK, back: NOTHING }, ['sides-swapped']],
  ['back review: the back not read', { side: 'documentBack', front: CNH_BACK }, []],
  ['back review: codes on both', { side: 'documentBack', front: CNH_BACK, back: CNH_BACK }, []],
  ['back review: codes on the back only', { side: 'documentBack', front: NOTHING, back: CNH_BACK }, []],
  ['a CIN read where CNH was chosen', { side: 'documentBack', front: NOTHING, back: CIN_BACK }, ['other-document:CIN']],
  ['a CIN read where CNH was chosen, CIN not offered', { offeredTypes: ['CNH', 'RG'], side: 'documentBack', back: CIN_BACK }, []],
  [
    'a passport read where RG was chosen',
    { documentType: 'RG', offeredTypes: ['RG', 'PASSPORT'], front: PASSPORT },
    ['other-document:PASSPORT'],
  ],
  ['the CIN front as a CNH front: the switch, never the sides', { front: CIN_BACK }, ['other-document:CIN']],
  ['the kind read is the one chosen', { documentType: 'CIN', side: 'documentBack', back: CIN_BACK }, []],
  ['the other side pointing elsewhere says nothing here', { front: NOTHING, back: CIN_BACK }, []],
  ['the zone CPF is the typed one', { documentType: 'CIN', side: 'documentBack', typedCpf: '529.982.247-25', back: CIN_BACK }, []],
  [
    'the zone CPF differs from the typed one',
    { documentType: 'CIN', side: 'documentBack', typedCpf: '111.444.777-35', back: CIN_BACK },
    ['other-person'],
  ],
  ['no typed CPF: nothing to compare', { documentType: 'CIN', side: 'documentBack', back: CIN_BACK }, []],
  ['a CPF still being typed', { documentType: 'CIN', side: 'documentBack', typedCpf: '111.444', back: CIN_BACK }, []],
  ['a zone without a CPF', { documentType: 'CIN', side: 'documentBack', typedCpf: '111.444.777-35', back: { mrz: cinMrz() } }, []],
  [
    'another document and another person',
    { side: 'documentBack', typedCpf: '11144477735', back: CIN_BACK },
    ['other-document:CIN', 'other-person'],
  ],
  [
    'front looks like a back and another person',
    { documentType: 'CIN', typedCpf: '11144477735', front: CIN_BACK },
    ['looks-like-back', 'other-person'],
  ],
];

for (const [name, input, expected] of cases) {
  test(`hints: ${name}`, () => {
    const hints = documentHints({ ...base, ...input });
    assert.deepEqual(
      hints.map((h) => (h.kind === 'other-document' ? `${h.kind}:${h.switchTo}` : h.kind)),
      expected,
    );
  });
}
