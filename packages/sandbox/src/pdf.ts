/**
 * A minimal PDF 1.4 writer: one A4 page of Helvetica text lines, with a correct cross-reference
 * table (byte offsets of every object), so any PDF reader opens it. Text is WinAnsi (Latin-1);
 * characters outside it become `?`.
 */

function latin1(text: string): string {
  return Array.from(text, (ch) => (ch.charCodeAt(0) <= 0xff && ch.length === 1 ? ch : '?')).join('');
}

/** Escapes a PDF literal string. */
function pdfString(text: string): string {
  return `(${latin1(text)
    .replace(/[\\()]/g, (m) => `\\${m}`)
    .replace(/[\r\n]/g, ' ')})`;
}

export interface PdfLine {
  text: string;
  size?: number;
}

export function writePdf(lines: readonly PdfLine[]): Uint8Array {
  const contentParts = ['BT', '/F1 11 Tf', '56 790 Td'];
  let first = true;
  for (const line of lines) {
    const size = line.size ?? 11;
    if (!first) contentParts.push(`0 -${Math.round(size * 1.6)} Td`);
    contentParts.push(`/F1 ${size} Tf`, `${pdfString(line.text)} Tj`);
    first = false;
  }
  contentParts.push('ET');
  const content = contentParts.join('\n');

  const objects = [
    '<< /Type /Catalog /Pages 2 0 R >>',
    '<< /Type /Pages /Kids [3 0 R] /Count 1 >>',
    '<< /Type /Page /Parent 2 0 R /MediaBox [0 0 595 842] /Resources << /Font << /F1 4 0 R >> >> /Contents 5 0 R >>',
    '<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica /Encoding /WinAnsiEncoding >>',
    `<< /Length ${Buffer.byteLength(content, 'latin1')} >>\nstream\n${content}\nendstream`,
    `<< /Producer (onboarding-kit sandbox) /CreationDate (D:${new Date().toISOString().replace(/[-:T]/g, '').slice(0, 14)}Z) >>`,
  ];

  // Binary comment line after the header tells transfer tools the file is binary.
  let out = '%PDF-1.4\n%\xe2\xe3\xcf\xd3\n';
  const offsets: number[] = [];
  objects.forEach((body, i) => {
    offsets.push(Buffer.byteLength(out, 'latin1'));
    out += `${i + 1} 0 obj\n${body}\nendobj\n`;
  });
  const xrefAt = Buffer.byteLength(out, 'latin1');
  out += `xref\n0 ${objects.length + 1}\n0000000000 65535 f \n`;
  for (const offset of offsets) out += `${String(offset).padStart(10, '0')} 00000 n \n`;
  out += `trailer\n<< /Size ${objects.length + 1} /Root 1 0 R /Info ${objects.length} 0 R >>\nstartxref\n${xrefAt}\n%%EOF\n`;
  return new Uint8Array(Buffer.from(out, 'latin1'));
}
