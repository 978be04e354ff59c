/// <reference types="@onboarding-kit/testing/mocha-globals" />
import type { CreateOnboardingRequest, PageSession } from '@onboarding-kit/contract';
import { expect } from '@open-wc/testing';
import { CompanionError, type CompanionErrorCode } from '../api/index.js';
import { problemOfSession, sessionProblem } from './session-controller.js';
import { newIdempotencyKey, sameRequest } from './idempotency-key.js';
import { uploadErrorIsFinal, uploadErrorIsRetryable } from './upload-errors.js';

const NOW = Date.parse('2026-11-23T12:00:00Z');
const session = (over: Partial<PageSession> = {}): PageSession => ({
  id: 'ses_1',
  status: 'open',
  expiresAt: '2026-11-23T12:30:00Z',
  prefill: {},
  documentTypes: [],
  locale: 'pt-BR',
  ...over,
});
// Codes outside the catalogue stand for those of a newer companion.
const error = (status: number, code = 'x') => new CompanionError({ code: code as CompanionErrorCode, message: 'm', status });

describe('session rules', () => {
  it('an open session before its expiry can start a flow; expired by status or by clock, or used, cannot', () => {
    expect(problemOfSession(session(), NOW)).to.equal(null);
    expect(problemOfSession(session({ status: 'expired' }), NOW)).to.equal('expired');
    expect(problemOfSession(session({ expiresAt: '2026-11-23T12:00:00Z' }), NOW)).to.equal('expired');
    expect(problemOfSession(session({ status: 'submitted' }), NOW)).to.equal('used');
    expect(problemOfSession(session({ status: 'completed' }), NOW)).to.equal('used');
    expect(problemOfSession(session({ status: 'cancelled' }), NOW)).to.equal('cancelled');
  });

  it('a session the service provider cancelled: 410 session_cancelled is its own problem, and ends an upload for good', () => {
    expect(sessionProblem(error(410, 'session_cancelled'))).to.equal('cancelled');
    expect(uploadErrorIsFinal(error(410, 'session_cancelled'))).to.equal(true);
    expect(uploadErrorIsRetryable(error(410, 'session_cancelled'))).to.equal(false);
  });

  it('a failed read: 401 is an unknown secret, 410 expired, 409 used, anything else worth retrying', () => {
    expect(sessionProblem(error(401, 'unauthorized'))).to.equal('invalid');
    expect(sessionProblem(error(410, 'session_expired'))).to.equal('expired');
    expect(sessionProblem(error(409, 'session_used'))).to.equal('used');
    for (const e of [error(0, 'network'), error(503, 'store_unavailable'), error(200, 'invalid_response'), error(429, 'rate_limited')]) {
      expect(sessionProblem(e)).to.equal('unavailable');
    }
  });

  it('upload errors that end the flow, and those that a retry of the same content cannot fix', () => {
    for (const code of ['session_used', 'session_expired', 'session_invalid']) {
      expect(uploadErrorIsFinal(error(409, code)), code).to.equal(true);
      expect(uploadErrorIsRetryable(error(409, code)), code).to.equal(false);
    }
    for (const code of ['session_mismatch', 'idempotency_conflict']) {
      expect(uploadErrorIsFinal(error(400, code)), code).to.equal(false);
      expect(uploadErrorIsRetryable(error(400, code)), code).to.equal(false);
    }
    for (const code of ['idempotency_in_progress', 'network', 'upstream_unavailable', 'invalid_image']) {
      expect(uploadErrorIsFinal(error(409, code)), code).to.equal(false);
      expect(uploadErrorIsRetryable(error(409, code)), code).to.equal(true);
    }
  });

  it('idempotency keys are version 4 UUIDs, a new one each time', () => {
    const keys = new Set(Array.from({ length: 200 }, () => newIdempotencyKey()));
    expect(keys.size).to.equal(200);
    for (const key of keys) expect(key).to.match(/^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
  });

  it('the same content is every field and every photo alike', () => {
    const base: CreateOnboardingRequest = {
      cpf: '529.982.247-25',
      name: 'Maria',
      documentType: 'CNH',
      images: { documentFront: 'AAAA', selfie: 'BBBB' },
    };
    const copy = (over: Partial<CreateOnboardingRequest>): CreateOnboardingRequest => ({
      ...base,
      ...over,
      images: { ...base.images, ...over.images },
    });
    expect(sameRequest(base, copy({}))).to.equal(true);
    expect(sameRequest(base, copy({ name: 'Maria S' }))).to.equal(false);
    expect(sameRequest(base, copy({ documentType: 'RG' }))).to.equal(false);
    expect(sameRequest(base, { ...copy({}), cpf: undefined, cnpj: '11.222.333/0001-81' } as CreateOnboardingRequest)).to.equal(false);
    expect(sameRequest(base, copy({ images: { selfie: 'BBBC' } }))).to.equal(false);
    expect(sameRequest(base, copy({ images: { documentBack: 'CCCC' } }))).to.equal(false);
  });
});
