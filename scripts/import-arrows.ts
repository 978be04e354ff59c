/**
 * The import rules of the workspace, read from the source text of every package and of the
 * workspace's own folders (test/, bench/, demo/, scripts/ and the root config files):
 *
 * - A relative import never crosses a package boundary: a file in packages/X reaches only files
 *   of packages/X by path, and a file outside packages/ reaches no package by path. Everything
 *   else goes by name, through the package's `exports`, so each package stands on its own.
 * - Dependency arrows go one way: contract depends on nothing; element, server and sandbox on
 *   contract; react on element (and contract); the backend SDK (node) on nothing, its tests on
 *   contract and server. Tests of a package may also use the private
 *   @onboarding-kit/testing, which itself may use any package; shipped code never imports it.
 * - A package's `internal/...` exports are for the workspace's own tools (test/, bench/): no
 *   other package and no demo page imports them, and the demo never imports the test support.
 *
 * Usage: node --conditions=source --import tsx scripts/check-arrows.ts [repository root]
 */
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, relative, resolve, sep } from 'node:path';
import { sourceFiles } from './source-files.js';

/** Packages each package's shipped code may import by name (besides itself). */
export const ARROWS: Record<string, readonly string[]> = {
  contract: [],
  element: ['contract'],
  server: ['contract'],
  sandbox: ['contract'],
  react: ['element', 'contract'],
  // The backend SDK installs alone: its shipped code imports no package.
  node: [],
};
/** Packages a package's tests may import by name besides its arrows: the SDK's tests check it against the contract and the server. */
const TEST_ARROWS: Record<string, readonly string[]> = {
  node: ['contract', 'server'],
};
const TESTING = 'testing';
/**
 * Arrows open to one folder of a package only: `onboarding-companion` (packages/server/src/cli/)
 * loads the sandbox, an optional peer, when ONBOARDING_UPSTREAM=sandbox asks for it.
 */
export const FOLDER_ARROWS: Record<string, readonly string[]> = {
  'packages/server/src/cli/': ['sandbox'],
};

const SOURCE = /\.(?:[cm]?[jt]s|tsx|vue)$/;
const SKIPPED_DIRS = new Set(['artifacts']);
const walk = (dir: string) => sourceFiles(dir, (name) => SOURCE.test(name), SKIPPED_DIRS);
/** Workspace folders outside packages/ that are scanned (besides the root's own files). */
const WORKSPACE_DIRS = ['test', 'bench', 'demo', 'scripts'];

/** Import specifiers: static and dynamic imports, re-exports, require and triple-slash references. */
const SPECIFIER =
  /(?:\bfrom\s*|\bimport\s*\(\s*|\bimport\s+|\brequire\s*\(\s*)(['"])([^'"\n]+)\1|\/\/\/\s*<reference\s+(?:path|types)\s*=\s*(['"])([^'"\n]+)\3/g;
/** A module loaded through a computed URL: `new URL('../x.mjs', import.meta.url)`. */
const MODULE_URL = /\bnew\s+URL\(\s*(['"])(\.{1,2}\/[^'"\n]+\.(?:[cm]?[jt]s|tsx))\1\s*,\s*import\.meta\.url\s*\)/g;

export interface ImportRef {
  line: number;
  specifier: string;
}

/**
 * The text with whole-line comments blanked (lines kept, so line numbers hold): comment blocks
 * and `//` lines that start a line, where prose may well say "import('../x')". Triple-slash
 * references stay. Comments after code on the same line are left alone.
 */
export function withoutCommentLines(text: string): string {
  let inBlock = false;
  return text
    .split('\n')
    .map((line) => {
      const trimmed = line.trimStart();
      if (inBlock) {
        inBlock = !line.includes('*/');
        return '';
      }
      if (trimmed.startsWith('/*')) {
        inBlock = !trimmed.slice(2).includes('*/');
        return '';
      }
      return trimmed.startsWith('//') && !trimmed.startsWith('///') ? '' : line;
    })
    .join('\n');
}

/** Every import-like reference in a file's code, with its 1-based line. */
export function importRefs(source: string): ImportRef[] {
  const text = withoutCommentLines(source);
  const refs: ImportRef[] = [];
  const lineAt = (index: number) => text.slice(0, index).split('\n').length;
  for (const m of text.matchAll(SPECIFIER)) refs.push({ line: lineAt(m.index!), specifier: (m[2] ?? m[4])! });
  for (const m of text.matchAll(MODULE_URL)) refs.push({ line: lineAt(m.index!), specifier: m[2]! });
  return refs;
}

/** `packages/<name>/...` -> name; anything else -> undefined. */
function packageOf(relPath: string): string | undefined {
  const parts = relPath.split(sep);
  return parts[0] === 'packages' && parts.length > 2 ? parts[1] : undefined;
}

/** Files that only tests load: under a package's test/, `*.test.*`, `*.spec.*` and test-helpers. */
export function isTestFile(relPath: string): boolean {
  const inPackage = relPath.split(sep).slice(2).join('/');
  return /(?:^|\/)test\//.test(inPackage) || /\.(?:test|spec)\.[^/]+$/.test(inPackage) || /(?:^|\/)test-helpers\.[^/]+$/.test(inPackage);
}

/** What is wrong with one by-name import of `@onboarding-kit/<target>[/<subpath>]`, if anything. */
function nameProblem(relPath: string, target: string, subpath: string): string | undefined {
  const from = packageOf(relPath);
  const internal = subpath.startsWith('internal/');
  if (from === undefined) {
    const area = relPath.split(sep)[0];
    if (area === 'demo' && (target === TESTING || internal))
      return `the demo must not import @onboarding-kit/${target}${subpath ? `/${subpath}` : ''} (test support and internals are not for pages)`;
    return undefined;
  }
  if (target === from) return undefined;
  if (internal) return `reaches into @onboarding-kit/${target}/${subpath}, which only the workspace's tests and bench may use`;
  if (from === TESTING) return undefined;
  if (target === TESTING) {
    return isTestFile(relPath) ? undefined : `shipped code of ${from} must not import @onboarding-kit/testing (only its tests may)`;
  }
  const folder = Object.keys(FOLDER_ARROWS).find((prefix) => relPath.split(sep).join('/').startsWith(prefix));
  if (folder && FOLDER_ARROWS[folder]!.includes(target)) return undefined;
  const allowed = ARROWS[from];
  if (!allowed) return `${from} is not in the arrows table of scripts/import-arrows.ts`;
  if (isTestFile(relPath) && TEST_ARROWS[from]?.includes(target)) return undefined;
  return allowed.includes(target)
    ? undefined
    : `${from} must not import @onboarding-kit/${target} (arrows: ${from} -> ${allowed.join(', ') || 'nothing'})`;
}

/** What is wrong with one relative import, if anything: it must stay inside its own package. */
function pathProblem(root: string, file: string, specifier: string): string | undefined {
  const relPath = relative(root, file);
  const targetRel = relative(root, resolve(dirname(file), specifier));
  if (targetRel.startsWith('..')) return `reaches outside the repository by path (${specifier})`;
  const from = packageOf(relPath);
  const to = packageOf(targetRel);
  if (from === to) return undefined;
  if (to !== undefined) return `reaches into packages/${to} by path (${specifier}); import @onboarding-kit/${to} by name`;
  return `leaves packages/${from} by path (${specifier}); a package must stand on its own`;
}

/** Every broken import rule under `root`, as `file:line: problem`. */
export function importProblems(root: string): string[] {
  const files = [
    ...readdirSync(join(root, 'packages')).flatMap((name) => walk(join(root, 'packages', name))),
    ...WORKSPACE_DIRS.flatMap((dir) => walk(join(root, dir))),
    ...readdirSync(root)
      .filter((name) => SOURCE.test(name) && statSync(join(root, name)).isFile())
      .map((name) => join(root, name)),
  ];
  const problems: string[] = [];
  for (const file of files) {
    const relPath = relative(root, file);
    for (const { line, specifier } of importRefs(readFileSync(file, 'utf8'))) {
      const named = /^@onboarding-kit\/([a-z-]+)(?:\/(.*))?$/.exec(specifier);
      const problem = named
        ? nameProblem(relPath, named[1]!, named[2] ?? '')
        : specifier.startsWith('.')
          ? pathProblem(root, file, specifier)
          : undefined;
      if (problem) problems.push(`${relPath.split(sep).join('/')}:${line}: ${problem}`);
    }
  }
  return problems;
}
