/** demo/src/settings.ts: the demo's settings to and from the query string. */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { DEFAULT_SETTINGS, readSettings, writeSettings, type DemoSettings } from '../../demo/src/settings.js';

test('defaults when the query is empty or nonsense', () => {
  assert.deepEqual(readSettings(''), DEFAULT_SETTINGS);
  assert.deepEqual(readSettings('locale=fr&types=XX,,&primary=red&radius=99&bg=%23GGGGGG'), DEFAULT_SETTINGS);
  assert.equal(writeSettings(DEFAULT_SETTINGS), '');
});

test('a round trip keeps every setting and writes only what differs from the defaults', () => {
  const settings: DemoSettings = {
    locale: 'es',
    documentTypes: ['PASSPORT', 'CNH'],
    colours: { ...DEFAULT_SETTINGS.colours, primary: '#aa0066', surface: '#eeeeee' },
    radius: 0,
  };
  const query = writeSettings(settings);
  assert.equal(query, '?locale=es&types=PASSPORT%2CCNH&primary=%23aa0066&surface=%23eeeeee&radius=0');
  assert.deepEqual(readSettings(query), settings);
});

test('document types are upper-cased, de-duplicated and limited to the known ones', () => {
  assert.deepEqual(readSettings('types=rg, cnh,RG,BOGUS').documentTypes, ['RG', 'CNH']);
});
