/**
 * What a page learns of a session's person and which page secrets still open it
 * (sessions/person-rules.ts, sessions/page-secret-rules.ts), as pure functions of a record.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { ValidCreateOnboardingBytes } from '@onboarding-kit/contract';
import { hashSecret } from '../src/auth/access-key.js';
import { firstName, pagePrefill, withSessionName } from '../src/sessions/person-rules.js';
import { captureExchanged, pageSecretOpens } from '../src/sessions/page-secret-rules.js';
import type { SessionRecord } from '../src/store/backend-state.js';

const session = (over: Partial<SessionRecord> = {}): SessionRecord => ({
  id: 'ses_0123456789abcdef0123456789abcdef',
  version: 1,
  reference: 'r',
  status: 'open',
  createdAt: '2026-01-01T00:00:00.000Z',
  expiresAt: '2026-01-01T01:00:00.000Z',
  taxId: { kind: 'cpf', value: '52998224725' },
  name: '  Maria   da Silva ',
  documentTypes: [],
  locale: 'pt-BR',
  metadata: {},
  ...over,
});

test('a page is shown the masked tax id and the first name while the session is open and unused, and nothing after', () => {
  assert.equal(firstName(' Maria  da Silva'), 'Maria');
  assert.equal(firstName('   '), undefined);
  assert.deepEqual(pagePrefill(session(), 'open'), { cpf: '***.982.247-**', name: 'Maria' });
  assert.deepEqual(pagePrefill(session({ taxId: { kind: 'cnpj', value: '11222333000181' }, name: undefined }), 'open'), {
    cnpj: '**.222.333/0001-**',
  });
  for (const status of ['submitted', 'completed', 'expired'] as const) assert.deepEqual(pagePrefill(session(), status), {});
  assert.deepEqual(pagePrefill(session({ tokenOnboarding: 't' }), 'open'), {}, 'a creation under way or done');
});

test("a creation that left the first name it was shown, or sent none, takes the session's whole name; a changed one stays", () => {
  const valid = (name?: string) =>
    ({ taxId: { kind: 'cpf', value: '52998224725' }, images: {}, ...(name && { name }) }) as ValidCreateOnboardingBytes;
  assert.equal(withSessionName(valid('Maria'), session()).name, '  Maria   da Silva ');
  assert.equal(withSessionName(valid(), session()).name, '  Maria   da Silva ');
  assert.equal(withSessionName(valid('Mariana Souza'), session()).name, 'Mariana Souza');
  assert.equal(withSessionName(valid('Ana'), session({ name: undefined })).name, 'Ana');
});

test('every page secret, the client secret included, opens a session until the grace after it ended; an exchanged capture token never', () => {
  const grace = 300_000;
  const ended = Date.parse('2026-01-01T00:30:00.000Z');
  const done = session({
    status: 'completed',
    endedAt: new Date(ended).toISOString(),
    exchangedCaptures: [hashSecret('captured-token-1234')],
  });
  for (const kind of ['client', 'capture', 'page', 'device'] as const) {
    assert.equal(pageSecretOpens(done, { kind, secret: 'other-secret-5678' }, ended + grace - 1, grace), true, kind);
    assert.equal(pageSecretOpens(done, { kind, secret: 'other-secret-5678' }, ended + grace, grace), false, kind);
  }
  assert.equal(pageSecretOpens(session(), { kind: 'device', secret: 'd' }, ended + 10 * grace, grace), true, 'an open session');
  assert.equal(captureExchanged(done, 'captured-token-1234'), true);
  assert.equal(captureExchanged(done, 'captured-token-12345'), false);
  assert.equal(
    pageSecretOpens(session({ exchangedCaptures: done.exchangedCaptures! }), { kind: 'capture', secret: 'captured-token-1234' }, 0, grace),
    false,
  );
});
