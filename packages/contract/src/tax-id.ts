/**
 * CPF (people) and CNPJ (companies): normalisation, check digits, formatting.
 *
 * CNPJ accepts the alphanumeric form the Receita Federal issues from July 2026 (12 characters
 * A-Z/0-9, then two numeric check digits); every numeric CNPJ stays valid under the same rule.
 */

export type TaxIdKind = 'cpf' | 'cnpj';

export interface TaxId {
  kind: TaxIdKind;
  /** Canonical form: digits only for CPF; upper-case alphanumerics for CNPJ. */
  value: string;
}

/** Keeps only the digits: `"529.982.247-25"` -> `"52998224725"`. */
export function onlyDigits(input: string): string {
  return input.replace(/\D+/g, '');
}

const CPF_PUNCTUATION = /^\d{3}\.?\d{3}\.?\d{3}-?\d{2}$/;
const CNPJ_PUNCTUATION = /^[0-9A-Z]{2}\.?[0-9A-Z]{3}\.?[0-9A-Z]{3}\/?[0-9A-Z]{4}-?\d{2}$/;

/** Canonical CPF (11 digits) or `null` when the shape is wrong. Check digits are not verified here. */
export function normalizeCpf(input: string): string | null {
  const trimmed = input.trim();
  if (!CPF_PUNCTUATION.test(trimmed)) return null;
  return onlyDigits(trimmed);
}

/** Canonical CNPJ (14 characters) or `null` when the shape is wrong. */
export function normalizeCnpj(input: string): string | null {
  const trimmed = input.trim().toUpperCase();
  if (!CNPJ_PUNCTUATION.test(trimmed)) return null;
  return trimmed.replace(/[./-]/g, '');
}

function cpfDigit(digits: string, length: number): number {
  let sum = 0;
  for (let i = 0; i < length; i++) sum += Number(digits[i]) * (length + 1 - i);
  const rest = (sum * 10) % 11;
  return rest === 10 ? 0 : rest;
}

/** The two check digits for the first nine digits of a CPF. */
export function cpfCheckDigits(base9: string): string {
  if (!/^\d{9}$/.test(base9)) throw new RangeError('A CPF base has exactly nine digits');
  const first = cpfDigit(base9, 9);
  const second = cpfDigit(base9 + first, 10);
  return `${first}${second}`;
}

export function isValidCpf(input: string): boolean {
  const cpf = normalizeCpf(input);
  if (!cpf || /^(\d)\1{10}$/.test(cpf)) return false;
  return cpfCheckDigits(cpf.slice(0, 9)) === cpf.slice(9);
}

const CNPJ_WEIGHTS = [6, 5, 4, 3, 2, 9, 8, 7, 6, 5, 4, 3, 2];

function cnpjDigit(chars: string): number {
  const weights = CNPJ_WEIGHTS.slice(CNPJ_WEIGHTS.length - chars.length);
  let sum = 0;
  for (let i = 0; i < chars.length; i++) sum += (chars.charCodeAt(i) - 48) * weights[i]!;
  const rest = sum % 11;
  return rest < 2 ? 0 : 11 - rest;
}

/** The two check digits for the first twelve characters of a CNPJ. */
export function cnpjCheckDigits(base12: string): string {
  const base = base12.toUpperCase();
  if (!/^[0-9A-Z]{12}$/.test(base)) throw new RangeError('A CNPJ base has exactly twelve characters');
  const first = cnpjDigit(base);
  const second = cnpjDigit(base + first);
  return `${first}${second}`;
}

export function isValidCnpj(input: string): boolean {
  const cnpj = normalizeCnpj(input);
  if (!cnpj || /^(\d)\1{13}$/.test(cnpj)) return false;
  return cnpjCheckDigits(cnpj.slice(0, 12)) === cnpj.slice(12);
}

/** `"52998224725"` -> `"529.982.247-25"`; anything that is not a CPF shape is returned unchanged. */
export function formatCpf(input: string): string {
  const cpf = normalizeCpf(input);
  if (!cpf) return input;
  return `${cpf.slice(0, 3)}.${cpf.slice(3, 6)}.${cpf.slice(6, 9)}-${cpf.slice(9)}`;
}

/** `"11222333000181"` -> `"11.222.333/0001-81"`; anything else is returned unchanged. */
export function formatCnpj(input: string): string {
  const cnpj = normalizeCnpj(input);
  if (!cnpj) return input;
  return `${cnpj.slice(0, 2)}.${cnpj.slice(2, 5)}.${cnpj.slice(5, 8)}/${cnpj.slice(8, 12)}-${cnpj.slice(12)}`;
}

/**
 * Progressive mask for typing: formats however many digits have been typed so far
 * (`"5299822"` -> `"529.982.2"`), at most 11.
 */
export function maskCpfInput(input: string): string {
  const d = onlyDigits(input).slice(0, 11);
  const parts = [d.slice(0, 3), d.slice(3, 6), d.slice(6, 9)].filter(Boolean);
  let out = parts.join('.');
  if (d.length > 9) out += `-${d.slice(9)}`;
  return out;
}

/** Classifies a valid CPF or CNPJ, or returns `null`. */
export function parseTaxId(input: string): TaxId | null {
  if (isValidCpf(input)) return { kind: 'cpf', value: normalizeCpf(input)! };
  if (isValidCnpj(input)) return { kind: 'cnpj', value: normalizeCnpj(input)! };
  return null;
}

/**
 * For a page: the middle digits only (`***.982.247-**`, `**.222.333/0001-**`), as Brazilian public
 * services show a CPF. Enough for the person to recognise their own, too little to use elsewhere.
 */
export function maskTaxIdForPage(input: string): string {
  const cpf = normalizeCpf(input);
  if (cpf) return `***.${cpf.slice(3, 6)}.${cpf.slice(6, 9)}-**`;
  const cnpj = normalizeCnpj(input);
  if (cnpj) return `**.${cnpj.slice(2, 5)}.${cnpj.slice(5, 8)}/${cnpj.slice(8, 12)}-**`;
  return '***';
}

/** Whether a tax id is one `maskTaxIdForPage` wrote (the page never holds the whole one then). */
export const isMaskedTaxId = (value: string): boolean => value.includes('*');

/** For logs: keeps the first three and last two digits of a CPF (`529.***.***-25`). */
export function maskTaxId(input: string): string {
  const cpf = normalizeCpf(input);
  if (cpf) return `${cpf.slice(0, 3)}.***.***-${cpf.slice(9)}`;
  const cnpj = normalizeCnpj(input);
  if (cnpj) return `${cnpj.slice(0, 2)}.***.***/****-${cnpj.slice(12)}`;
  return '***';
}
