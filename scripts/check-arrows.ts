// Architecture lint: the import rules of scripts/import-arrows.ts (one-way arrows between the
// packages, no relative import across a package boundary, test support only in tests), and
// nothing in the project reads a folder beside the repository.
// Usage: node --conditions=source --import tsx scripts/check-arrows.ts [repository root]
import { readFileSync, readdirSync, statSync } from 'node:fs';
import { join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { importProblems } from './import-arrows.js';

const root = process.argv[2] ? resolve(process.argv[2]) : fileURLToPath(new URL('..', import.meta.url));
const problems: string[] = importProblems(root);

function files(dir: string, out: string[] = []): string[] {
  for (const name of readdirSync(dir)) {
    if (name === 'node_modules' || name === 'dist' || name.startsWith('.')) continue;
    const path = join(dir, name);
    if (statSync(path).isDirectory()) files(path, out);
    else if (/\.(ts|tsx|mjs|js|json|html)$/.test(name)) out.push(path);
  }
  return out;
}

for (const dir of ['packages', 'demo', 'test', 'scripts', 'bench', '.ci']) {
  let all: string[];
  try {
    all = files(join(root, dir));
  } catch {
    continue;
  }
  for (const file of all) {
    if (file.endsWith('check-arrows.ts')) continue;
    if (/['"`](?:\.\.\/)+shared\//.test(readFileSync(file, 'utf8')))
      problems.push(`${relative(root, file)}: reads a folder beside the repository, which a user's clone does not have`);
  }
}

if (problems.length) {
  console.error(problems.join('\n'));
  process.exit(1);
}
console.log('arrows ok');
