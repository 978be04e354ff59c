/**
 * packages/server/README.md's option tables against the option types, read from the source with
 * the TypeScript compiler: every member of `CompanionOptions` (src/options.ts) is a row of "All
 * options of `createCompanion`", every member of `ServeOptions` (src/serve.ts) a row of "Options
 * of `serveCompanion` and `listen`", and neither table names an option the type does not have.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import ts from 'typescript';

const read = (path: string) => readFileSync(new URL(`../${path}`, import.meta.url), 'utf8');

/** The member names of an exported interface, as the compiler parses them. */
export function interfaceMembers(source: string, name: string): string[] {
  const file = ts.createSourceFile('options.ts', source, ts.ScriptTarget.Latest, true);
  const found = file.statements.find((s): s is ts.InterfaceDeclaration => ts.isInterfaceDeclaration(s) && s.name.text === name);
  assert.ok(found, `interface ${name} not found`);
  assert.equal(found.heritageClauses, undefined, `${name} extends another type: read its members too`);
  return found.members.map((m) => {
    assert.ok(m.name && (ts.isIdentifier(m.name) || ts.isStringLiteral(m.name)), `a member of ${name} has no plain name`);
    return m.name.text;
  });
}

/** The options a Markdown table under `heading` names: the backticked words of each row's first cell. */
export function tableOptions(markdown: string, heading: string): string[] {
  const lines = markdown.split('\n');
  const at = lines.findIndex((l) => /^#+ /.test(l) && l.replace(/^#+ /, '') === heading);
  assert.ok(at >= 0, `no heading "${heading}"`);
  const rows: string[] = [];
  let inTable = false;
  for (const line of lines.slice(at + 1)) {
    if (/^#+ /.test(line)) break;
    if (!line.startsWith('|')) {
      if (inTable) break;
      continue;
    }
    if (!inTable) {
      inTable = true; // the header row
      continue;
    }
    if (/^\|[-| :]+\|$/.test(line)) continue;
    const first = line.split('|')[1] ?? '';
    for (const [, name] of first.matchAll(/`([A-Za-z][\w]*)`/g)) rows.push(name!);
  }
  return rows;
}

const sorted = (xs: string[]) => [...new Set(xs)].sort();

test('the readers find interface members and the first cells of a table, and nothing else', () => {
  assert.deepEqual(interfaceMembers('export interface A { /** x */ a: string; b?: { c: number }; "d"?(): void }', 'A'), ['a', 'b', 'd']);
  const md = [
    '## T',
    'text `notThis`',
    '',
    '| option | default |',
    '|---|---|',
    '| `a`, `b` | `x` |',
    '| `c` (`C_VAR`) | 1 |',
    '',
    '| `later` |',
    '## U',
    '| `u` |',
  ].join('\n');
  assert.deepEqual(tableOptions(md, 'T'), ['a', 'b', 'c', 'C_VAR']);
});

test("the README's table of createCompanion's options is the CompanionOptions type, member for member", () => {
  const members = sorted(interfaceMembers(read('src/options.ts'), 'CompanionOptions'));
  const documented = sorted(tableOptions(read('README.md'), 'All options of `createCompanion`'));
  assert.deepEqual(
    { undocumented: members.filter((m) => !documented.includes(m)), unknown: documented.filter((d) => !members.includes(d)) },
    { undocumented: [], unknown: [] },
  );
});

test("the README's table of serveCompanion's options is the ServeOptions type, member for member", () => {
  const members = sorted(interfaceMembers(read('src/serve.ts'), 'ServeOptions'));
  const documented = sorted(tableOptions(read('README.md'), 'Options of `serveCompanion` and `listen`'));
  assert.deepEqual(
    { undocumented: members.filter((m) => !documented.includes(m)), unknown: documented.filter((d) => !members.includes(d)) },
    { undocumented: [], unknown: [] },
  );
});
