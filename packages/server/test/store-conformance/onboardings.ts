/** The onboarding records every store keeps: creation, status changes, listeners, listing, expiry, racing writers. */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { OnboardingRecord } from '../../src/store/store.js';
import { START, iso, create, eventually, type Harness } from './harness.js';

export function describeOnboardings({ withStore, serverClock }: Harness): void {
  test('create and read: the record comes back as written, with one creation entry; callers get copies', async () => {
    await withStore(async (s) => {
      const created = await create(s, 'tok-a', '2030-01-01T10:00:00.000Z');
      const expected: OnboardingRecord = {
        tokenOnboarding: 'tok-a',
        status: 'IN_PROCESS',
        createdAt: '2030-01-01T10:00:00.000Z',
        updatedAt: '2030-01-01T10:00:00.000Z',
        accessKeyHash: 'hash-tok-a',
        history: [{ status: 'IN_PROCESS', at: '2030-01-01T10:00:00.000Z', source: 'creation' }],
      };
      assert.deepEqual(created, expected);
      assert.deepEqual(await s.get('tok-a'), expected);
      assert.equal(await s.get('tok-unknown'), null);

      const read = (await s.get('tok-a'))!;
      read.history.push({ status: 'APPROVED', at: iso(START), source: 'poll' });
      read.status = 'APPROVED';
      assert.deepEqual(await s.get('tok-a'), expected, 'editing what was read changes nothing stored');

      const withExtras = await create(s, 'tok-b', '2030-01-01T11:00:00.000Z', {
        externalId: 'ext-1',
        history: [
          { status: 'IN_PROCESS', at: '2030-01-01T11:00:00.000Z', source: 'creation' },
          { status: 'IN_PROCESS', at: '2030-01-01T11:00:01.000Z', source: 'poll' },
        ],
      });
      assert.equal(withExtras.externalId, 'ext-1');
      assert.deepEqual(await s.get('tok-b'), withExtras);
      assert.equal((await s.get('tok-b'))!.history.length, 2);
    });
  });

  test('status changes: repeats change nothing, terminal is final, the default time is the injected clock', async () => {
    await withStore(async (s, { clock }) => {
      await create(s, 'tok-s');
      const repeat = (await s.applyStatus('tok-s', { status: 'IN_PROCESS', source: 'poll' }))!;
      assert.equal(repeat.changed, false);
      assert.equal(repeat.record.history.length, 1);

      await clock.advance(1_000);
      const when = clock.now();
      const done = (await s.applyStatus('tok-s', { status: 'ERROR', source: 'webhook', externalId: 'e-1' }))!;
      assert.equal(done.changed, true);
      assert.equal(done.record.status, 'ERROR');
      assert.equal(done.record.externalId, 'e-1');
      if (!serverClock) {
        assert.equal(done.record.updatedAt, iso(when));
        assert.equal(done.record.finishedAt, iso(when));
      } else {
        assert.ok(Date.parse(done.record.finishedAt!) >= when, 'stamped by the clock, not earlier');
      }
      assert.deepEqual(
        done.record.history.map((h) => [h.status, h.source]),
        [
          ['IN_PROCESS', 'creation'],
          ['ERROR', 'webhook'],
        ],
      );

      for (const status of ['APPROVED', 'REFUSED', 'IN_PROCESS', 'ERROR'] as const) {
        const late = (await s.applyStatus('tok-s', { status, source: 'poll', at: '2030-02-01T00:00:00.000Z' }))!;
        assert.equal(late.changed, false, `${status} after ERROR changes nothing`);
        assert.equal(late.record.status, 'ERROR');
      }
      const stored = (await s.get('tok-s'))!;
      assert.deepEqual(stored, done.record, 'nothing moved after the terminal status');
      assert.equal(await s.applyStatus('tok-unknown', { status: 'APPROVED', source: 'poll' }), null);

      // A repeat may bring the externalId an earlier message lacked; it never replaces one.
      await create(s, 'tok-x');
      await s.applyStatus('tok-x', { status: 'REFUSED', source: 'poll', at: '2030-01-01T00:00:05.000Z' });
      const filled = (await s.applyStatus('tok-x', { status: 'REFUSED', source: 'webhook', externalId: 'late-id' }))!;
      assert.equal(filled.changed, false);
      assert.equal(filled.record.externalId, 'late-id');
      assert.equal((await s.get('tok-x'))!.externalId, 'late-id');
      await s.applyStatus('tok-x', { status: 'REFUSED', source: 'webhook', externalId: 'other-id' });
      assert.equal((await s.get('tok-x'))!.externalId, 'late-id');
      assert.equal((await s.get('tok-x'))!.finishedAt, '2030-01-01T00:00:05.000Z', 'an explicit time is kept');
    });
  });

  test('subscription: listeners hear real changes of their onboarding only, each with its own copy', async () => {
    await withStore(async (s) => {
      await create(s, 'tok-1');
      await create(s, 'tok-2');
      const heard: string[] = [];
      const other: string[] = [];
      const offBroken = s.subscribe('tok-1', () => {
        throw new Error('a broken listener');
      });
      const off = s.subscribe('tok-1', (r) => {
        heard.push(`${r.tokenOnboarding}:${r.status}`);
        r.history.length = 0;
      });
      const offOther = s.subscribe('tok-2', (r) => other.push(r.status));
      const second: string[] = [];
      const offSecond = s.subscribe('tok-1', (r) => second.push(`${r.status}:${r.history.length}`));

      await s.applyStatus('tok-1', { status: 'IN_PROCESS', source: 'poll' });
      await s.applyStatus('tok-1', { status: 'APPROVED', source: 'webhook' });
      await s.applyStatus('tok-1', { status: 'APPROVED', source: 'poll' });
      await s.applyStatus('tok-1', { status: 'REFUSED', source: 'poll' });
      assert.deepEqual(heard, ['tok-1:APPROVED']);
      assert.deepEqual(second, ['APPROVED:2'], 'a listener that edits its record does not change what others get');
      assert.deepEqual(other, []);
      assert.equal((await s.get('tok-1'))!.history.length, 2);

      off();
      offBroken();
      offSecond();
      offOther();
      await create(s, 'tok-1');
      await s.applyStatus('tok-1', { status: 'ERROR', source: 'webhook' });
      assert.deepEqual(heard, ['tok-1:APPROVED'], 'nothing after unsubscribing');
    });
  });

  test('in-process listing: only onboardings still IN_PROCESS', async () => {
    await withStore(async (s) => {
      assert.deepEqual(await s.listInProcess(), []);
      for (const t of ['tok-p1', 'tok-p2', 'tok-p3', 'tok-p4']) await create(s, t);
      await s.applyStatus('tok-p2', { status: 'APPROVED', source: 'webhook' });
      await s.applyStatus('tok-p4', { status: 'ERROR', source: 'poll' });
      assert.deepEqual((await s.listInProcess()).sort(), ['tok-p1', 'tok-p3']);
    });
  });

  test('expiry: finished before the retention cutoff or created before the age cutoff, nothing else', async () => {
    await withStore(async (s) => {
      const day = 24 * 3600_000;
      await create(s, 'tok-old-open', iso(START - 3 * day));
      await create(s, 'tok-old-done', iso(START - 3 * day));
      await s.applyStatus('tok-old-done', { status: 'APPROVED', source: 'poll', at: iso(START - 3 * day + 60_000) });
      await create(s, 'tok-done-long-ago', iso(START - day - 3600_000));
      await s.applyStatus('tok-done-long-ago', { status: 'REFUSED', source: 'webhook', at: iso(START - day - 60_000) });
      await create(s, 'tok-done-recently', iso(START - day - 3600_000));
      await s.applyStatus('tok-done-recently', { status: 'REFUSED', source: 'webhook', at: iso(START - 60_000) });
      await create(s, 'tok-open', iso(START - 3600_000));

      const n = await s.expire({ finishedBefore: new Date(START - day), createdBefore: new Date(START - 2 * day) });
      assert.equal(n, 3);
      for (const gone of ['tok-old-open', 'tok-old-done', 'tok-done-long-ago']) assert.equal(await s.get(gone), null, `${gone} expired`);
      for (const kept of ['tok-done-recently', 'tok-open']) assert.ok(await s.get(kept), `${kept} kept`);
      assert.deepEqual(await s.listInProcess(), ['tok-open']);
      assert.equal(
        await s.expire({ finishedBefore: new Date(START - day), createdBefore: new Date(START - 2 * day) }),
        0,
        'a second sweep finds nothing',
      );

      // A token seen again after its record expired starts a fresh history.
      await create(s, 'tok-old-done', iso(START));
      assert.deepEqual(
        (await s.get('tok-old-done'))!.history.map((h) => h.source),
        ['creation'],
      );
    });
  });

  test('two writers on one onboarding: one terminal status wins, never regresses, repeats report unchanged', async () => {
    await withStore(async (a, { peer }) => {
      const b = await peer();
      const tokens = Array.from({ length: 12 }, (_, i) => `tok-race-${i}`);
      for (const t of tokens) await create(a, t);
      const heardByA: string[] = [];
      const offs = tokens.map((t) => a.subscribe(t, (r) => heardByA.push(`${t}:${r.status}`)));

      const attempts = tokens.flatMap((t) => [
        ...Array.from({ length: 4 }, () =>
          a.applyStatus(t, { status: 'APPROVED', source: 'webhook' }).then((r) => ({ t, writer: 'a', r })),
        ),
        ...Array.from({ length: 4 }, () => b.applyStatus(t, { status: 'REFUSED', source: 'poll' }).then((r) => ({ t, writer: 'b', r }))),
        b.applyStatus(t, { status: 'IN_PROCESS', source: 'poll' }).then((r) => ({ t, writer: 'b', r })),
      ]);
      const results = await Promise.all(attempts);
      for (const t of tokens) {
        const mine = results.filter((x) => x.t === t);
        const winners = mine.filter((x) => x.r!.changed);
        assert.equal(winners.length, 1, `${t}: exactly one update changed the status`);
        const final = winners[0]!.r!.record.status;
        assert.equal(final, winners[0]!.writer === 'a' ? 'APPROVED' : 'REFUSED');
        const [fromA, fromB] = [await a.get(t), await b.get(t)];
        assert.equal(fromA!.status, final);
        assert.deepEqual(fromA, fromB, `${t}: both instances read the same record`);
        assert.deepEqual(
          fromA!.history.map((h) => h.status),
          ['IN_PROCESS', final],
        );
        for (const later of ['APPROVED', 'REFUSED', 'ERROR', 'IN_PROCESS'] as const) {
          const again = (await (later === 'REFUSED' ? b : a).applyStatus(t, { status: later, source: 'poll' }))!;
          assert.equal(again.changed, false);
          assert.equal(again.record.status, final);
        }
      }
      // A heard each change once, including those B won (for a peer on the same feed, at once; for a shared store, by pub/sub).
      await eventually(() => heardByA.length >= tokens.length);
      assert.equal(new Set(heardByA).size, heardByA.length, 'no change heard twice');
      assert.deepEqual(heardByA.map((h) => h.split(':')[0]).sort(), [...tokens].sort());
      offs.forEach((off) => off());
    });
  });
}
