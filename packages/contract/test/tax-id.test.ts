import { test } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import {
  cnpjCheckDigits,
  cpfCheckDigits,
  formatCnpj,
  formatCpf,
  isValidCnpj,
  isValidCpf,
  maskCpfInput,
  maskTaxId,
  maskTaxIdForPage,
  isMaskedTaxId,
  normalizeCnpj,
  normalizeCpf,
  onlyDigits,
  parseTaxId,
} from '@onboarding-kit/contract';

const digits = (n: number) => fc.array(fc.integer({ min: 0, max: 9 }), { minLength: n, maxLength: n }).map((a) => a.join(''));
const validCpf = digits(9)
  .filter((b) => !/^(\d)\1{8}$/.test(b))
  .map((b) => b + cpfCheckDigits(b));
const cnpjChar = fc.constantFrom(...'0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZ'.split(''));
const validCnpj = fc
  .array(cnpjChar, { minLength: 12, maxLength: 12 })
  .map((a) => a.join(''))
  .filter((b) => !/^(\d)\1{11}$/.test(b))
  .map((b) => b + cnpjCheckDigits(b));

test('known CPFs: valid with and without punctuation, wrong digit refused', () => {
  for (const cpf of ['529.982.247-25', '52998224725', '111.444.777-35', '123.456.789-09']) assert.equal(isValidCpf(cpf), true, cpf);
  for (const cpf of [
    '529.982.247-24',
    '52998224726',
    '111.111.111-11',
    '000.000.000-00',
    '5299822472',
    '529982247255',
    '529.982.247-2X',
    '',
    'abc',
  ]) {
    assert.equal(isValidCpf(cpf), false, cpf);
  }
});

test('punctuation must be in its places', () => {
  assert.equal(normalizeCpf('529-982-247.25'), null);
  assert.equal(normalizeCpf(' 529.982.247-25 '), '52998224725');
  assert.equal(normalizeCnpj('11.222.333/0001-81'), '11222333000181');
  assert.equal(normalizeCnpj('11/222/333.0001-81'), null);
});

test('known CNPJs, including the alphanumeric form of the Receita Federal example', () => {
  assert.equal(isValidCnpj('11.222.333/0001-81'), true);
  assert.equal(isValidCnpj('11222333000181'), true);
  assert.equal(isValidCnpj('11.222.333/0001-82'), false);
  assert.equal(isValidCnpj('00.000.000/0000-00'), false);
  // Example published with the 2026 alphanumeric CNPJ: 12.ABC.345/01DE-35.
  assert.equal(isValidCnpj('12.ABC.345/01DE-35'), true);
  assert.equal(isValidCnpj('12.abc.345/01de-35'), true);
  assert.equal(isValidCnpj('12.ABC.345/01DE-36'), false);
  assert.equal(cnpjCheckDigits('12ABC34501DE'), '35');
});

test('property: every generated CPF validates, formats and normalises back', () => {
  fc.assert(
    fc.property(validCpf, (cpf) => {
      assert.equal(isValidCpf(cpf), true);
      const formatted = formatCpf(cpf);
      assert.match(formatted, /^\d{3}\.\d{3}\.\d{3}-\d{2}$/);
      assert.equal(isValidCpf(formatted), true);
      assert.equal(normalizeCpf(formatted), cpf);
      assert.deepEqual(parseTaxId(formatted), { kind: 'cpf', value: cpf });
    }),
  );
});

// Only the check digits: mod 11 folds a remainder of 10 to 0, so a change elsewhere can (rarely,
// e.g. 52493812000 with its sixth digit changed) keep both check digits right.
test('property: changing one check digit of a valid CPF makes it invalid', () => {
  fc.assert(
    fc.property(validCpf, fc.integer({ min: 9, max: 10 }), fc.integer({ min: 1, max: 9 }), (cpf, pos, delta) => {
      const changed = cpf.slice(0, pos) + ((Number(cpf[pos]) + delta) % 10) + cpf.slice(pos + 1);
      assert.equal(isValidCpf(changed), false);
    }),
  );
});

test('property: every generated CNPJ validates, formats and normalises back', () => {
  fc.assert(
    fc.property(validCnpj, (cnpj) => {
      assert.equal(isValidCnpj(cnpj), true);
      const formatted = formatCnpj(cnpj);
      assert.match(formatted, /^[0-9A-Z]{2}\.[0-9A-Z]{3}\.[0-9A-Z]{3}\/[0-9A-Z]{4}-\d{2}$/);
      assert.equal(normalizeCnpj(formatted), cnpj);
      assert.equal(parseTaxId(formatted)?.kind, 'cnpj');
    }),
  );
});

test('property: changing one check digit of a valid CNPJ makes it invalid', () => {
  fc.assert(
    fc.property(validCnpj, fc.integer({ min: 12, max: 13 }), fc.integer({ min: 1, max: 9 }), (cnpj, pos, delta) => {
      const changed = cnpj.slice(0, pos) + ((Number(cnpj[pos]) + delta) % 10) + cnpj.slice(pos + 1);
      assert.equal(isValidCnpj(changed), false);
    }),
  );
});

test('progressive mask follows what is typed', () => {
  assert.equal(maskCpfInput(''), '');
  assert.equal(maskCpfInput('529'), '529');
  assert.equal(maskCpfInput('5299'), '529.9');
  assert.equal(maskCpfInput('5299822'), '529.982.2');
  assert.equal(maskCpfInput('5299822472'), '529.982.247-2');
  assert.equal(maskCpfInput('529.982.247-25999'), '529.982.247-25');
  assert.equal(maskCpfInput('a5b2c9'), '529');
  fc.assert(fc.property(fc.string(), (s) => assert.equal(onlyDigits(maskCpfInput(s)), onlyDigits(s).slice(0, 11))));
});

test('masking for a page shows the middle digits only, and says it is masked', () => {
  assert.equal(maskTaxIdForPage('529.982.247-25'), '***.982.247-**');
  assert.equal(maskTaxIdForPage('52998224725'), '***.982.247-**');
  assert.equal(maskTaxIdForPage('11.222.333/0001-81'), '**.222.333/0001-**');
  assert.equal(maskTaxIdForPage('garbage'), '***');
  assert.equal(isMaskedTaxId(maskTaxIdForPage('529.982.247-25')), true);
  assert.equal(isMaskedTaxId('529.982.247-25'), false);
  // Neither the first three nor the last two digits of a CPF reach a page.
  fc.assert(
    fc.property(fc.stringMatching(/^\d{11}$/), (digits) => {
      const shown = maskTaxIdForPage(digits);
      if (shown === '***') return;
      assert.equal(shown, `***.${digits.slice(3, 6)}.${digits.slice(6, 9)}-**`);
    }),
  );
});

test('masking for logs never shows the middle digits', () => {
  assert.equal(maskTaxId('529.982.247-25'), '529.***.***-25');
  assert.equal(maskTaxId('11.222.333/0001-81'), '11.***.***/****-81');
  assert.equal(maskTaxId('garbage'), '***');
  assert.equal(parseTaxId('nope'), null);
  assert.throws(() => cpfCheckDigits('12'), RangeError);
});
