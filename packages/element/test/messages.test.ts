import test from 'node:test';
import assert from 'node:assert/strict';
import { ptBR, en, es, messagesFor, resolveLocale } from '../src/messages/index.js';
import { captureTips } from '../src/messages/capture-tips.js';
import { uploadErrorTexts } from '../src/messages/upload-error-texts.js';

type Tree = { [key: string]: unknown };

/** Every leaf as [path, rendered string]; functions are called with sample arguments. */
function leaves(tree: Tree, prefix = ''): [string, string][] {
  return Object.entries(tree).flatMap(([key, value]): [string, string][] => {
    const path = prefix ? `${prefix}.${key}` : key;
    if (typeof value === 'string') return [[path, value]];
    if (typeof value === 'function') return [[path, String((value as (...a: unknown[]) => unknown)('X', 2, 3))]];
    return leaves(value as Tree, path);
  });
}

test('every catalog has exactly the keys of pt-BR, none empty', () => {
  const source = leaves(ptBR).map(([k]) => k);
  for (const [name, catalog] of Object.entries({ en, es })) {
    const entries = leaves(catalog);
    assert.deepEqual(entries.map(([k]) => k).sort(), [...source].sort(), `${name} keys`);
    for (const [key, value] of entries) assert.ok(value.trim().length > 0, `${name}.${key} is empty`);
  }
  for (const [key, value] of leaves(ptBR)) assert.ok(value.trim().length > 0, `pt-BR.${key} is empty`);
});

test('en and es are translations, not copies of pt-BR', () => {
  const pt = new Map(leaves(ptBR));
  // Proper nouns and codes may legitimately match; everything else must differ.
  const same = (catalog: Tree) =>
    leaves(catalog)
      .filter(([k, v]) => pt.get(k) === v)
      .map(([k]) => k);
  const allowed = new Set([
    'cpf.label',
    'cpf.labelCnpj',
    'capture.headingSelfie',
    'review.roles.selfie',
    'capture.fileHint',
    'processing.statusNames.ERROR',
    'flow.continue',
    'documentType.heading',
    'upload.heading',
    'review.send',
    'upload.progress',
    'capture.previewAlt',
    'outcome.refusedReason',
    'consent.decline',
    'capture.usePhoto',
    'outcome.copy',
    'outcome.copied',
    'flow.stages.selfie',
    'flow.stages.document',
    'flow.side',
  ]);
  for (const [name, catalog] of Object.entries({ en, es })) {
    const copies = same(catalog).filter((k) => !allowed.has(k));
    assert.deepEqual(copies, [], `${name} copies pt-BR`);
  }
  assert.ok(leaves(en).filter(([k, v]) => pt.get(k) !== v).length > 100);
});

test('resolveLocale falls back by language then to pt-BR', () => {
  assert.equal(resolveLocale('en-GB'), 'en');
  assert.equal(resolveLocale('ES'), 'es');
  assert.equal(resolveLocale('fr'), 'pt-BR');
  assert.equal(resolveLocale(undefined), 'pt-BR');
  assert.equal(messagesFor('es-MX'), es);
});

test('the texts that come with the photo steps (upload errors, capture tips): every key in every language, translated', () => {
  for (const texts of [uploadErrorTexts, captureTips] as Record<string, Tree>[]) {
    const pt = leaves(texts['pt-BR']!);
    assert.ok(pt.length >= 6);
    for (const name of ['en', 'es']) {
      const entries = leaves(texts[name]!);
      assert.deepEqual(
        entries.map(([k]) => k),
        pt.map(([k]) => k),
        `${name} keys`,
      );
      for (const [key, value] of entries) {
        assert.ok(value.trim().length > 0, `${name}.${key} is empty`);
        assert.notEqual(value, new Map(pt).get(key), `${name}.${key} copies pt-BR`);
      }
    }
  }
  assert.deepEqual(
    Object.values(captureTips).map((t) => [t.document.length, t.selfie.length]),
    [
      [3, 3],
      [3, 3],
      [3, 3],
    ],
  );
});
