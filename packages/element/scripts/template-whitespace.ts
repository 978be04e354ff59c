/**
 * A build plugin for the script-tag bundles: inside the element's `html` tagged templates, every
 * run of whitespace that spans a line becomes one newline; inside `css` ones, comments go and
 * whitespace shrinks to what CSS needs (none around braces, semicolons, commas, child
 * combinators, or after a colon). The minifier keeps template text as written, and the
 * indentation of the views and styles is first-load bytes; what is left parses the same, so
 * nothing renders differently. Only the text of those templates changes, never the code in their
 * `${}` parts or any other string.
 */
import type { Plugin } from 'vite';

const TAGGED = /\b(?:html|css)`/g;

export function templateWhitespace(): Plugin {
  return {
    name: 'onboarding-kit:template-whitespace',
    transform(code, id) {
      if (id.includes('node_modules') || !/\/src\/.*\.ts$/.test(id) || !code.includes('`')) return null;
      const out = squeezeTemplates(code);
      return out === code ? null : { code: out, map: null };
    },
  };
}

/** `code` with the text of every `html` and `css` template squeezed (exported for its test). */
export function squeezeTemplates(code: string): string {
  let out = '';
  let from = 0;
  TAGGED.lastIndex = 0;
  for (let match = TAGGED.exec(code); match; match = TAGGED.exec(code)) {
    const open = match.index + match[0].length;
    const end = templateEnd(code, open, match[0].startsWith('css') ? 'css' : 'html');
    out += code.slice(from, open) + end.text;
    from = end.index;
    TAGGED.lastIndex = end.index;
  }
  return out + code.slice(from);
}

/**
 * Reads a template literal from just after its opening backtick to just after its closing one;
 * `text` is what to write in its place (squeezed when `squeeze`). Nested templates in `${}` parts
 * are read the same way, squeezed when tagged `html` or `css` themselves.
 */
function templateEnd(code: string, i: number, squeeze: Squeeze): { index: number; text: string } {
  let text = '';
  let chunk = '';
  const flush = () => {
    text += squeeze === 'css' ? squeezeCss(chunk) : squeeze === 'html' ? chunk.replace(/[ \t]*\n\s*/g, '\n') : chunk;
    chunk = '';
  };
  while (i < code.length) {
    const c = code[i]!;
    if (c === '\\') {
      chunk += code.slice(i, i + 2);
      i += 2;
    } else if (c === '`') {
      flush();
      return { index: i + 1, text: `${text}\`` };
    } else if (c === '$' && code[i + 1] === '{') {
      flush();
      const expression = expressionEnd(code, i + 2);
      text += '${' + expression.text;
      i = expression.index;
    } else {
      chunk += c;
      i++;
    }
  }
  throw new Error('unterminated template literal');
}

type Squeeze = 'html' | 'css' | null;

function squeezeCss(text: string): string {
  return text
    .replace(/\/\*[\s\S]*?\*\//g, '')
    .replace(/\s+/g, ' ')
    .replace(/ ?([{};,>]) ?/g, '$1')
    .replace(/: /g, ':');
}

/** Reads a `${}` expression to just after its closing brace, templates inside it included. */
function expressionEnd(code: string, i: number): { index: number; text: string } {
  let text = '';
  let depth = 0;
  while (i < code.length) {
    const c = code[i]!;
    if (c === '`') {
      const tag = /\b(html|css)$/.exec(code.slice(Math.max(0, i - 4), i))?.[1];
      const inner = templateEnd(code, i + 1, (tag as Squeeze | undefined) ?? null);
      text += '`' + inner.text;
      i = inner.index;
    } else if (c === "'" || c === '"') {
      let j = i + 1;
      while (j < code.length && code[j] !== c) j += code[j] === '\\' ? 2 : 1;
      text += code.slice(i, j + 1);
      i = j + 1;
    } else if (c === '/' && code[i + 1] === '/') {
      const j = code.indexOf('\n', i);
      text += code.slice(i, j);
      i = j;
    } else if (c === '/' && code[i + 1] === '*') {
      const j = code.indexOf('*/', i) + 2;
      text += code.slice(i, j);
      i = j;
    } else {
      if (c === '{') depth++;
      if (c === '}' && depth-- === 0) return { index: i + 1, text: `${text}}` };
      text += c;
      i++;
    }
  }
  throw new Error('unterminated template expression');
}
