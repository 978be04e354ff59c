import { test } from 'node:test';
import assert from 'node:assert/strict';
import { TERMINAL_STATUSES, ONBOARDING_STATUSES, isTerminalStatus, parseOnboardingReport, parseWebhook } from '@onboarding-kit/contract';

test('the report parser keeps the named members, a usable externalId and what else was sent', () => {
  const sent = { tokenOnboarding: 't-1', status: 'ERROR', externalId: 'ext-9', fields: { name: 'Ana' }, nextStep: 'x' };
  assert.deepEqual(parseOnboardingReport(sent), sent);
  for (const externalId of ['', 42, null, { id: 'x' }]) {
    const report = parseOnboardingReport({ tokenOnboarding: 't-1', status: 'ERROR', externalId });
    assert.ok(report);
    assert.equal('externalId' in report, false, `externalId ${JSON.stringify(externalId)} is dropped`);
  }
  for (const body of [
    null,
    [],
    'x',
    {},
    { tokenOnboarding: 't-1' },
    { tokenOnboarding: '', status: 'APPROVED' },
    { tokenOnboarding: 7, status: 'APPROVED' },
    { tokenOnboarding: 't-1', status: 'DONE' },
  ]) {
    assert.equal(parseOnboardingReport(body), null, JSON.stringify(body));
  }
});

test('both webhook shapes come out as one result: token, status and externalId read the same way', () => {
  const onboarding = parseWebhook({ tokenOnboarding: 't-1', status: 'ERROR', externalId: 'ext-1', fields: {}, services: [] });
  const query = parseWebhook({
    result: {},
    status: { code: 500, message: 'Falha ao realizar consulta' },
    onboardingStatus: 'ERROR',
    externalId: 'ext-2',
    tokenOnboarding: 't-2',
  });
  assert.deepEqual(onboarding, { kind: 'onboarding', tokenOnboarding: 't-1', status: 'ERROR', externalId: 'ext-1' });
  assert.ok(query?.kind === 'query');
  assert.equal(query.outcome.kind, 'error');
  // The fields a receiver needs, without narrowing on the kind first.
  const read = (w: NonNullable<ReturnType<typeof parseWebhook>>) => ({
    tokenOnboarding: w.tokenOnboarding,
    status: w.status,
    externalId: w.externalId,
  });
  assert.deepEqual(read(onboarding!), { tokenOnboarding: 't-1', status: 'ERROR', externalId: 'ext-1' });
  assert.deepEqual(read(query), { tokenOnboarding: 't-2', status: 'ERROR', externalId: 'ext-2' });
});

test('a standalone query names no onboarding; empty or non-string ids are absent, never empty', () => {
  const query = parseWebhook({ result: { cpf: '1' }, status: { code: 200, message: 'Success' }, externalId: '' });
  assert.ok(query?.kind === 'query');
  assert.equal(query.outcome.kind, 'success');
  assert.equal(query.tokenOnboarding, undefined);
  assert.equal(query.status, undefined);
  assert.equal('externalId' in query, false);
  const onboarding = parseWebhook({ tokenOnboarding: 't-1', status: 'APPROVED', externalId: 5 });
  assert.deepEqual(onboarding, { kind: 'onboarding', tokenOnboarding: 't-1', status: 'APPROVED' });
});

test('the terminal statuses are every status but IN_PROCESS, and the helper agrees with the list', () => {
  assert.deepEqual([...TERMINAL_STATUSES].sort(), ONBOARDING_STATUSES.filter((s) => s !== 'IN_PROCESS').sort());
  for (const s of ONBOARDING_STATUSES)
    assert.equal(
      isTerminalStatus(s),
      TERMINAL_STATUSES.some((t) => t === s),
      s,
    );
  for (const v of [undefined, null, '', 'approved', 'DONE', 1]) assert.equal(isTerminalStatus(v), false, String(v));
});
