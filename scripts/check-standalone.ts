/**
 * "The project stands on its own": a clone of this repository is all a reader gets, so nothing in
 * it may point outside it. Fails (exit 1, one `file:line: problem` per finding) when a file
 * names a folder, a document or a machine path that exists only where the kit was first built,
 * cites another document's section numbers instead of the project's own docs, names a `*.md`
 * file the repository does not ship, or cites a heading of `docs/*.md` (or a Markdown link's
 * `#anchor`) that does not exist.
 *
 * Usage: node --conditions=source --import tsx scripts/check-standalone.ts [repository root]
 */
import { execFileSync } from 'node:child_process';
import { existsSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, normalize, relative, resolve } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

export interface Finding {
  file: string;
  line: number;
  problem: string;
}

/**
 * Files that may hold the forbidden words: the lockfile (registry URLs) and this list itself,
 * wherever a tool copies the tree to (a mutation-testing sandbox, say).
 */
const SKIPPED = /(?:^|\/)(?:package-lock\.json|scripts\/check-standalone\.ts)$/;
const BINARY = /\.(png|jpe?g|gif|webp|ico|pdf|zip|gz|tgz|woff2?|ttf|y4m|mjpeg|wasm|db|sqlite)$/i;

const FORBIDDEN: { pattern: RegExp; problem: string }[] = [
  { pattern: /(?:\.\.\/)+shared\b/, problem: 'names the reference folder beside the repository, which a clone does not have' },
  { pattern: /\bDESIGN\b/, problem: 'cites the design document instead of docs/' },
  { pattern: /\bdesign\.md\b/i, problem: 'cites the design document, which the repository does not have' },
  { pattern: /\bdesign rules?\s*\d/i, problem: 'cites a design rule instead of docs/upstream-api.md, rule N' },
  { pattern: /\btoolchain\.md\b/i, problem: 'cites the toolchain notes, which the repository does not have' },
  { pattern: /\bbrief\b/i, problem: 'cites a brief the repository does not have (say "short" for the adjective)' },
  {
    pattern: /\bspec(?:ification)?s?\s*(?:sections?\s*|§\s*)?\d|§\s*\d|\bsections?\s+\d+\.\d/i,
    problem: "cites a section number of the upstream's documentation instead of a heading of docs/upstream-api.md",
  },
  { pattern: /(?<![\w.~:/-])\/(?:work|root)\//, problem: 'names an absolute machine path' },
  { pattern: /(?<![\w.~:/-])\/(?:home|Users)\/[A-Za-z0-9_][\w.-]*\//, problem: 'names an absolute machine path' },
  { pattern: /\b[A-Za-z]:\\{1,2}Users\\/i, problem: 'names an absolute machine path' },
];

/** GitHub's anchor for a heading: lower case, punctuation dropped, spaces to hyphens. */
export function slug(heading: string): string {
  return heading
    .replace(/!?\[([^\]]*)\]\([^)]*\)/g, '$1')
    .trim()
    .toLowerCase()
    .replace(/[^\p{L}\p{M}\p{N}\p{Pc} -]/gu, '')
    .replace(/ /g, '-');
}

/** Every anchor of a Markdown text, duplicates numbered as GitHub numbers them. */
export function anchors(markdown: string): Set<string> {
  const out = new Set<string>();
  const seen = new Map<string, number>();
  let fence: string | undefined;
  for (const line of markdown.split('\n')) {
    const f = /^\s{0,3}(`{3,}|~{3,})/.exec(line);
    if (f) {
      if (!fence) fence = f[1]![0];
      else if (f[1]![0] === fence) fence = undefined;
      continue;
    }
    if (fence) continue;
    const h = /^\s{0,3}#{1,6}\s+(.*?)\s*#*\s*$/.exec(line);
    if (!h) continue;
    const base = slug(h[1]!);
    const n = seen.get(base) ?? 0;
    seen.set(base, n + 1);
    out.add(n === 0 ? base : `${base}-${n}`);
  }
  return out;
}

/** How many items the numbered list under `## Rules the kit honours` has. */
function ruleCount(markdown: string): number {
  const start = markdown.indexOf('\n## Rules the kit honours');
  if (start < 0) return 0;
  const rest = markdown
    .slice(start + 1)
    .split('\n')
    .slice(1);
  let count = 0;
  for (const line of rest) {
    if (/^#{1,2} /.test(line)) break;
    if (/^\d+\. /.test(line)) count++;
  }
  return count;
}

/**
 * What git tracks (staged included): what a clone gets. Untracked output of local tools (reports,
 * mutation-testing sandboxes) may name this machine's paths; it is checked once `git add`ed.
 */
function listFiles(root: string): string[] {
  const out = execFileSync('git', ['ls-files', '-z', '--cached'], { cwd: root, encoding: 'utf8', maxBuffer: 64 * 1024 * 1024 });
  return [...new Set(out.split('\0').filter(Boolean))].sort();
}

function readText(path: string): string | undefined {
  if (!existsSync(path) || !statSync(path).isFile()) return undefined;
  const bytes = readFileSync(path);
  if (bytes.subarray(0, 8000).includes(0)) return undefined;
  return bytes.toString('utf8');
}

/**
 * A `*.md` name as prose and code write it: `README.md`, `./ADMIN.md`, `../../docs/x.md`,
 * `test/fixtures/faces/README.md`. Not a part of a longer path or URL, nor `*.md` in a glob.
 */
const MARKDOWN_NAME = /(?<![\w.@/:~\\*-])((?:\.{1,2}\/)*(?:[\w-][\w.-]*\/)*[\w-][\w.-]*\.md)(?![\w-])/g;

/**
 * Whether `name`, written in `file`, is a file the repository ships. A name is read against the
 * folder of the file that writes it and then against each folder above it, so that a package's
 * source may say `README.md` or `test/fixtures/faces/README.md` for its own package's files and
 * anything may name a path from the repository root.
 */
export function shipsMarkdown(tracked: ReadonlySet<string>, file: string, name: string): boolean {
  for (let dir = dirname(file); ; dir = dirname(dir)) {
    const path = normalize(join(dir, name)).split('\\').join('/');
    if (!path.startsWith('../') && tracked.has(path)) return true;
    if (dir === '.' || dir === '') return false;
  }
}

export function checkStandalone(root: string): Finding[] {
  const findings: Finding[] = [];
  const anchorCache = new Map<string, { anchors: Set<string>; rules: number } | null>();
  const target = (path: string) => {
    if (!anchorCache.has(path)) {
      const text = readText(path);
      anchorCache.set(path, text === undefined ? null : { anchors: anchors(text), rules: ruleCount(text) });
    }
    return anchorCache.get(path)!;
  };
  const show = (path: string) => relative(root, path).split('\\').join('/');

  const files = listFiles(root);
  const tracked = new Set(files);
  for (const file of files) {
    if (SKIPPED.test(file) || BINARY.test(file)) continue;
    const text = readText(join(root, file));
    if (text === undefined) continue;
    const isMarkdown = /\.md$/i.test(file);
    text.split('\n').forEach((line, i) => {
      const at = (problem: string) => findings.push({ file, line: i + 1, problem });
      for (const { pattern, problem } of FORBIDDEN) {
        const m = pattern.exec(line);
        if (m) at(`${problem}: "${m[0]}"`);
      }

      // Any other document named by its file name. `docs/*.md` citations and Markdown links
      // with an anchor have their own checks below, which say more.
      for (const m of line.matchAll(MARKDOWN_NAME)) {
        const name = m[1]!;
        if (/(?:^|\/)docs\/[^/]+$/.test(name) || (isMarkdown && line[m.index! + name.length] === '#')) continue;
        if (!shipsMarkdown(tracked, file, name)) at(`names ${name}, which the repository does not ship`);
      }

      // Citations of the project's docs from anywhere: `docs/page-api.md#error-shape`.
      for (const m of line.matchAll(/(?<![\w.-])docs\/([\w.-]+\.md)(?:#([\w-]+))?(?:, rules? (\d+))?/g)) {
        const path = join(root, 'docs', m[1]!);
        const doc = target(path);
        if (!doc) {
          at(`cites ${show(path)}, which does not exist`);
          continue;
        }
        if (m[2] && !doc.anchors.has(m[2])) at(`cites ${show(path)}#${m[2]}, which is no heading of it`);
        if (m[3] && !(Number(m[3]) >= 1 && Number(m[3]) <= doc.rules))
          at(`cites rule ${m[3]} of ${show(path)}, which has ${doc.rules} rules`);
      }

      // Links inside Markdown files: `[x](#here)`, `[x](../other.md#there)`.
      if (isMarkdown) {
        for (const m of line.matchAll(/\]\(((?:[^()\s#:]+\.md)?)#([^)\s]+)\)/g)) {
          const path = m[1] ? normalize(join(root, dirname(file), m[1])) : join(root, file);
          if (!resolve(path).startsWith(resolve(root))) continue;
          const doc = target(path);
          if (!doc) at(`links to ${show(path)}, which does not exist`);
          else if (!doc.anchors.has(decodeURIComponent(m[2]!))) at(`links to ${show(path)}#${m[2]}, which is no heading of it`);
        }
      }
    });
  }
  return findings;
}

if (process.argv[1] && import.meta.url === pathToFileURL(resolve(process.argv[1])).href) {
  const root = resolve(process.argv[2] ?? join(dirname(fileURLToPath(import.meta.url)), '..'));
  const findings = checkStandalone(root);
  if (findings.length) {
    for (const f of findings) console.error(`${f.file}:${f.line}: ${f.problem}`);
    console.error(
      `\n${findings.length} finding(s): the repository must stand on its own. Cite docs/upstream-api.md or docs/page-api.md instead.`,
    );
    process.exit(1);
  }
  console.log('standalone ok');
}
