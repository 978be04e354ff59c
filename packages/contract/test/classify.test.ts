import { test } from 'node:test';
import assert from 'node:assert/strict';
import { NON_CONTRACT_FIELDS, classify, parseWebhook, stripNonContract } from '@onboarding-kit/contract';

test('success comes from status.code and a non-empty result, never from HTTP 200 alone', () => {
  const ok = classify({ result: { cpf: '52998224725', isPep: false }, status: { code: 200, message: 'Success' }, externalId: 'x1' });
  assert.equal(ok.kind, 'success');
  assert.equal(ok.ok, true);
  assert.deepEqual(ok.result, { cpf: '52998224725', isPep: false });
  assert.equal(ok.externalId, 'x1');
  const pt = classify({ result: { a: 1 }, status: { code: 200, message: 'Consulta realizada com sucesso' } });
  assert.equal(pt.kind, 'success');
  assert.equal(classify({ status: { code: 500, message: 'Falha ao realizar consulta' } }, 200).kind, 'error');
});

test('result {} with 200 is no data, with the message as reason', () => {
  const out = classify({ result: {}, status: { code: 200, message: 'Saldo insuficiente' } });
  assert.deepEqual(out, { kind: 'no-data', ok: true, code: 200, message: 'Saldo insuficiente', result: {}, retryable: false });
  // A result holding only non-contract fields and nulls is no data too.
  assert.equal(classify({ result: { fieldsOutput: [], name: null }, status: { code: 200, message: 'Success' } }).kind, 'no-data');
});

test('REFUSED is a business outcome, never retryable, even with code 200', () => {
  const out = classify({ result: { a: 1 }, status: { code: 200, message: 'Documento ilegível' }, onboardingStatus: 'REFUSED' });
  assert.equal(out.kind, 'refused');
  assert.equal(out.ok, false);
  assert.equal(out.retryable, false);
  assert.equal(out.message, 'Documento ilegível');
});

test('ERROR is technical and keeps externalId for support', () => {
  const out = classify({
    result: {},
    status: { code: 500, message: 'Falha ao realizar consulta' },
    onboardingStatus: 'ERROR',
    externalId: 'ext-9',
  });
  assert.equal(out.kind, 'error');
  assert.equal(out.externalId, 'ext-9');
  assert.equal(out.retryable, true);
});

test('every error row of docs/upstream-api.md#errors-and-classification', () => {
  const rows: [number, string, string][] = [
    [400, "Don't have access to the service", 'no-access'],
    [400, 'Imagem obrigatória não encontrada', 'missing-image'],
    [400, 'Face nao encontrada na base', 'face-not-found'],
    [500, 'Falha ao realizar consulta', 'error'],
    [401, 'Produto inativo', 'unauthorized'],
    [400, 'Failed to fetch information', 'failed'],
    [403, 'Forbidden', 'failed'],
  ];
  for (const [code, message, kind] of rows) {
    const out = classify({ result: {}, status: { code, message } });
    assert.equal(out.kind, kind, message);
    assert.equal(out.ok, false);
  }
  assert.equal(classify({ status: { code: 401, message: 'Unauthorized' } }, 401).kind, 'unauthorized');
  assert.equal(classify(null, 502).kind, 'error');
  assert.equal(classify(null, 502).retryable, true);
  assert.equal(classify(undefined, 400).retryable, false);
});

test('stripping removes non-contract fields and nulls at any depth and copies', () => {
  const input = {
    result: { cpf: '1', name: null, nested: { valid: true, keep: 0, list: [null, { enabled: true, x: 1 }] } },
    status: { code: 200, message: 'Success' },
    fieldsOutput: ['a'],
    required: true,
    enabled: true,
    valid: true,
    callService: 'x',
    nextStep: 'y',
    services: [],
    externalId: null,
  };
  const out = stripNonContract(input);
  assert.deepEqual(out, { result: { cpf: '1', nested: { keep: 0, list: [{ x: 1 }] } }, status: { code: 200, message: 'Success' } });
  assert.equal(input.result.name, null, 'input untouched');
  assert.deepEqual([...NON_CONTRACT_FIELDS].sort(), [
    'callService',
    'enabled',
    'fieldsOutput',
    'nextStep',
    'required',
    'services',
    'valid',
  ]);
});

test('webhooks: both shapes recognised, anything else refused', () => {
  assert.deepEqual(parseWebhook({ tokenOnboarding: 't', status: 'APPROVED', fields: {}, services: [] }), {
    kind: 'onboarding',
    tokenOnboarding: 't',
    status: 'APPROVED',
  });
  const q = parseWebhook({
    result: {},
    status: { code: 500, message: 'Falha ao realizar consulta' },
    onboardingStatus: 'ERROR',
    externalId: 'e1',
  });
  assert.equal(q?.kind, 'query');
  assert.equal(q?.kind === 'query' && q.outcome.kind, 'error');
  assert.equal(q?.kind === 'query' && q.externalId, 'e1');
  assert.equal(parseWebhook({ tokenOnboarding: 't', status: 'DONE' }), null);
  assert.equal(parseWebhook([]), null);
  assert.equal(parseWebhook('x'), null);
  assert.equal(parseWebhook({ hello: 1 }), null);
});
