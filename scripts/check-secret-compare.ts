// Constant-time lint: every secret comparison goes through the one helper of its package
// (rules in scripts/secret-compare.ts).
// Usage: node --conditions=source --import tsx scripts/check-secret-compare.ts [repository root]
import { resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { secretCompareProblems } from './secret-compare.js';

const root = process.argv[2] ? resolve(process.argv[2]) : fileURLToPath(new URL('..', import.meta.url));
const problems = secretCompareProblems(root);
if (problems.length) {
  console.error(problems.map((p) => `${p.file}:${p.line}: ${p.problem}`).join('\n'));
  process.exit(1);
}
console.log('secret comparisons ok');
