import { test } from 'node:test';
import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import {
  chosenPassphraseRule,
  estimatePassphraseBits,
  GENERATED_PASSPHRASE_LENGTH,
  generatePassphrase,
  MIN_PASSPHRASE_BITS,
  PASSPHRASE_RULE_TEXT,
} from '../src/evidence/passphrase-rules.js';
import { assertEvidencePassword, newEvidencePassword } from '../src/evidence/password.js';
import { CompanionError } from '../src/http/companion-error.js';

test('chosen passphrases: each usual human shape is refused by the rule it breaks', () => {
  const cases: [unknown, string][] = [
    [42, 'not-a-string'],
    [null, 'not-a-string'],
    ['', 'too-short'],
    ['short', 'too-short'],
    // The rule of old: 12 characters were enough.
    ['Tr0ub4dor&3x', 'too-short'],
    ['fifteen chars!!', 'too-short'],
    ['x'.repeat(1025), 'too-long'],
    ['aaaaaaaaaaaaaaaa', 'repeated'],
    ['abababababababababab', 'repeated'],
    ['acegacegacegacegaceg', 'repeated'],
    ['1111122222333334', 'repeated'],
    ['abcdefghijklmnop', 'sequence'],
    ['1234567890123456x', 'sequence'],
    ['qwertyuiopasdfgh', 'sequence'],
    ['ponmlkjihgfedcba', 'sequence'],
    ['Password20242025', 'word-and-digits'],
    ['Administrator!2024', 'word-and-digits'],
    ['2024#Brasileirao#', 'word-and-digits'],
    ['Passwordpassword2024', 'low-entropy'],
    ['9273849102738492', 'low-entropy'],
  ];
  for (const [passphrase, rule] of cases) assert.equal(chosenPassphraseRule(passphrase), rule, String(passphrase).slice(0, 40));
});

test('chosen passphrases: several words, or random characters of 16 and more, pass', () => {
  for (const ok of [
    'correct horse battery staple',
    'vento-norte-cafe-janela-7',
    'K9#mQ2vL!x7pR4wZ',
    'g7hk2mzq9wxr4tpb',
    'Maria foi à feira comprar pão',
    'x'.repeat(8) + 'correct horse battery staple',
  ]) {
    assert.equal(chosenPassphraseRule(ok), null, ok);
  }
});

test('the entropy estimate counts a sequence, a repetition and a row once, and a random string by its classes', () => {
  assert.ok(estimatePassphraseBits('abcdefghijklmnop') < 10);
  assert.ok(estimatePassphraseBits('abcxyzabcxyzabcxyz') < estimatePassphraseBits('abcxyz') + 10);
  assert.ok(estimatePassphraseBits('qwertyuiop') < 10);
  assert.ok(estimatePassphraseBits('g7hk2mzq9wxr4tpb') >= MIN_PASSPHRASE_BITS);
  // An uppercase letter is no likelier than a lowercase one: no bonus for a capital.
  assert.equal(estimatePassphraseBits('Gqz'), estimatePassphraseBits('gqz'));
});

test('the refusal names the rule and never repeats the passphrase', () => {
  for (const weak of ['Administrator!2024', 'aaaaaaaaaaaaaaaaaaaa', 'hunter2hunter2', 'Passwordpassword2024']) {
    assert.throws(() => assertEvidencePassword(weak), CompanionError);
    try {
      assertEvidencePassword(weak);
    } catch (e) {
      const err = e as CompanionError;
      assert.equal(err.code, 'invalid_password');
      assert.equal(err.status, 400);
      assert.ok(Object.values(PASSPHRASE_RULE_TEXT).includes(err.message), err.message);
      assert.ok(!err.message.includes(weak) && !JSON.stringify(err).includes(weak));
    }
  }
  assert.doesNotThrow(() => assertEvidencePassword('correct horse battery staple'));
});

test('generated passphrases: 24 symbols of a 32-symbol alphabet from the CSPRNG, each passing the chosen rules, none alike', () => {
  const seen = new Set<string>();
  for (let i = 0; i < 2000; i++) {
    const p = newEvidencePassword();
    assert.equal(p.length, GENERATED_PASSPHRASE_LENGTH);
    assert.match(p, /^[a-km-np-z2-9]{24}$/);
    assert.equal(chosenPassphraseRule(p), null);
    seen.add(p);
  }
  assert.equal(seen.size, 2000);
  // A draw that breaks a rule (here: all one byte) is drawn again.
  let draws = 0;
  const p = generatePassphrase((n) => (++draws === 1 ? new Uint8Array(n) : randomBytes(n)));
  assert.equal(draws, 2);
  assert.equal(chosenPassphraseRule(p), null);
});
