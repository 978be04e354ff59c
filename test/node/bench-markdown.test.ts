/**
 * BENCHMARKS.md rewritten section by section (`BENCH_ONLY` with `BENCH_WRITE=1`): each partial
 * run's note under the title keeps naming the sections no later run rewrote.
 */
import test from 'node:test';
import assert from 'node:assert/strict';
import { benchmarksMarkdown, mergeSectionsMarkdown, type RunInfo } from '../../bench/lib/markdown.js';
import { emptySection, type SectionResult } from '../../bench/lib/report.js';

function run(date: string): RunInfo {
  const machine = { cpu: 'test', cores: 2, memory: '1 GB', os: 'test', node: 'v0', chromium: '0', date };
  return { machine, loadBefore: [1, 1, 1], loadAfter: [1, 1, 1], wallSeconds: 10 };
}

function section(id: string, title: string, figure: string): SectionResult {
  const s = emptySection(id, title);
  s.tables.push({ title: 'figures', headers: ['what', 'figure'], rows: [['it', figure]] });
  s.targets.push({ target: `${id} target`, figure, met: true });
  return s;
}

const full = benchmarksMarkdown(run('T0'), [section('a', '1. A', 'a0'), section('b', '2. B', 'b0'), section('c', '3. C', 'c0')]);

const header = (md: string) => md.slice(0, md.indexOf('\nMachines are noisy')).split('\n');

test('a partial run replaces its sections and target rows, and names itself under the title', () => {
  const md = mergeSectionsMarkdown(full, run('T1'), [section('b', '2. B', 'b1')]);
  assert.match(md, /\| it \| b1 \|/);
  assert.doesNotMatch(md, /\| it \| b0 \|/);
  assert.match(md, /\| it \| a0 \|/);
  assert.equal(md.match(/\| b target \|/g)?.length, 1);
  assert.deepEqual(
    header(md).filter((l) => l.startsWith('Sections ')),
    [
      'Sections "2. B" rewritten on T1 by a partial run (`BENCH_ONLY=b BENCH_WRITE=1`, 10 s, load average 1.00 / 1.00 / 1.00 before); the rest is from the run above.',
    ],
  );
});

test("a later partial run keeps the earlier runs' notes for the sections it did not rewrite", () => {
  const first = mergeSectionsMarkdown(full, run('T1'), [section('a', '1. A', 'a1'), section('b', '2. B', 'b1')]);
  const second = mergeSectionsMarkdown(first, run('T2'), [section('b', '2. B', 'b2')]);
  const third = mergeSectionsMarkdown(second, run('T3'), [section('a', '1. A', 'a3')]);
  const notes = (md: string) =>
    header(md)
      .filter((l) => l.startsWith('Sections '))
      .map((l) => l.slice(0, l.indexOf(' by a partial')));
  assert.deepEqual(notes(second), ['Sections "2. B" rewritten on T2', 'Sections "1. A" rewritten on T1']);
  assert.deepEqual(notes(third), ['Sections "1. A" rewritten on T3', 'Sections "2. B" rewritten on T2']);
});

test('the header keeps one blank line between its paragraphs however many partial runs there were', () => {
  let md = full;
  for (const [i, id] of ['a', 'b', 'a', 'c', 'b'].entries())
    md = mergeSectionsMarkdown(md, run(`T${i}`), [section(id, { a: '1. A', b: '2. B', c: '3. C' }[id]!, id)]);
  const lines = header(md);
  assert.ok(!lines.some((l, i) => l === '' && lines[i + 1] === ''), lines.join('\n'));
  assert.equal(lines.filter((l) => l.startsWith('Sections ')).length, 3);
});
