/**
 * Machine-readable zones for the test pictures, built from their fields with real check digits
 * (ICAO 9303: weights 7, 3, 1; `<` counts 0, digits themselves, A-Z 10-35), and CPFs whose own two
 * check digits hold. Isomorphic: the Y4M writer and browser tests use the same lines.
 */

const value = (ch) => (ch === '<' ? 0 : ch >= '0' && ch <= '9' ? ch.charCodeAt(0) - 48 : ch.charCodeAt(0) - 55);

/** The ICAO check digit of a run of zone characters. */
function checkDigit(text) {
  let sum = 0;
  for (let i = 0; i < text.length; i++) sum += value(text[i]) * [7, 3, 1][i % 3];
  return String(sum % 10);
}

/** A CPF from its first 9 digits, with its two check digits. */
export function cpfWithCheckDigits(base9) {
  let digits = base9;
  for (const length of [9, 10]) {
    let sum = 0;
    for (let i = 0; i < length; i++) sum += Number(digits[i]) * (length + 1 - i);
    const rest = (sum * 10) % 11;
    digits += String(rest === 10 ? 0 : rest);
  }
  return digits;
}

const pad = (text, length) => {
  if (text.length > length) throw new RangeError(`"${text}" is longer than ${length}`);
  return text + '<'.repeat(length - text.length);
};
const zoneName = (lastName, firstName, length) =>
  pad(`${lastName.replaceAll(' ', '<')}<<${firstName.replaceAll(' ', '<')}`, length).slice(0, length);

/**
 * A TD1 zone (three lines of 30). A document number longer than 9 characters runs on into the
 * optional data, its check digit after it, and `<` stands where its check digit would be.
 */
export function td1Lines({ documentCode, issuingState, documentNumber, birthDate, sex, expirationDate, nationality, lastName, firstName }) {
  const numberCheck = checkDigit(documentNumber);
  const numberPart =
    documentNumber.length <= 9
      ? pad(documentNumber, 9) + numberCheck + pad('', 15)
      : documentNumber.slice(0, 9) + '<' + pad(documentNumber.slice(9) + numberCheck, 15);
  const line1 = pad(documentCode, 2) + issuingState + numberPart;
  const line2Start = birthDate + checkDigit(birthDate) + sex + expirationDate + checkDigit(expirationDate) + nationality + pad('', 11);
  const composite = checkDigit(line1.slice(5, 30) + line2Start.slice(0, 7) + line2Start.slice(8, 15) + line2Start.slice(18, 29));
  return [line1, line2Start + composite, zoneName(lastName, firstName, 30)];
}

/** A TD3 zone (two lines of 44), with an empty personal number. */
export function td3Lines({ documentCode, issuingState, documentNumber, birthDate, sex, expirationDate, nationality, lastName, firstName }) {
  const line1 = pad(documentCode, 2) + issuingState + zoneName(lastName, firstName, 39);
  const number = pad(documentNumber, 9);
  const personal = pad('', 14);
  const body =
    number +
    checkDigit(number) +
    nationality +
    birthDate +
    checkDigit(birthDate) +
    sex +
    expirationDate +
    checkDigit(expirationDate) +
    personal +
    checkDigit(personal);
  const composite = checkDigit(body.slice(0, 10) + body.slice(13, 20) + body.slice(21, 43));
  return [line1, body + composite];
}

/** The same zone with one check digit changed (a damaged print), at `line`/`column`. */
export function withWrongDigit(lines, line, column) {
  const out = [...lines];
  const digit = out[line][column];
  out[line] = out[line].slice(0, column) + String((Number(digit) + 3) % 10) + out[line].slice(column + 1);
  return out;
}
