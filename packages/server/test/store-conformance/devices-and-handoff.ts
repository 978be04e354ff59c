/** Device secrets, session change notices across instances, and the hand-off of a session to another device. */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { SessionService } from '../../src/sessions/session-service.js';
import { HandoffService } from '../../src/handoff/handoff-service.js';
import { holds } from '../../src/handoff/handoff-rules.js';
import { createJsonLogger } from '../../src/logger.js';
import type { BackendState } from '../../src/store/backend-state.js';
import { START, iso, sha, session, secretsOf, eventually, type Harness } from './harness.js';

/** The id of the session a hand-off key finds, or null. */
const handoffSessionId = async (store: Pick<BackendState, 'findHandoffSession'>, hash: string): Promise<string | null> =>
  (await store.findHandoffSession(hash))?.id ?? null;

export function describeDevicesAndHandoff({ withBackend, serverClock }: Harness): void {
  test('device secrets: of their own kind, found by every instance, deleted with their session', async () => {
    await withBackend(async (a, { peer }) => {
      const b = await peer();
      await a.createSession(session('ses_dev'), secretsOf('ses_dev'));
      assert.equal(await a.addSessionSecret('ses_dev', 'device', sha('device-1')), true);
      assert.equal((await b.findSessionBySecret('device', sha('device-1')))?.id, 'ses_dev');
      assert.equal(await b.findSessionBySecret('client', sha('device-1')), null, 'a device secret is no client secret');
      assert.equal(await b.findSessionBySecret('device', secretsOf('ses_dev').client), null, 'nor the other way round');
    });
  });

  test('hand-off keys: point at their session for every instance; a live key of another session is refused, a lapsed one taken over', async () => {
    await withBackend(async (a, { peer, clock }) => {
      const b = await peer();
      for (const id of ['ses_h1', 'ses_h2']) await a.createSession(session(id), secretsOf(id));
      const now = clock.now();
      assert.equal(await a.putHandoffKey(sha('code-1'), 'ses_h1', now + 60_000), true);
      assert.equal(await handoffSessionId(b, sha('code-1')), 'ses_h1');
      assert.deepEqual(
        await b.findHandoffSession(sha('code-1')),
        await b.getSession('ses_h1'),
        'the whole session, as getSession reads it',
      );
      assert.equal(await handoffSessionId(b, sha('never issued')), null);
      assert.equal(await handoffSessionId(b, 'code-1'), null, 'found by the hash, not by what was hashed');
      assert.equal(await b.putHandoffKey(sha('code-1'), 'ses_h2', now + 60_000), false, 'no two live keys alike');
      assert.equal(await handoffSessionId(a, sha('code-1')), 'ses_h1', 'and the first keeps it');
      assert.equal(await b.putHandoffKey(sha('code-1'), 'ses_h1', now + 120_000), true, 'its own session may renew it');
      assert.equal(await a.putHandoffKey(sha('code-x'), 'ses_unknown', now + 60_000), false, 'an unknown session gets none');
      assert.equal(await handoffSessionId(a, sha('code-x')), null);

      // Lapsed: still found (a late claim is told the link expired), until another session takes the hash.
      const short = serverClock ? 300 : 1_000;
      assert.equal(await a.putHandoffKey(sha('code-2'), 'ses_h1', clock.now() + short), true);
      await clock.advance(short + (serverClock ? 200 : 1));
      assert.equal(await handoffSessionId(b, sha('code-2')), 'ses_h1');
      assert.equal(await b.putHandoffKey(sha('code-2'), 'ses_h2', clock.now() + 60_000), true);
      assert.equal(await handoffSessionId(a, sha('code-2')), 'ses_h2');

      // Retention: keys go with their session.
      await a.replaceSession(
        { ...(await a.getSession('ses_h1'))!, version: 2, status: 'expired', endedAt: iso(START - 2 * 86_400_000) },
        1,
      );
      await b.purgeBackendState({
        sessionsEndedBefore: new Date(START - 86_400_000),
        sessionsCreatedBefore: new Date(START - 7 * 86_400_000),
        outboxBefore: new Date(0),
      });
      assert.equal(await handoffSessionId(a, sha('code-1')), null, 'deleted with its session');
      assert.equal(await handoffSessionId(a, sha('code-2')), 'ses_h2', "another session's stays");
    });
  });

  test('session changes are told to the listeners of that session on every instance, until they unsubscribe', async () => {
    await withBackend(async (a, { peer }) => {
      const b = await peer();
      for (const id of ['ses_w', 'ses_other']) await a.createSession(session(id), secretsOf(id));
      const heardByA: string[] = [];
      const heardByB: string[] = [];
      const offA = a.subscribeSession('ses_w', (id) => heardByA.push(id));
      const offB = b.subscribeSession('ses_w', (id) => heardByB.push(id));
      assert.equal(await a.replaceSession(session('ses_w', { version: 2, status: 'submitted' }), 1), true);
      await eventually(() => heardByA.length > 0 && heardByB.length > 0);
      assert.deepEqual([...new Set([...heardByA, ...heardByB])], ['ses_w']);
      assert.equal(await b.replaceSession(session('ses_w', { version: 2, status: 'expired' }), 1), false);
      assert.equal(await b.replaceSession(session('ses_other', { version: 2 }), 1), true);
      offA();
      offB();
      const [countA, countB] = [heardByA.length, heardByB.length];
      const marker: string[] = [];
      b.subscribeSession('ses_w', (id) => marker.push(id));
      assert.equal(await a.replaceSession(session('ses_w', { version: 3, status: 'completed' }), 2), true);
      await eventually(() => marker.length > 0);
      assert.deepEqual(
        [heardByA.length, heardByB.length],
        [countA, countB],
        'nothing after unsubscribing, nothing for another session or a lost write',
      );
    });
  });

  test('the hand-off over two instances: one claim wins, a new link replaces the old, a lapsed one is expired, reclaim revokes the device', async () => {
    await withBackend(async (a, { peer, clock }) => {
      const b = await peer();
      let offset = 0;
      const timers = {
        now: () => clock.now() + offset,
        setTimeout: (fn: () => void, ms: number) => setTimeout(fn, ms),
        clearTimeout: (h: unknown) => clearTimeout(h as never),
      };
      const logger = createJsonLogger({ sink: () => {} });
      const [sa, sb] = [a, b].map((store) => new SessionService({ store, timers, logger, publicUrl: 'https://kyc.example' }));
      const [ha, hb] = [sa!, sb!].map((sessions) => new HandoffService({ sessions, logger }));
      const { response } = await sa!.open(
        { reference: 'user-h', documentTypes: [], locale: 'pt-BR', expiresInS: 3600, metadata: {} },
        { fingerprint: 'f', origin: 'https://kyc.example' },
      );
      const origin = (await sb!.authenticatePage(response.clientSecret))!;
      assert.equal(origin.kind, 'client');
      assert.equal((await sa!.authenticatePage(new URL(response.url).pathname.slice('/capture/'.length)))?.kind, 'capture');

      const old = await ha!.offer(origin, 'https://x');
      const o = await hb!.offer(origin, 'https://x');
      await assert.rejects(ha!.claim({ code: old.code }), { code: 'handoff_invalid' }, 'the replaced link stops working');
      const tries = await Promise.allSettled(
        [ha!, hb!, ha!, hb!].map((h, i) => h.claim(i % 2 ? { token: o.url.split('/h/')[1]! } : { code: o.code })),
      );
      const won = tries.filter((t) => t.status === 'fulfilled');
      assert.equal(won.length, 1, 'one claim wins across instances');
      for (const t of tries) if (t.status === 'rejected') assert.equal((t.reason as { code: string }).code, 'handoff_used');
      const device = (await sa!.authenticatePage((won[0] as PromiseFulfilledResult<{ clientSecret: string }>).value.clientSecret))!;
      assert.equal(device.kind, 'device');
      assert.ok(holds(device.session, device) && !holds(device.session, origin));

      await hb!.reclaim(origin);
      const after = (await a.getSession(origin.session.id))!;
      assert.ok(holds(after, origin) && !holds(after, device), 'the origin holds it again, the device nothing');

      const lapsing = await ha!.offer({ ...origin, session: after }, 'https://x');
      offset += 600_000;
      await assert.rejects(hb!.claim({ token: lapsing.url.split('/h/')[1]! }), { code: 'handoff_expired' });
      const log = (await a.getSession(origin.session.id))!.events!.map((e) => e.event.type);
      assert.deepEqual(log, [
        'handoff.created',
        'handoff.created',
        'handoff.claimed',
        'handoff.reclaimed',
        'handoff.created',
        'handoff.expired',
      ]);
      assert.deepEqual(
        (await b.getSession(origin.session.id))!.events!.map((e) => e.seq),
        [1, 2, 3, 4, 5, 6],
      );
    });
  });
}
