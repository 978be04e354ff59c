/**
 * The script-tag bundles' template squeeze: only whitespace (and comments in `css`) inside `html`
 * and `css` templates changes, in every source file of the element, and nested templates are
 * read to their end.
 */
import test from 'node:test';
import assert from 'node:assert/strict';
import { readdir, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { squeezeTemplates } from '../scripts/template-whitespace.js';

test('html template text loses its indentation, css also its comments and needless spaces; code, other strings and untagged templates keep theirs', () => {
  const source = [
    'const a = html`',
    '  <p class="x">',
    '    ${cond ? html`<b>\n      ${"  keep  "}\n    </b>` : `\n  untagged\n`}',
    '  </p>',
    '`;',
    'const b = css`',
    '  /* why */',
    '  .x > .y, :host {',
    '    color: red;',
    '    margin: 0 auto;',
    '  }',
    '  @media (max-width: 30rem) { .x :focus { color: blue } }',
    '`;',
    'const c = `\n    plain`;',
  ].join('\n');
  assert.equal(
    squeezeTemplates(source),
    [
      'const a = html`',
      '<p class="x">',
      '${cond ? html`<b>\n${"  keep  "}\n</b>` : `\n  untagged\n`}',
      '</p>',
      '`;',
      'const b = css` .x>.y,:host{color:red;margin:0 auto;}@media (max-width:30rem){.x :focus{color:blue}}`;',
      'const c = `\n    plain`;',
    ].join('\n'),
  );
});

test('across the element source, only whitespace changes', async () => {
  const root = new URL('../src/', import.meta.url);
  const files = (await readdir(root, { recursive: true })).filter((f) => f.endsWith('.ts') && !f.endsWith('.test.ts'));
  let changed = 0;
  for (const file of files) {
    const code = await readFile(join(root.pathname, file), 'utf8');
    const out = squeezeTemplates(code);
    const bare = (text: string) => text.replace(/\/\*[\s\S]*?\*\//g, '').replace(/\s+/g, '');
    assert.equal(bare(out), bare(code), file);
    // Lines only merge inside templates: the file keeps its statements on their own lines.
    assert.ok(out.split('\n').length <= code.split('\n').length, file);
    if (out !== code) changed++;
  }
  assert.ok(changed >= 5, `templates squeezed in ${changed} files`);
});
