/** No two modules of the server's source import each other, directly or around a longer circle. */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { fileURLToPath } from 'node:url';
import { importCycles, importGraph, relativeImports } from './helpers/import-graph.js';

test('the import walk reads every form of relative import and finds a circle of any length', () => {
  const text =
    "import { a } from './a.js';\nimport type { B } from '../b.js';\nexport { c } from \"./c.js\";\nexport type { D } from './d.js';\nimport './e.js';\nconst f = await import('./f.js');\nimport { hono } from 'hono';\n// import { g } from './g.js';";
  assert.deepEqual(relativeImports(text), ['./a.js', '../b.js', './c.js', './d.js', './e.js', './f.js']);
  const graph = new Map([
    ['a.ts', ['b.ts']],
    ['b.ts', ['c.ts', 'd.ts']],
    ['c.ts', ['a.ts']],
    ['d.ts', ['d2.ts']],
    ['d2.ts', ['d.ts']],
    ['e.ts', []],
  ]);
  assert.deepEqual(importCycles(graph), [
    ['a.ts', 'b.ts', 'c.ts', 'a.ts'],
    ['d.ts', 'd2.ts', 'd.ts'],
  ]);
  assert.deepEqual(
    importCycles(
      new Map([
        ['a.ts', ['b.ts']],
        ['b.ts', []],
      ]),
    ),
    [],
  );
});

test('packages/server/src has no import circle', () => {
  const graph = importGraph(fileURLToPath(new URL('../src/', import.meta.url)));
  assert.ok(graph.size > 50 && graph.has('companion.ts') && graph.get('companion.ts')!.length > 5, 'the walk reads the source');
  assert.deepEqual(
    importCycles(graph).map((cycle) => cycle.join(' -> ')),
    [],
  );
});
