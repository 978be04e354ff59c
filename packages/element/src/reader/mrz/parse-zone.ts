/**
 * The zone's lines as a reading: the `mrz` parser, with its autocorrection (O/0, I/1, B/8 and the
 * like where a field must be all digits or all letters) written back into the lines, the fields
 * as the zone spells them, and every check digit the format has.
 */
import { isValidCpf, type MrzCheckedField, type MrzFormat, type MrzReading } from '@onboarding-kit/contract';
import { parse } from 'mrz';

type ParseResult = ReturnType<typeof parse>;

const CHECK_FIELDS: Partial<Record<string, MrzCheckedField>> = {
  documentNumberCheckDigit: 'documentNumber',
  birthDateCheckDigit: 'birthDate',
  expirationDateCheckDigit: 'expirationDate',
  personalNumberCheckDigit: 'personalNumber',
  compositeCheckDigit: 'composite',
};

function corrected(lines: string[], result: ParseResult): string[] {
  const out = lines.map((line) => [...line]);
  for (const detail of result.details) {
    for (const change of detail.autocorrect) out[change.line]![change.column] = change.corrected;
  }
  return out.map((chars) => chars.join(''));
}

const present = (value: string | null | undefined) => (value ? value : undefined);

function fieldsOf(result: ParseResult, lines: string[]): MrzReading['fields'] {
  const f = result.fields;
  const number = present(f.documentNumber);
  // A document number longer than 9 runs on into the optional data, its check digit after it.
  const optional1 = present(f.optional1)?.slice(number && number.length > 9 ? number.length - 8 : 0);
  const sexDetail = result.details.find((d) => d.field === 'sex');
  const sex = sexDetail ? lines[sexDetail.line]![sexDetail.start] : undefined;
  const fields: MrzReading['fields'] = {
    documentCode: present(f.documentCode),
    issuingState: present(f.issuingState),
    documentNumber: number,
    birthDate: present(f.birthDate),
    sex: sex && sex !== '<' ? sex : undefined,
    expirationDate: present(f.expirationDate),
    nationality: present(f.nationality),
    lastName: present(f.lastName),
    firstName: present(f.firstName),
    optional: present(result.format === 'TD3' ? f.personalNumber : optional1),
    cpf: number && /^\d{11}$/.test(number) && isValidCpf(number) ? number : undefined,
  };
  for (const key of Object.keys(fields) as (keyof typeof fields)[]) if (fields[key] === undefined) delete fields[key];
  return fields;
}

/** The reading of a zone's lines, or undefined when the parser does not take them as `format`. */
export function parseZone(lines: string[], format: MrzFormat): MrzReading | undefined {
  let result: ParseResult;
  try {
    result = parse(lines, { autocorrect: true });
  } catch {
    return undefined;
  }
  if (result.format !== format) return undefined;
  const read = corrected(lines, result);
  const checks = result.details.flatMap((d) => {
    const field = d.field ? CHECK_FIELDS[d.field] : undefined;
    return field ? [{ field, valid: d.valid }] : [];
  });
  return { format, lines: read, fields: fieldsOf(result, read), checks, valid: checks.every((c) => c.valid) };
}
