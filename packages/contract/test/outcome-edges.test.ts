/**
 * What each outcome promises besides its kind: whether a retry could help (a REFUSED never,
 * a token 401 once after renewal, docs/upstream-api.md, rule 3), which members are present, and
 * how a webhook envelope is told apart by any one of its members (docs/upstream-api.md#webhooks).
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { classify, parseWebhook } from '@onboarding-kit/contract';

test('every failure row: its kind, never ok, and whether repeating the call could help', () => {
  const rows: [number, string, string, boolean][] = [
    [400, "Don't have access to the service", 'no-access', false],
    [400, 'Dont have access to the service', 'no-access', false],
    [400, 'Imagem obrigatória não encontrada', 'missing-image', false],
    [400, 'Face não encontrada na base', 'face-not-found', false],
    [401, 'Produto inativo', 'unauthorized', false],
    [500, 'Falha ao realizar consulta', 'error', true],
    [503, 'Service Unavailable', 'error', true],
    [300, 'Multiple Choices', 'failed', false],
    [404, 'Not Found', 'failed', false],
  ];
  for (const [code, message, kind, retryable] of rows) {
    assert.deepEqual(
      classify({ result: { cpf: '1' }, status: { code, message } }),
      { kind, ok: false, code, message, retryable },
      `${code} ${message}`,
    );
  }
});

test('a success is final: ok, its result, nothing to retry', () => {
  assert.deepEqual(classify({ result: { cpf: '1' }, status: { code: 299, message: 'Success' } }), {
    kind: 'success',
    ok: true,
    code: 299,
    message: 'Success',
    result: { cpf: '1' },
    retryable: false,
  });
  assert.equal(classify({ result: { cpf: '1' }, status: { code: 199, message: 'Early' } }).kind, 'failed');
});

test('an HTTP 401 is the token: retryable once renewed, whatever the body says', () => {
  assert.deepEqual(classify(null, 401), { kind: 'unauthorized', ok: false, retryable: true });
  assert.deepEqual(classify({ status: { code: 401, message: 'Unauthorized' } }, 401), {
    kind: 'unauthorized',
    ok: false,
    code: 401,
    message: 'Unauthorized',
    retryable: true,
  });
});

test('onboardingStatus ERROR is a retryable error even with code 200; REFUSED is final', () => {
  assert.deepEqual(classify({ result: { a: 1 }, status: { code: 200, message: 'Success' }, onboardingStatus: 'ERROR' }), {
    kind: 'error',
    ok: false,
    code: 200,
    message: 'Success',
    retryable: true,
  });
  assert.deepEqual(classify({ result: { a: 1 }, status: { code: 200, message: 'Success' }, onboardingStatus: 'REFUSED' }), {
    kind: 'refused',
    ok: false,
    code: 200,
    message: 'Success',
    retryable: false,
  });
  assert.equal(classify({ result: { a: 1 }, status: { code: 200, message: 'Success' }, onboardingStatus: 'APPROVED' }).kind, 'success');
});

test('no envelope: an error, retryable for 5xx and for no answer at all (status 0), with no empty members', () => {
  assert.deepEqual(classify(null, 500), { kind: 'error', ok: false, retryable: true });
  assert.deepEqual(classify(undefined, 0), { kind: 'error', ok: false, retryable: true });
  assert.deepEqual(classify(JSON.parse('"<html>Bad gateway</html>"'), 499), { kind: 'error', ok: false, retryable: false });
  assert.deepEqual(classify(JSON.parse('{"status":{"message":"no code"}}'), 200), {
    kind: 'error',
    ok: false,
    message: 'no code',
    retryable: false,
  });
});

test('an envelope webhook is recognised by any one of result, onboardingStatus or a status object', () => {
  for (const body of [{ result: { cpf: '1' } }, { onboardingStatus: 'REFUSED' }, { status: { code: 200, message: 'Success' } }]) {
    assert.equal(parseWebhook(body)?.kind, 'query', JSON.stringify(body));
  }
  for (const body of [{ status: 'APPROVED' }, { externalId: 'e1' }, { tokenOnboarding: 't-1' }, { '': 1 }]) {
    assert.equal(parseWebhook(body), null, JSON.stringify(body));
  }
});

test('an envelope webhook names an onboarding only by a non-empty token and a known status', () => {
  for (const tokenOnboarding of ['', 7, null]) {
    const w = parseWebhook({ result: {}, status: { code: 200, message: 'Success' }, tokenOnboarding, onboardingStatus: 'APPROVED' });
    assert.ok(w?.kind === 'query');
    assert.equal('tokenOnboarding' in w, false, JSON.stringify(tokenOnboarding));
    assert.equal(w.status, 'APPROVED');
  }
  for (const onboardingStatus of ['DONE', 'approved', 3]) {
    const w = parseWebhook({ result: {}, status: { code: 200, message: 'Success' }, tokenOnboarding: 't-1', onboardingStatus });
    assert.ok(w?.kind === 'query');
    assert.equal('status' in w, false, JSON.stringify(onboardingStatus));
    assert.equal(w.tokenOnboarding, 't-1');
  }
});
