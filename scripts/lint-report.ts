/**
 * Everything the formatter check, ESLint and knip of `npm run lint` would fail on, listed at once
 * and without failing: `npm run lint` stops at the first tool that fails, and a branch that is
 * not yet formatted or still over a size limit needs the whole list to plan its work. ESLint's
 * findings are counted per rule and per file, then listed as `file:line rule`.
 *
 * Usage: npm run lint:report [-- --no-format] (skip the formatter's list)
 */
import { spawnSync } from 'node:child_process';
import { join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';

interface EslintFile {
  filePath: string;
  messages: { ruleId: string | null; line: number; message: string }[];
}

const root = fileURLToPath(new URL('..', import.meta.url));
const bin = (name: string) => join(root, 'node_modules', '.bin', name);

/** A tool's output; with `stdoutOnly`, its standard output alone (a machine-readable report). */
function run(name: string, args: string[], stdoutOnly = false): string {
  const r = spawnSync(bin(name), args, { cwd: root, encoding: 'utf8', maxBuffer: 256 * 1024 * 1024 });
  if (r.error) throw r.error;
  return stdoutOnly ? r.stdout : `${r.stdout}${r.stderr}`;
}

function counted(counts: Map<string, number>): string {
  return [...counts]
    .sort((a, b) => b[1] - a[1] || a[0].localeCompare(b[0]))
    .map(([key, n]) => `${String(n).padStart(5)}  ${key}`)
    .join('\n');
}

function eslintReport(): string {
  const files = JSON.parse(run('eslint', ['--format', 'json', '.'], true)) as EslintFile[];
  const byRule = new Map<string, number>();
  const byFile = new Map<string, number>();
  const lines: string[] = [];
  for (const file of files) {
    const path = relative(root, file.filePath);
    for (const m of file.messages) {
      const rule = m.ruleId ?? 'parse error';
      byRule.set(rule, (byRule.get(rule) ?? 0) + 1);
      byFile.set(path, (byFile.get(path) ?? 0) + 1);
      lines.push(`${path}:${m.line} ${rule}: ${m.message}`);
    }
  }
  if (!lines.length) return 'no findings';
  return `${lines.length} finding(s)\n\nper rule:\n${counted(byRule)}\n\nper file:\n${counted(byFile)}\n\n${lines.join('\n')}`;
}

const sections: [string, () => string][] = [
  ['formatter (npm run format fixes these)', () => run('biome', ['format', '--reporter=summary', '--max-diagnostics=none'])],
  ['eslint', eslintReport],
  ['knip', () => run('knip', ['--no-progress', '--no-exit-code']) || 'no findings'],
];
for (const [title, report] of sections) {
  if (title.startsWith('formatter') && process.argv.includes('--no-format')) continue;
  console.log(`===== ${title}\n${report().trim()}\n`);
}
