/**
 * What a section hands back, and how it is shown: aligned text tables on the terminal and the
 * same tables as Markdown in BENCHMARKS.md.
 */

export interface Table {
  title: string;
  headers: string[];
  rows: string[][];
}

export interface TargetResult {
  /** What is promised, e.g. "first load <= 35 KB min+gzip". */
  target: string;
  /** The figure it is judged on, e.g. "31.2 KB". */
  figure: string;
  /** null: could not be judged (a piece was missing). */
  met: boolean | null;
  /** Why, when it is missed or not judged. */
  note?: string;
}

export interface SectionResult {
  id: string;
  title: string;
  /** Set when the section (or all of it) could not run: "not measured: <why>". */
  notMeasured?: string;
  tables: Table[];
  targets: TargetResult[];
  /** How it was measured (one paragraph per item). */
  method: string[];
  /** Things a reader must know about the figures (partial failures, caveats). */
  notes: string[];
  seconds: number;
}

export function emptySection(id: string, title: string): SectionResult {
  return { id, title, tables: [], targets: [], method: [], notes: [], seconds: 0 };
}

function width(text: string): number {
  return [...text].length;
}

function textTable(table: Table): string {
  const widths = table.headers.map((h, i) => Math.max(width(h), ...table.rows.map((r) => width(r[i] ?? ''))));
  const line = (cells: string[]) => cells.map((c, i) => (i === 0 ? c.padEnd(widths[i]!) : c.padStart(widths[i]!))).join('  ');
  return [
    `  ${table.title}`,
    `  ${line(table.headers)}`,
    `  ${widths.map((w) => '-'.repeat(w)).join('  ')}`,
    ...table.rows.map((r) => `  ${line(r)}`),
  ].join('\n');
}

export function markdownTable(table: Table): string {
  const esc = (c: string) => c.replace(/\|/g, '\\|');
  return [
    `**${table.title}**`,
    '',
    `| ${table.headers.map(esc).join(' | ')} |`,
    `|${table.headers.map((_, i) => (i === 0 ? ' --- ' : ' ---: ')).join('|')}|`,
    ...table.rows.map((r) => `| ${r.map(esc).join(' | ')} |`),
  ].join('\n');
}

export function verdict(t: TargetResult): string {
  return t.met === null ? 'not judged' : t.met ? 'met' : 'MISSED';
}

export function printSection(s: SectionResult): void {
  console.log(`\n== ${s.title} (${s.seconds.toFixed(1)} s)`);
  if (s.notMeasured) console.log(`  not measured: ${s.notMeasured}`);
  for (const t of s.tables) console.log(`${textTable(t)}\n`);
  for (const n of s.notes) console.log(`  note: ${n}`);
  for (const t of s.targets) console.log(`  target ${t.target}: ${verdict(t)} (${t.figure})${t.note ? ` - ${t.note}` : ''}`);
}
