// Architecture lint: dependency arrows go one way (DESIGN: element -> contract, server -> contract,
// sandbox -> contract, react -> element), and nothing in the project reads ../shared.
import { readFileSync, readdirSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';

const ALLOWED: Record<string, string[]> = {
  contract: [],
  element: ['contract'],
  server: ['contract'],
  sandbox: ['contract'],
  react: ['element', 'contract'],
};

const root = new URL('..', import.meta.url).pathname;
const problems: string[] = [];

function files(dir: string, out: string[] = []): string[] {
  for (const name of readdirSync(dir)) {
    if (name === 'node_modules' || name === 'dist' || name.startsWith('.')) continue;
    const path = join(dir, name);
    if (statSync(path).isDirectory()) files(path, out);
    else if (/\.(ts|tsx|mjs|js|json|html)$/.test(name)) out.push(path);
  }
  return out;
}

const IMPORT = /(?:from\s+|import\s*\(\s*|import\s+)['"](@onboarding-kit\/([a-z-]+)|\.\.\/[^'"]*)['"]/g;
for (const pkg of Object.keys(ALLOWED)) {
  let srcFiles: string[] = [];
  try { srcFiles = files(join(root, 'packages', pkg, 'src')); } catch { continue; }
  for (const file of srcFiles) {
    const text = readFileSync(file, 'utf8');
    for (const m of text.matchAll(IMPORT)) {
      const target = m[2];
      if (target && target !== pkg && !ALLOWED[pkg]!.includes(target)) {
        problems.push(`${relative(root, file)}: ${pkg} must not import @onboarding-kit/${target}`);
      }
      const rel = m[1]!;
      if (rel.startsWith('../') && /\.\.\/(?:\.\.\/)*(?:packages\/)?(contract|element|server|sandbox|react)\//.test(rel)) {
        problems.push(`${relative(root, file)}: reaches into another package by path (${rel}); import it by name`);
      }
    }
  }
}

for (const dir of ['packages', 'demo', 'test', 'scripts', 'bench', '.ci']) {
  let all: string[] = [];
  try { all = files(join(root, dir)); } catch { continue; }
  for (const file of all) {
    if (file.endsWith('check-arrows.ts')) continue;
    if (/['"`](?:\.\.\/)+shared\//.test(readFileSync(file, 'utf8'))) problems.push(`${relative(root, file)}: reads ../shared, which a user's clone does not have`);
  }
}

if (problems.length) {
  console.error(problems.join('\n'));
  process.exit(1);
}
console.log('arrows ok');
