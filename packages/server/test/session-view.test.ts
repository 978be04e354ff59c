import { test } from 'node:test';
import assert from 'node:assert/strict';
import { toSessionView } from '../src/sessions/session-view.js';
import type { SessionRecord } from '../src/store/backend-state.js';
import type { OnboardingRecord } from '../src/store/index.js';

const AT = '2026-11-20T10:00:00.000Z';
const session = (over: Partial<SessionRecord> = {}): SessionRecord => ({
  id: 'ses_1',
  version: 3,
  reference: 'ref',
  status: 'completed',
  createdAt: AT,
  expiresAt: AT,
  documentTypes: [],
  locale: 'pt-BR',
  metadata: {},
  tokenOnboarding: 'tok-1',
  outcome: { status: 'APPROVED', at: AT },
  ...over,
});
const onboarding: OnboardingRecord = {
  tokenOnboarding: 'tok-1',
  status: 'APPROVED',
  createdAt: AT,
  updatedAt: AT,
  accessKeyHash: 'h',
  history: [{ status: 'APPROVED', at: AT, source: 'poll' }],
  keptAnyway: { selfie: 'blurry' },
};

test('the backend view names the photos kept anyway, live or after the onboarding is gone by retention, and nothing when none was', () => {
  const kept = session({ keptAnyway: { selfie: 'blurry' } });
  assert.deepEqual(toSessionView(kept, onboarding, Date.parse(AT)).onboarding?.keptAnyway, { selfie: 'blurry' });
  const gone = toSessionView(kept, null, Date.parse(AT)).onboarding!;
  assert.equal(gone.history, null);
  assert.deepEqual(gone.keptAnyway, { selfie: 'blurry' });
  // A session without its own copy: the live record tells.
  assert.deepEqual(toSessionView(session(), onboarding, Date.parse(AT)).onboarding?.keptAnyway, { selfie: 'blurry' });
  const { keptAnyway: _none, ...withoutKept } = onboarding;
  const clean = toSessionView(session(), withoutKept, Date.parse(AT)).onboarding!;
  assert.equal('keptAnyway' in clean, false);
  // The view is a copy: editing it changes nothing kept.
  toSessionView(kept, null, Date.parse(AT)).onboarding!.keptAnyway!.selfie = 'too-dark';
  assert.equal(kept.keptAnyway!.selfie, 'blurry');
});
