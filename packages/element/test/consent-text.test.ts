/**
 * The consent's sentences about the data controller read right whatever its name ends with: a
 * name written with its company type ("Acme S.A.") closes a sentence without a second period.
 */
import test from 'node:test';
import assert from 'node:assert/strict';
import { consentText } from '../src/messages/consent-text.js';

const LOCALES = Object.keys(consentText) as (keyof typeof consentText)[];

test('a controller named "Acme S.A." never gets "S.A..", in every language and sentence', () => {
  for (const locale of LOCALES) {
    for (const [key, value] of Object.entries(consentText[locale])) {
      if (typeof value !== 'function') continue;
      const text = value('Acme S.A.');
      assert.ok(text.includes('Acme S.A.'), `${locale}.${key} names the controller`);
      assert.ok(!text.includes('S.A..'), `${locale}.${key}: ${text}`);
    }
  }
});

test('a name without a period still closes its sentence with one', () => {
  for (const locale of LOCALES) {
    const who = consentText[locale].who('Acme Pagamentos');
    assert.ok(who.endsWith('Acme Pagamentos.'), `${locale}: ${who}`);
  }
});
