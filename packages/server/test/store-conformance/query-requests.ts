/**
 * Standalone query requests: stored once by id, found by their inspection key (the newest), a
 * pending one ended by exactly one of racing instances, due ones soonest first, the outcome
 * sealed at rest, and retention that erases outcomes before it deletes requests.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { QueryRequestRecord } from '../../src/store/backend-state.js';
import { START, iso, type Harness } from './harness.js';

const KEY = '6f1c2d3e-4a5b-4c6d-8e9f-0a1b2c3d4e5f';
const CPF = '52998224725';
const NAME = 'Joana Bezerra Valadares';
const keyText = (id: string, fill: number) => `${id}:${Buffer.alloc(32, fill).toString('base64')}`;

const pending = (id: string, over: Partial<QueryRequestRecord> = {}): QueryRequestRecord => ({
  id,
  service: 'SERVICE_DIGITAL_DOCUMENTOSCOPY',
  status: 'pending',
  createdAt: iso(START),
  key: KEY,
  nextCheckMs: START + 5_000,
  checks: 0,
  ...over,
});
const outcome = { kind: 'success', ok: true, retryable: false, result: { key: KEY, status: 'APPROVED', fields: { cpf: CPF, name: NAME } } };
const completed = (id: string, over: Partial<QueryRequestRecord> = {}): QueryRequestRecord => ({
  id,
  service: 'SERVICE_PEP',
  status: 'completed',
  createdAt: iso(START),
  completedAt: iso(START),
  outcome: { kind: 'success', ok: true, retryable: false, result: { cpf: CPF, isPep: false } },
  ...over,
});

export function describeQueryRequests({ withBackend }: Harness): void {
  test('query requests: stored once by id, read back as stored, found by their key (the newest), from any instance', async () => {
    await withBackend(async (a, { peer }) => {
      const b = await peer();
      assert.equal(await a.insertQueryRequest(completed('qry_1')), true);
      assert.equal(await b.insertQueryRequest(completed('qry_1', { service: 'OTHER' })), false, 'an id is stored once');
      assert.deepEqual(await b.getQueryRequest('qry_1'), completed('qry_1'));
      assert.equal(await a.getQueryRequest('qry_unknown'), null);
      assert.equal(await a.findQueryRequestByKey(KEY), null, 'a synchronous query has no key');

      assert.equal(await a.insertQueryRequest(pending('qry_2')), true);
      assert.deepEqual(await b.findQueryRequestByKey(KEY), pending('qry_2'));
      await b.insertQueryRequest(pending('qry_3', { createdAt: iso(START + 1) }));
      assert.equal((await a.findQueryRequestByKey(KEY))!.id, 'qry_3', 'a key names its newest request');
      assert.equal(await a.findQueryRequestByKey('00000000-0000-4000-8000-000000000000'), null);

      const read = (await a.getQueryRequest('qry_1'))!;
      (read.outcome as { kind: string }).kind = 'changed';
      assert.deepEqual(await a.getQueryRequest('qry_1'), completed('qry_1'), 'callers get copies');
    });
  });

  test('query requests: a pending one ends once, whoever races to end it; an ended one is neither ended again nor rescheduled', async () => {
    await withBackend(async (a, { peer }) => {
      const b = await peer();
      await a.insertQueryRequest(pending('qry_p'));
      assert.equal(await b.rescheduleQueryRequest('qry_p', START + 20_000, 1), true);
      assert.deepEqual(await a.getQueryRequest('qry_p'), pending('qry_p', { nextCheckMs: START + 20_000, checks: 1 }));

      const end = { status: 'completed' as const, completedAt: iso(START + 30_000), outcome };
      const race = await Promise.all(Array.from({ length: 6 }, (_, i) => (i % 2 ? b : a).finishQueryRequest('qry_p', end)));
      assert.equal(race.filter(Boolean).length, 1, 'ended by exactly one of them');
      const { nextCheckMs: _gone, ...rest } = pending('qry_p', { checks: 1 });
      assert.deepEqual(await b.getQueryRequest('qry_p'), { ...rest, status: 'completed', completedAt: iso(START + 30_000), outcome });
      assert.equal(await a.finishQueryRequest('qry_p', { status: 'failed', completedAt: iso(START + 40_000) }), false);
      assert.equal(await a.rescheduleQueryRequest('qry_p', START + 50_000, 2), false);
      assert.equal((await a.getQueryRequest('qry_p'))!.status, 'completed');
      assert.equal(await a.finishQueryRequest('qry_unknown', end), false);
      assert.equal(await a.rescheduleQueryRequest('qry_unknown', START, 1), false);

      await a.insertQueryRequest(pending('qry_f', { key: '11111111-1111-4111-8111-111111111111' }));
      assert.equal(await a.finishQueryRequest('qry_f', { status: 'failed', completedAt: iso(START + 1_000) }), true);
      const failed = (await b.getQueryRequest('qry_f'))!;
      assert.equal(failed.status, 'failed');
      assert.equal(failed.outcome, undefined, 'an end without an outcome holds none');
    });
  });

  test('query requests: due ones are the pending ones whose check has come, soonest first', async () => {
    await withBackend(async (a, { peer }) => {
      const b = await peer();
      await a.insertQueryRequest(pending('qry_late', { nextCheckMs: START + 9_000, key: '22222222-2222-4222-8222-222222222222' }));
      await b.insertQueryRequest(pending('qry_soon', { nextCheckMs: START + 1_000, key: '33333333-3333-4333-8333-333333333333' }));
      await a.insertQueryRequest(pending('qry_mid', { nextCheckMs: START + 5_000, key: '44444444-4444-4444-8444-444444444444' }));
      await a.insertQueryRequest(completed('qry_done'));
      const ids = (list: QueryRequestRecord[]) => list.map((r) => r.id);
      assert.deepEqual(ids(await b.dueQueryRequests(START, 10)), []);
      assert.deepEqual(ids(await b.dueQueryRequests(START + 5_000, 10)), ['qry_soon', 'qry_mid']);
      assert.deepEqual(ids(await a.dueQueryRequests(START + 60_000, 2)), ['qry_soon', 'qry_mid']);
      assert.deepEqual(await a.dueQueryRequests(START + 60_000, 0), []);
      await b.rescheduleQueryRequest('qry_soon', START + 70_000, 1);
      await a.finishQueryRequest('qry_mid', { status: 'completed', completedAt: iso(START + 6_000), outcome });
      assert.deepEqual(ids(await a.dueQueryRequests(START + 60_000, 10)), ['qry_late']);
    });
  });

  test('query requests: retention erases an outcome after its request ended, and deletes requests created before the cutoff', async () => {
    await withBackend(async (a, { peer, clock }) => {
      const b = await peer();
      await a.insertQueryRequest(completed('qry_old', { createdAt: iso(START - 10_000), completedAt: iso(START - 10_000) }));
      await a.insertQueryRequest(completed('qry_ended', { createdAt: iso(START + 1_000), completedAt: iso(START + 1_000) }));
      await a.insertQueryRequest(completed('qry_fresh', { createdAt: iso(START + 5_000), completedAt: iso(START + 5_000) }));
      await a.insertQueryRequest(pending('qry_pending', { createdAt: iso(START + 1_000) }));
      await clock.advance(10_000);
      const touched = await b.purgeQueryRequests({ outcomesCompletedBefore: new Date(START + 2_000), createdBefore: new Date(START) });
      assert.equal(touched, 2, 'one deleted, one erased');
      assert.equal(await a.getQueryRequest('qry_old'), null, 'deleted whole');
      const erased = (await a.getQueryRequest('qry_ended'))!;
      assert.equal(erased.outcome, undefined, 'its outcome erased');
      assert.equal(erased.status, 'completed');
      assert.equal(typeof erased.outcomeErasedAt, 'string', 'and when');
      assert.deepEqual(
        await a.getQueryRequest('qry_fresh'),
        completed('qry_fresh', { createdAt: iso(START + 5_000), completedAt: iso(START + 5_000) }),
      );
      assert.deepEqual(await a.getQueryRequest('qry_pending'), pending('qry_pending', { createdAt: iso(START + 1_000) }));
      assert.equal(await a.purgeQueryRequests({ outcomesCompletedBefore: new Date(START + 2_000), createdBefore: new Date(START) }), 0);

      await a.purgeQueryRequests({ outcomesCompletedBefore: new Date(START), createdBefore: new Date(START + 3_000) });
      assert.equal(await a.getQueryRequest('qry_pending'), null);
      assert.equal(await a.findQueryRequestByKey(KEY), null, 'its key goes with it');
    });
  });

  test('query requests: with a data key the outcome is sealed at rest and opens on another instance with the key', async () => {
    await withBackend(
      async (a, { peer, rawState }) => {
        await a.insertQueryRequest(completed('qry_sync'));
        await a.insertQueryRequest(pending('qry_async'));
        await a.finishQueryRequest('qry_async', { status: 'completed', completedAt: iso(START + 1_000), outcome });
        const raw = await rawState();
        assert.ok(raw.includes('qry_sync') && raw.includes(KEY), 'ids and keys stay plain');
        assert.ok(!raw.includes(CPF), 'no CPF at rest');
        assert.ok(!raw.includes(NAME), 'no name at rest');
        const b = await peer({ dataKey: keyText('q1', 7) });
        assert.deepEqual(await b.getQueryRequest('qry_sync'), completed('qry_sync'));
        assert.deepEqual((await b.findQueryRequestByKey(KEY))!.outcome, outcome);
      },
      { dataKey: keyText('q1', 7) },
    );
  });
}
