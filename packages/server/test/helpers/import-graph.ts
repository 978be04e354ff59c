/**
 * The relative imports between the files of a source folder, read from their text (type-only
 * imports and re-exports included: a cycle of types still ties the modules' designs together),
 * and the cycles in them.
 */
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';

/** `from '...'`, `import '...'` and `import('...')` specifiers of a module's text. */
const SPECIFIER = /(?:\bfrom\s*|\bimport\s*\(?\s*)['"]([^'"]+)['"]/g;

export function relativeImports(text: string): string[] {
  return [...text.replace(/\/\*[\s\S]*?\*\/|^\s*\/\/.*$/gm, '').matchAll(SPECIFIER)].map((m) => m[1]!).filter((s) => s.startsWith('.'));
}

/** The `.ts` files under `dir`, at any depth. */
export function typeScriptFiles(dir: string, out: string[] = []): string[] {
  for (const name of readdirSync(dir)) {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) typeScriptFiles(path, out);
    else if (name.endsWith('.ts') && !name.endsWith('.d.ts')) out.push(path);
  }
  return out;
}

/** Each `.ts` file under `root` (by its path relative to it) and the files of `root` it imports. */
export function importGraph(root: string): Map<string, string[]> {
  const graph = new Map<string, string[]>();
  for (const path of typeScriptFiles(root)) {
    const targets = relativeImports(readFileSync(path, 'utf8')).map((s) =>
      relative(root, resolve(dirname(path), s.replace(/\.js$/, '.ts'))),
    );
    graph.set(relative(root, path), targets);
  }
  return graph;
}

/** Every cycle of the graph, each once, as the list of its files (the first one repeated at the end). */
export function importCycles(graph: ReadonlyMap<string, readonly string[]>): string[][] {
  const cycles: string[][] = [];
  const seen = new Set<string>();
  const state = new Map<string, 'open' | 'done'>();
  const stack: string[] = [];
  const visit = (node: string) => {
    state.set(node, 'open');
    stack.push(node);
    for (const next of graph.get(node) ?? []) {
      if (!graph.has(next)) continue;
      if (state.get(next) === 'open') {
        const cycle = stack.slice(stack.indexOf(next));
        const key = [...cycle].sort().join(' ');
        if (!seen.has(key)) {
          seen.add(key);
          cycles.push([...cycle, next]);
        }
      } else if (!state.has(next)) visit(next);
    }
    stack.pop();
    state.set(node, 'done');
  };
  for (const node of [...graph.keys()].sort()) if (!state.has(node)) visit(node);
  return cycles;
}
