/**
 * The flow's context: the endpoint, the session's secret and the locale resolved in one place,
 * again only when one of the element's settings changed, and the same object for everything
 * that reads it in between.
 */
import test from 'node:test';
import assert from 'node:assert/strict';
import { en, ptBR } from '../src/messages/index.js';
import { resumeKeyFor } from '../src/controllers/kept-onboarding.js';
import { ResolvedFlowContext, resolveFlowContext, type FlowSettings } from '../src/onboarding-flow/flow-context.js';

test('a context: the endpoint normalised, the secret as set, the locale resolved with its messages, the resume key of both', () => {
  const context = resolveFlowContext({ endpoint: 'https://kyc.example.com/', session: 'cs_1', locale: 'en-GB' });
  assert.equal(context.endpoint, 'https://kyc.example.com/v1');
  assert.equal(context.secret, 'cs_1');
  assert.equal(context.locale, 'en');
  assert.equal(context.messages, en);
  assert.equal(context.resumeKey, resumeKeyFor('https://kyc.example.com/v1', 'cs_1'));
  const bare = resolveFlowContext({ endpoint: '', session: '', locale: 'fr' });
  assert.deepEqual([bare.endpoint, bare.secret, bare.locale, bare.messages === ptBR], ['/v1', '', 'pt-BR', true]);
});

test('resolved again only when a setting changed: the same object in between', () => {
  const settings: FlowSettings = { endpoint: '/kyc', session: '', locale: 'pt-BR' };
  let reads = 0;
  const source = new ResolvedFlowContext(() => {
    reads++;
    return { ...settings };
  });
  const first = source.current;
  assert.equal(source.current, first);
  assert.equal(reads, 2, 'the settings are read on each access');
  for (const change of [{ endpoint: '/kyc/v1' }, { session: 'cs_2' }, { locale: 'es' }] satisfies Partial<FlowSettings>[]) {
    const before = source.current;
    Object.assign(settings, change);
    const after = source.current;
    assert.notEqual(after, before, JSON.stringify(change));
    assert.equal(source.current, after);
  }
  assert.deepEqual([source.current.endpoint, source.current.secret, source.current.locale], ['/kyc/v1', 'cs_2', 'es']);
});
