/**
 * Tax ids, catalog entries and stripping at their edges: shapes anchored at both ends, the
 * check-digit fold, text that is no tax id left alone, the shape every catalog group promises.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import {
  SERVICE_CATALOG,
  SERVICE_IDS,
  KNOWN_CALL_ALIASES,
  cnpjCheckDigits,
  cpfCheckDigits,
  formatCnpj,
  formatCpf,
  isValidCnpj,
  maskCpfInput,
  normalizeCnpj,
  normalizeCpf,
  serviceForAlias,
  stripNonContract,
} from '@onboarding-kit/contract';

test('a tax id is the whole text: nothing before it, nothing after it', () => {
  for (const text of ['x529.982.247-25', '529.982.247-25x', '1529.982.247-25', '529.982.247-251'])
    assert.equal(normalizeCpf(text), null, text);
  for (const text of ['x11.222.333/0001-81', '11.222.333/0001-81x', '111.222.333/0001-81', '11.222.333/0001-811'])
    assert.equal(normalizeCnpj(text), null, text);
  assert.equal(normalizeCnpj('  12.abc.345/01de-35 '), '12ABC34501DE35');
});

test('check-digit bases are exactly nine digits (CPF) and twelve characters (CNPJ)', () => {
  for (const base of ['12345678', '1234567890', 'x12345678', '12345678x', '12345678a']) {
    assert.throws(() => cpfCheckDigits(base), { name: 'RangeError', message: 'A CPF base has exactly nine digits' }, base);
  }
  assert.equal(cpfCheckDigits('529982247'), '25');
  for (const base of ['12', '12ABC34501D', '12ABC34501DE3', '-12ABC34501DE', '12ABC34501DE-']) {
    assert.throws(() => cnpjCheckDigits(base), { name: 'RangeError', message: 'A CNPJ base has exactly twelve characters' }, base);
  }
});

test('known CNPJs whose check digits fold a remainder of 2 and below to 0 and give 9 for 2', () => {
  // Published CNPJs (Banco do Brasil, Petrobras, Caixa): between them every branch of the fold.
  assert.equal(cnpjCheckDigits('000000000001'), '91');
  assert.equal(cnpjCheckDigits('330001670001'), '01');
  assert.equal(cnpjCheckDigits('003603050001'), '04');
  assert.equal(isValidCnpj('00.000.000/0001-91'), true);
  assert.equal(isValidCnpj('00.000.000/0001-01'), false);
});

test('text that is not a tax id is formatted as itself; the mask adds the dash only past nine digits', () => {
  for (const text of ['abc', '', '529.982.247']) {
    assert.equal(formatCpf(text), text);
    assert.equal(formatCnpj(text), text);
  }
  assert.equal(maskCpfInput('529982247'), '529.982.247');
  assert.equal(maskCpfInput('5299822472'), '529.982.247-2');
});

test('every catalog group has its shape: companies need only the CNPJ, identifier-only shows nothing', () => {
  for (const id of SERVICE_IDS) {
    const spec = SERVICE_CATALOG[id];
    if (spec.group === 'company') {
      assert.deepEqual([spec.required, spec.optional, spec.requestShown], [['cnpj'], [], true], id);
    } else if (spec.group === 'identifier-only') {
      assert.deepEqual([spec.required, spec.optional, spec.requestShown, spec.result, spec.resultPartial], [[], [], false, [], true], id);
    } else {
      assert.equal(spec.requestShown, true, id);
    }
  }
  // Entries with no optional field and a complete result list, one per group that can have them.
  for (const id of ['SERVICE_PERSON_DATA_ENRICHMENT', 'SERVICE_FACE_INDEX', 'SERVICE_DOMAINS_CNPJ'] as const) {
    assert.deepEqual([SERVICE_CATALOG[id].optional, SERVICE_CATALOG[id].resultPartial], [[], false], id);
  }
});

test('known aliases are listed as the upstream names them; only a configured alias maps back', () => {
  assert.deepEqual(KNOWN_CALL_ALIASES, {
    SERVICE_DIGITAL_DOCUMENTOSCOPY: ['SERVICE_DOCUMENTOSCOPY'],
    SERVICE_EMAIL_VALIDATION: ['SERVICE_EMAIL_VALIDATION1', 'SERVICE_EMAIL_VALIDATION'],
    SERVICE_ECONOMIC_RELATIONSHIP: ['economic_relationships', 'SERVICE_ECONOMIC_RELATIONSHIP'],
  });
  assert.equal(serviceForAlias('SERVICE_SOMETHING_ELSE', { SERVICE_PEP: 'PEP_V2' }), undefined);
  assert.equal(serviceForAlias('PEP_V2', { SERVICE_OCR: 'OCR_V2', SERVICE_PEP: 'PEP_V2' }), 'SERVICE_PEP');
});

test('stripping drops undefined members as it drops nulls', () => {
  const out = stripNonContract({ cpf: '1', name: undefined, nested: { a: undefined, b: 0 } });
  assert.deepEqual(out, { cpf: '1', nested: { b: 0 } });
  assert.equal('name' in out, false);
});
