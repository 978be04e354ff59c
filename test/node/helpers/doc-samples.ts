/**
 * The code blocks of the docs an integrator copies, and what the tests do with each
 * (test/node/doc-samples.test.ts). Pure: reading files is the caller's business.
 *
 * The info string of a fence says what a block is (GitHub highlights by its first word only):
 *
 * | info string                     | the block is                                   | the test        |
 * |---------------------------------|------------------------------------------------|-----------------|
 * | `json`, `text`                  | a shape or an output (an answer, headers, CSP)  | not run         |
 * | `sh`, `bash`                    | commands                                       | run with bash   |
 * | `js`, `mjs`, `ts`               | a script                                       | run with node   |
 * | `js receiver [<path>]`, `ts receiver [<path>]` | a notification receiver listening on `$PORT` (or a module whose default export has `fetch`), at `<path>` (default `/`) | started, sent signed notifications: 2xx for good ones, 4xx for a bad signature, 5xx when its handler throws |
 * | `js server <path>`, `ts server <path>`, `sh server <path>` | a server listening on `$PORT` (`$HOST` 127.0.0.1) | started, `GET <path>` must answer below 400, then stopped |
 * | `<lang> no-run: <reason>`       | a fragment that cannot run alone (markup, JSX, a bundler config) | not run; the reason is listed |
 *
 * Any other block (no language, `html`, `tsx`, `vue`, `css`, an unknown word, `no-run` without a
 * reason) fails the test: a sample is run, or says why it is not.
 */

export interface DocBlock {
  /** The document's path, from the repository root. */
  file: string;
  /** 1-based line of the opening fence. */
  line: number;
  info: string;
  /** The block's text, without the fence's indentation. */
  code: string;
}

export type SampleKind =
  | { kind: 'shape' }
  | { kind: 'shell' }
  | { kind: 'script'; lang: 'js' | 'ts' }
  | { kind: 'receiver'; lang: 'js' | 'ts'; path: string }
  | { kind: 'server'; lang: 'js' | 'ts' | 'sh'; path: string }
  | { kind: 'no-run'; reason: string }
  | { kind: 'unclassified'; why: string };

const SHAPES = new Set(['json', 'text']);
const SHELLS = new Set(['sh', 'bash']);
const SCRIPTS: Record<string, 'js' | 'ts'> = { js: 'js', mjs: 'js', ts: 'ts' };

/** Every fenced block of a Markdown text, indented ones (inside list items) included. */
export function extractBlocks(file: string, text: string): DocBlock[] {
  const lines = text.split('\n');
  const blocks: DocBlock[] = [];
  for (let i = 0; i < lines.length; i++) {
    const open = /^( *)(`{3,}|~{3,})(.*)$/.exec(lines[i]!);
    if (!open) continue;
    const [, indent, fence, info] = open as unknown as [string, string, string, string];
    const body: string[] = [];
    let j = i + 1;
    for (; j < lines.length; j++) {
      const close = new RegExp(`^ *${fence[0] === '`' ? '`' : '~'}{${fence.length},} *$`).exec(lines[j]!);
      if (close) break;
      const l = lines[j]!;
      body.push(l.startsWith(indent) ? l.slice(indent.length) : l.trimStart());
    }
    blocks.push({ file, line: i + 1, info: info.trim(), code: body.join('\n') });
    i = j;
  }
  return blocks;
}

/** What the info string makes of a block (see the table above). */
export function classifyBlock(info: string): SampleKind {
  const m = /^(\S*)\s*(.*)$/.exec(info.trim())!;
  const lang = m[1]!;
  const rest = m[2]!.trim();
  const noRun = /^no-run(?::\s*(.*))?$/.exec(rest);
  if (noRun) {
    const reason = (noRun[1] ?? '').trim();
    return reason ? { kind: 'no-run', reason } : { kind: 'unclassified', why: '`no-run` needs a reason: `no-run: <why>`' };
  }
  if (lang === '')
    return { kind: 'unclassified', why: 'no language: name one (`text` for an output, `sh`, `js`...) or mark it `no-run: <why>`' };
  if (SHAPES.has(lang) && rest === '') return { kind: 'shape' };
  if (SHELLS.has(lang)) {
    if (rest === '') return { kind: 'shell' };
    const server = /^server\s+(\/\S*)$/.exec(rest);
    if (server) return { kind: 'server', lang: 'sh', path: server[1]! };
  }
  const script = SCRIPTS[lang];
  if (script) {
    if (rest === '') return { kind: 'script', lang: script };
    const receiver = /^receiver(?:\s+(\/\S*))?$/.exec(rest);
    if (receiver) return { kind: 'receiver', lang: script, path: receiver[1] ?? '/' };
    const server = /^server\s+(\/\S*)$/.exec(rest);
    if (server) return { kind: 'server', lang: script, path: server[1]! };
  }
  return {
    kind: 'unclassified',
    why: `\`${info}\` is neither run nor a shape: mark it \`${lang || '<lang>'} no-run: <why>\` if it cannot run alone`,
  };
}

/** The documents whose samples an integrator copies: README.md, docs/*.md and each package's own documents (packages/element/README.md, packages/server/ADMIN.md...). */
export function isSampleDoc(path: string): boolean {
  return path === 'README.md' || /^docs\/[^/]+\.md$/.test(path) || /^packages\/[^/]+\/[^/]+\.md$/.test(path);
}
