/** BENCHMARKS.md, rewritten by every full `npm run bench`. */
import type { Machine } from './machine.js';
import { markdownTable, verdict, type SectionResult } from './report.js';

export interface RunInfo {
  machine: Machine;
  loadBefore: number[];
  loadAfter: number[];
  wallSeconds: number;
}

const load = (l: number[]) => l.map((x) => x.toFixed(2)).join(' / ');

export function benchmarksMarkdown(run: RunInfo, sections: SectionResult[]): string {
  const m = run.machine;
  const out: string[] = [];
  out.push(
    '# Benchmarks',
    '',
    `Written by \`npm run bench\` (bench/run.ts) on ${m.date}; every run rewrites this file. Do not edit it by hand.`,
    '',
    'Machines are noisy, and this one is shared: every figure that matters is a **ratio against a baseline measured in the same run, on the same machine, minutes apart** ' +
      '(a bare Lit element, a bare `canvas.toBlob`, the sandbox called directly, one open stream, a fetch without the UI), with the absolute values next to it. ' +
      'Compare ratios across machines, not milliseconds. Tests never assert timings; these targets are reported, not enforced.',
    '',
    '## Machine',
    '',
    '| | |',
    '| --- | --- |',
    `| CPU | ${m.cpu} |`,
    `| cores | ${m.cores} |`,
    `| memory | ${m.memory} |`,
    `| OS | ${m.os} |`,
    `| Node | ${m.node} |`,
    `| Chromium | ${m.chromium} |`,
    `| load average (1/5/15 min) before / after | ${load(run.loadBefore)} ; ${load(run.loadAfter)} |`,
    `| bench wall time | ${run.wallSeconds.toFixed(0)} s |`,
    '',
    '## Targets',
    '',
    '| target | verdict | figure | why / note |',
    '| --- | --- | --- | --- |',
  );
  for (const s of sections) {
    for (const t of s.targets)
      out.push(
        `| ${t.target} | ${verdict(t) === 'MISSED' ? '**missed**' : verdict(t)} | ${t.figure.replace(/\|/g, '\\|')} | ${(t.note ?? '').replace(/\|/g, '\\|')} |`,
      );
    if (s.notMeasured && !s.targets.length) out.push(`| (${s.title}) | not measured | - | ${s.notMeasured.replace(/\|/g, '\\|')} |`);
  }
  for (const s of sections) {
    out.push('', `## ${s.title}`, '');
    if (s.notMeasured) out.push(`**Not measured:** ${s.notMeasured}`, '');
    for (const t of s.tables) out.push(markdownTable(t), '');
    if (s.notes.length) out.push('Notes:', '', ...s.notes.map((n) => `- ${n}`), '');
    out.push('Method:', '', ...s.method.map((x) => `- ${x}`), '', `Section time: ${s.seconds.toFixed(1)} s.`);
  }
  out.push(
    '',
    '## Reproducing',
    '',
    '`npm run bench` on a fresh clone after `npm ci` (Chromium at /usr/bin/chromium or `CHROME_PATH`). It builds the element first when its dist/ is missing or stale ' +
      '(`BENCH_NO_BUILD=1` measures the dist/ as it is); `BENCH_ONLY=bytes,capture,companion,relay,e2e` runs a subset and then leaves this file alone.',
    '',
  );
  return out.join('\n');
}

/**
 * BENCHMARKS.md with only the sections of a partial run (`BENCH_ONLY` with `BENCH_WRITE=1`)
 * replaced or added: their blocks, and their rows in the targets table (a row is its target's
 * text; a section keeps the same texts from run to run). Everything else stays as the last full
 * run wrote it, and a line under the title says which sections are newer.
 */
export function mergeSectionsMarkdown(existing: string, run: RunInfo, sections: SectionResult[]): string {
  const fresh = benchmarksMarkdown(run, sections);
  const block = (md: string, title: string): string | undefined => {
    const start = md.indexOf(`\n## ${title}\n`);
    if (start < 0) return undefined;
    const end = md.indexOf('\n## ', start + 1);
    return md.slice(start, end < 0 ? md.length : end);
  };
  let out = existing;
  for (const s of sections) {
    const mine = block(fresh, s.title)!;
    const old = block(out, s.title);
    if (old) out = out.replace(old, mine);
    else {
      const reproducing = out.indexOf('\n## Reproducing\n');
      out = reproducing < 0 ? `${out}${mine}` : `${out.slice(0, reproducing)}${mine}${out.slice(reproducing)}`;
    }
  }
  const freshRows = fresh
    .split('\n')
    .filter((l) => l.startsWith('| ') && sections.some((s) => s.targets.some((t) => l.startsWith(`| ${t.target} |`))));
  const targets = new Set(sections.flatMap((s) => s.targets.map((t) => `| ${t.target} |`)));
  const lines = out.split('\n').filter((l) => ![...targets].some((t) => l.startsWith(t)));
  const tableStart = lines.indexOf('| target | verdict | figure | why / note |');
  if (tableStart >= 0) {
    let end = tableStart + 2;
    while (end < lines.length && lines[end]!.startsWith('|')) end++;
    lines.splice(end, 0, ...freshRows);
  }
  const note = `Sections ${sections.map((s) => `"${s.title}"`).join(', ')} rewritten on ${run.machine.date} by a partial run (\`BENCH_ONLY=${sections.map((s) => s.id).join(',')} BENCH_WRITE=1\`, ${run.wallSeconds.toFixed(0)} s, load average ${load(run.loadBefore)} before); the rest is from the run above.`;
  const rewritten = new Set(sections.map((s) => s.title));
  const header = lines.findIndex((l) => l.startsWith('Written by `npm run bench`'));
  const body = lines.findIndex((l, i) => i > header && l.trim() !== '' && !isPartialNote(l));
  if (header < 0 || body < 0) return lines.join('\n');
  // Earlier partial runs' notes keep the sections this run did not rewrite.
  const notes = lines
    .slice(header + 1, body)
    .filter(isPartialNote)
    .map((l) => withoutSections(l, rewritten))
    .filter((l): l is string => l !== null);
  return [...lines.slice(0, header + 1), ...[note, ...notes].flatMap((l) => ['', l]), '', ...lines.slice(body)].join('\n');
}

function isPartialNote(line: string): boolean {
  return line.startsWith('Sections ') && line.includes(' by a partial run');
}

/** A partial run's note without the sections in `titles`; null when none of its sections is left. */
function withoutSections(note: string, titles: Set<string>): string | null {
  const rest = note.indexOf(' rewritten on ');
  const named = [...note.slice(0, rest).matchAll(/"([^"]+)"/g)].map((m) => m[1]!);
  const kept = named.filter((t) => !titles.has(t));
  if (!kept.length) return null;
  return `Sections ${kept.map((t) => `"${t}"`).join(', ')}${note.slice(rest)}`;
}
