/** The document-kind rules: a passport's TD3 zone, a CIN's BRA zone whose number is a CPF, and no claim otherwise. */
import test from 'node:test';
import assert from 'node:assert/strict';
import type { MrzReading } from '@onboarding-kit/contract';
import { documentKindOfMrz } from '../src/reader/document-kind.js';

const reading = (format: MrzReading['format'], fields: MrzReading['fields']): MrzReading => ({
  format,
  lines: [],
  fields,
  checks: [],
  valid: true,
});

test('a TD3 zone whose code starts with P is a passport, whoever issued it', () => {
  assert.equal(documentKindOfMrz(reading('TD3', { documentCode: 'P', issuingState: 'BRA' })), 'PASSPORT');
  assert.equal(documentKindOfMrz(reading('TD3', { documentCode: 'PO', issuingState: 'UTO' })), 'PASSPORT');
  assert.equal(documentKindOfMrz(reading('TD3', { documentCode: 'V', issuingState: 'BRA' })), undefined);
});

test('a TD1 zone issued by BRA whose number is a valid CPF is a CIN', () => {
  assert.equal(
    documentKindOfMrz(reading('TD1', { documentCode: 'I', issuingState: 'BRA', documentNumber: '52998224725', cpf: '52998224725' })),
    'CIN',
  );
});

test('no claim for another state, a number that is not a CPF (the 2022 CNH), a TD1 passport code or TD2', () => {
  assert.equal(documentKindOfMrz(reading('TD1', { documentCode: 'I', issuingState: 'PRT', cpf: '52998224725' })), undefined);
  assert.equal(documentKindOfMrz(reading('TD1', { documentCode: 'I', issuingState: 'BRA', documentNumber: '074512983' })), undefined);
  assert.equal(documentKindOfMrz(reading('TD1', { documentCode: 'P', issuingState: 'BRA' })), undefined);
  assert.equal(documentKindOfMrz(reading('TD2', { documentCode: 'P', issuingState: 'BRA', cpf: '52998224725' })), undefined);
});
