import { test } from 'node:test';
import assert from 'node:assert/strict';
import { isPersonName, PERSON_NAME_MAX_LENGTH, validateCreateOnboarding, validateCreateSession } from '../src/index.js';

test('a person name: letters (any script), spaces and common marks, no digits, at most 200 characters', () => {
  for (const ok of [
    'Maria da Silva',
    "Maria d'Ávila-Souza Jr.",
    "D'Ávila (filha)",
    'Zoë Ñandú',
    'João D’Almeida',
    '李小龙',
    '',
    'a'.repeat(PERSON_NAME_MAX_LENGTH),
  ])
    assert.equal(isPersonName(ok), true, ok);
  for (const bad of ['Maria 123', 'Maria2', 'José-Maria 2º', 'x<y', 'Maria_Ana', 'a'.repeat(PERSON_NAME_MAX_LENGTH + 1), 42, null])
    assert.equal(isPersonName(bad), false, String(bad));
});

test('the creation and the session apply the same rule to `name`', () => {
  const images = { documentFront: '/9j/4AAQSkZJRgABAQ==', selfie: '/9j/4AAQSkZJRgABAQ==' };
  const creation = validateCreateOnboarding({ cpf: '529.982.247-25', name: 'Maria 123', images });
  assert.equal(creation.ok, false);
  if (!creation.ok) assert.deepEqual([creation.error.code, creation.error.field], ['invalid_field', 'name']);
  const session = validateCreateSession({ reference: 'r', cpf: '529.982.247-25', name: 'Maria 123' });
  assert.equal(session.ok, false);
  if (!session.ok) assert.deepEqual([session.error.code, session.error.field], ['invalid_field', 'name']);
  assert.equal(validateCreateSession({ reference: 'r', cpf: '529.982.247-25', name: ' Maria da Silva ' }).ok, true);
});
