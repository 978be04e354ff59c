/**
 * A session's life at the backend's request: the listing of `GET /v1/sessions` (order, filters,
 * a cursor that holds under inserts) and what a redaction asks of a store (secrets and hand-off
 * keys revoked, notification bodies and the onboarding rewritten, nothing left behind in the
 * stored state).
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { SessionQuery, SessionRecord } from '../../src/store/backend-state.js';
import { redactedEventBody, redactedOnboarding, redactedSession } from '../../src/store/rules/redaction.js';
import { positionOf } from '../../src/store/rules/session-list.js';
import { START, create, entry, ids, iso, secretsOf, session, sha, type Harness } from './harness.js';

const hex = (n: number) => n.toString(16).padStart(32, '0');
const sid = (n: number) => `ses_${hex(n)}`;

export function describeLifecycle({ withBackend }: Harness): void {
  test('listing: newest first, one millisecond by id; filters by reference, status and creation time; every instance alike', async () => {
    await withBackend(async (a, { peer }) => {
      const b = await peer();
      // Three sessions share a millisecond, created out of id order.
      const plan: Array<[number, number, string, SessionRecord['status']]> = [
        [1, 0, 'ref-a', 'open'],
        [2, 1_000, 'ref-b', 'completed'],
        [5, 2_000, 'ref-a', 'open'],
        [3, 2_000, 'ref-a', 'expired'],
        [4, 2_000, 'ref-b', 'open'],
        [6, 3_000, 'ref-a', 'cancelled'],
      ];
      for (const [n, at, reference, status] of plan)
        await a.createSession(session(sid(n), { reference, status, createdAt: iso(START + at) }), secretsOf(sid(n)));
      const list = async (q: Partial<SessionQuery>) => ids(await b.listSessions({ limit: 100, ...q }));
      assert.deepEqual(await list({}), [sid(6), sid(5), sid(4), sid(3), sid(2), sid(1)]);
      assert.deepEqual(await list({ reference: 'ref-a' }), [sid(6), sid(5), sid(3), sid(1)]);
      assert.deepEqual(await list({ status: 'open' }), [sid(5), sid(4), sid(1)]);
      assert.deepEqual(await list({ reference: 'ref-a', status: 'open' }), [sid(5), sid(1)]);
      assert.deepEqual(await list({ status: 'cancelled' }), [sid(6)]);
      assert.deepEqual(
        await list({ createdAfterMs: START, createdBeforeMs: START + 3_000 }),
        [sid(5), sid(4), sid(3), sid(2)],
        'both bounds exclusive',
      );
      assert.deepEqual(await list({ reference: 'ref-a', createdAfterMs: START + 1_000, createdBeforeMs: START + 3_000 }), [sid(5), sid(3)]);
      assert.deepEqual(await list({ createdBeforeMs: START }), []);
      assert.deepEqual(await list({ reference: 'nobody' }), []);
      assert.deepEqual(await list({ limit: 2 }), [sid(6), sid(5)]);
      assert.deepEqual(await list({ reference: 'ref-b', limit: 1 }), [sid(4)]);
      assert.deepEqual(await b.listSessions({ limit: 0 }), []);
      const read = (await a.listSessions({ limit: 1, reference: 'ref-b' }))[0]!;
      assert.deepEqual(read, session(sid(4), { reference: 'ref-b', createdAt: iso(START + 2_000) }), 'the sessions as stored');
    });
  });

  test('listing by id prefix (a support code read back): only the ids that start with it, with the other filters, every instance alike', async () => {
    await withBackend(async (a, { peer }) => {
      const b = await peer();
      const withStart = (start: string, n: number) => `ses_${start}${n.toString(16).padStart(32 - start.length, '0')}`;
      const plan: Array<[string, number, string]> = [
        [withStart('abcdef0123', 1), 0, 'ref-a'],
        [withStart('abcdef0123', 2), 1_000, 'ref-b'],
        [withStart('abcdef0124', 3), 2_000, 'ref-a'],
        [withStart('abcdef012', 4), 3_000, 'ref-a'],
      ];
      for (const [id, at, reference] of plan) await a.createSession(session(id, { reference, createdAt: iso(START + at) }), secretsOf(id));
      const list = async (q: Partial<SessionQuery>) => ids(await b.listSessions({ limit: 100, ...q }));
      assert.deepEqual(await list({ idPrefix: 'ses_abcdef0123' }), [plan[1]![0], plan[0]![0]]);
      assert.deepEqual(await list({ idPrefix: 'ses_abcdef0123', reference: 'ref-a' }), [plan[0]![0]]);
      assert.deepEqual(await list({ idPrefix: 'ses_abcdef0124' }), [plan[2]![0]]);
      assert.deepEqual(await list({ idPrefix: 'ses_abcdef0125' }), []);
    });
  });

  test('listing: page after page by the last position, none missed or repeated while sessions are inserted and changed meanwhile', async () => {
    await withBackend(async (a, { peer, clock }) => {
      const b = await peer();
      let n = 0;
      const referenceOf = new Map<string, string>();
      const add = async (reference: string) => {
        n++;
        referenceOf.set(sid(n), reference);
        await a.createSession(session(sid(n), { reference, createdAt: iso(clock.now()) }), secretsOf(sid(n)));
        if (n % 3 === 0) await clock.advance(1);
      };
      for (let i = 0; i < 25; i++) await add(i % 2 === 0 ? 'ref-even' : 'ref-odd');
      for (const query of [{}, { reference: 'ref-even' }, { status: 'open' as const }]) {
        const before = ids(await a.listSessions({ limit: 1_000 }));
        const seen: string[] = [];
        let after: SessionQuery['after'];
        for (let page = 0; page < 50; page++) {
          const got = await b.listSessions({ ...query, limit: 4, ...(after && { after }) });
          seen.push(...ids(got));
          if (got.length < 4) break;
          after = positionOf(got[got.length - 1]!);
          // Newer sessions arrive while the pages are read, and an old one changes.
          await add('ref-even');
          const s = (await a.getSession(got[0]!.id))!;
          await a.replaceSession({ ...s, version: s.version + 1, metadata: { touched: 'yes' } }, s.version);
        }
        const expected = before.filter((id) => query.reference === undefined || referenceOf.get(id) === query.reference);
        assert.deepEqual(new Set(seen), new Set(expected), `${JSON.stringify(query)}: every session that existed before, once`);
        assert.equal(seen.length, expected.length, 'none repeated');
        assert.deepEqual(seen, [...seen].sort().reverse(), 'newest first throughout');
      }
    });
  });

  test('revoking a session: its secrets and hand-off keys open nothing, on every instance; the session and the others stay', async () => {
    await withBackend(async (a, { peer, clock }) => {
      const b = await peer();
      for (const id of ['ses_r1', 'ses_r2']) await a.createSession(session(id), secretsOf(id));
      await a.addSessionSecret('ses_r1', 'page', sha('page-r1'));
      await a.addSessionSecret('ses_r1', 'device', sha('device-r1'));
      assert.equal(await a.putHandoffKey(sha('code-r1'), 'ses_r1', clock.now() + 60_000), true);
      assert.equal(await a.putHandoffKey(sha('code-r2'), 'ses_r2', clock.now() + 60_000), true);
      await b.revokeSessionAccess('ses_r1');
      await b.revokeSessionAccess('ses_unknown');
      assert.equal(await a.findSessionBySecret('client', secretsOf('ses_r1').client), null);
      assert.equal(await a.findSessionBySecret('capture', secretsOf('ses_r1').capture), null);
      assert.equal(await a.findSessionBySecret('page', sha('page-r1')), null);
      assert.equal(await a.findSessionBySecret('device', sha('device-r1')), null);
      assert.equal(await a.findHandoffSession(sha('code-r1')), null);
      assert.equal((await a.getSession('ses_r1'))?.id, 'ses_r1', 'the session itself stays');
      assert.equal((await a.findSessionBySecret('client', secretsOf('ses_r2').client))?.id, 'ses_r2', 'another session keeps its secrets');
      assert.equal((await a.findHandoffSession(sha('code-r2')))?.id, 'ses_r2');
      assert.equal(await a.putHandoffKey(sha('code-r1'), 'ses_r2', clock.now() + 60_000), true, 'a revoked key holds no hash');
    });
  });

  test('redacting a notification: its body is rewritten, its state, tries and place in the queue are not', async () => {
    await withBackend(async (a, { peer }) => {
      const b = await peer();
      await a.enqueueNotification(entry('evt_r1', { body: '{"id":"evt_r1","data":{"metadata":{"email":"x@example.com"}}}' }));
      await a.enqueueNotification(entry('evt_r2', { createdAt: iso(START + 1) }));
      await a.updateNotification('evt_r1', {
        state: 'pending',
        attempts: 2,
        nextAttemptMs: START,
        lastAttemptAt: iso(START),
        lastError: 'HTTP 500',
      });
      const seen: string[] = [];
      assert.equal(
        await b.redactNotification('evt_r1', (e) => {
          seen.push(e.body);
          return '{"id":"evt_r1","data":null}';
        }),
        true,
      );
      assert.deepEqual(seen, ['{"id":"evt_r1","data":{"metadata":{"email":"x@example.com"}}}'], 'the redaction reads the body as queued');
      const got = (await a.getNotification('evt_r1'))!;
      assert.equal(got.body, '{"id":"evt_r1","data":null}');
      assert.equal(got.attempts, 2);
      assert.equal(got.lastError, 'HTTP 500');
      assert.deepEqual(ids(await a.dueNotifications(START + 10, 10)), ['evt_r1', 'evt_r2'], 'queue order unchanged');
      assert.equal(await b.redactNotification('evt_unknown', () => '{}'), false);
    });
  });

  test('redacting an onboarding: the record is replaced by what the rule leaves; an unknown token is false', async () => {
    await withBackend(async (a, { peer }) => {
      const b = await peer();
      await create(a, 'tok-red', iso(START), { externalId: 'ext-9', sessionId: 'ses_x', keptAnyway: { selfie: 'blur' } as never });
      await a.applyStatus('tok-red', { status: 'APPROVED', source: 'webhook', at: iso(START + 5) });
      const before = (await a.get('tok-red'))!;
      assert.equal(await b.redactOnboarding('tok-red', redactedOnboarding), true);
      assert.deepEqual(await a.get('tok-red'), redactedOnboarding(before));
      assert.equal((await a.get('tok-red'))!.externalId, undefined);
      assert.equal(await b.redactOnboarding('tok-none', redactedOnboarding), false);
    });
  });

  test('a redaction leaves no personal data in the stored state: the session, its onboarding, its notifications', async () => {
    await withBackend(async (a, { rawState }) => {
      const CPF = '52998224725';
      const NAME = 'Maria Aparecida Quaresma';
      const EMAIL = 'maria.quaresma@example.com';
      // The report's services member, opaque, may name the person too.
      const SERVICE_TRACE = 'services-trace-of-maria-quaresma';
      const full = session('ses_pd', {
        taxId: { kind: 'cpf', value: CPF },
        name: NAME,
        metadata: { email: EMAIL },
        returnUrl: `https://app.example/done?who=${EMAIL}`,
        tokenOnboarding: 'tok-pd',
        status: 'completed',
        outcome: { status: 'APPROVED', externalId: `ext-${EMAIL}`, at: iso(START) },
        reportServices: [{ name: 'SERVICE_FACEMATCH', detail: SERVICE_TRACE }],
      });
      await a.createSession(full, secretsOf('ses_pd'));
      await create(a, 'tok-pd', iso(START), { externalId: `ext-${EMAIL}`, sessionId: 'ses_pd' });
      const view = {
        id: 'ses_pd',
        reference: 'user-8812',
        status: 'completed',
        metadata: { email: EMAIL },
        returnUrl: full.returnUrl,
        onboarding: { tokenOnboarding: 'tok-pd', status: 'APPROVED', history: [], services: full.reportServices },
      };
      await a.enqueueNotification(
        entry('evt_pd', { orderKey: 'ses_pd', body: JSON.stringify({ id: 'evt_pd', type: 'session.completed', data: view }) }),
      );
      assert.ok((await rawState()).includes(EMAIL), 'the plain state holds the data before');
      assert.ok((await rawState()).includes(SERVICE_TRACE), "the plain state holds the report's services before");

      const current = (await a.getSession('ses_pd'))!;
      assert.equal(await a.replaceSession({ ...redactedSession(current, iso(START + 9)), version: 2 }, 1), true);
      await a.redactOnboarding('tok-pd', redactedOnboarding);
      await a.redactNotification('evt_pd', (e) => redactedEventBody(e, iso(START + 9)));
      await a.revokeSessionAccess('ses_pd');
      const raw = await rawState();
      for (const value of [CPF, NAME, EMAIL, SERVICE_TRACE])
        assert.equal(raw.includes(value), false, `${value} is gone from the stored state`);
      assert.equal((await a.getSession('ses_pd'))?.redactedAt, iso(START + 9));
      assert.equal((await a.getNotification('evt_pd'))?.state, 'pending', 'the notification still goes, redacted');
    });
  });
}
