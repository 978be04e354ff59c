/** What the conformance suite's parts share: the test clock, a fresh store per test, the backend view of it and record fixtures. */
import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import type { BackendState, OutboxEntry, SessionRecord } from '../../src/store/backend-state.js';
import type { OnboardingRecord, Store } from '../../src/store/store.js';

/** A clock the test moves by hand. With `serverClock`, moving it also waits as long in real time. */
export interface TestClock {
  now(): number;
  advance(ms: number): Promise<void>;
}

/** What a store of the suite is opened with, besides its clock. */
export interface FixtureOptions {
  /** The store's `dataKey` (`ONBOARDING_DATA_KEY`'s format). */
  dataKey?: string;
}

export interface StoreFixture {
  /** A store on fresh, empty state. */
  store: Store;
  /**
   * Another instance on the same state (another connection, client or process handle; the same
   * object where there is no other, unless `options` are given: then one on the same data).
   */
  openPeer(options?: FixtureOptions): Promise<Store>;
  /** Everything the state holds, as the backend holds it (the file's bytes, every key's values, the maps), as text. */
  rawState(): Promise<string>;
  /** Frees what the fixture holds (files, keys); stores are closed by the suite. */
  cleanup?(): Promise<void>;
}

export type StoreFactory = (clock: TestClock, options?: FixtureOptions) => Promise<StoreFixture>;

export const START = Date.parse('2030-01-01T00:00:00.000Z');

function testClock(serverClock: boolean): TestClock {
  let offset = 0;
  return {
    now: () => (serverClock ? Date.now() : START + offset),
    async advance(ms) {
      offset += ms;
      if (serverClock) await new Promise((r) => setTimeout(r, ms));
    },
  };
}

export const iso = (ms: number) => new Date(ms).toISOString();

type Backend = Store & BackendState;
type StoreBody = (
  s: Store,
  ctx: { clock: TestClock; peer: (options?: FixtureOptions) => Promise<Store>; rawState: () => Promise<string> },
) => Promise<void>;
type BackendBody = (
  s: Backend,
  ctx: { clock: TestClock; peer: (options?: FixtureOptions) => Promise<Backend>; rawState: () => Promise<string> },
) => Promise<void>;

/** One store kind under test, as each part of the suite receives it. */
export interface Harness {
  /** Runs `body` with a fresh store and its clock; closes every store opened, whatever happens. */
  withStore(body: StoreBody, options?: FixtureOptions): Promise<void>;
  /** `withStore`, with the store as the backend's routes use it. */
  withBackend(body: BackendBody, options?: FixtureOptions): Promise<void>;
  /** Leases and rate windows follow the store server's own clock (see ConformanceOptions). */
  serverClock: boolean;
}

const BACKEND_METHODS: Array<keyof BackendState> = [
  'createSession',
  'getSession',
  'findSessionBySecret',
  'addSessionSecret',
  'replaceSession',
  'listSessionsByReference',
  'listSessionsByStatus',
  'reserveIdempotencyKey',
  'attestHashes',
  'completeIdempotencyKey',
  'releaseIdempotencyKey',
  'addAccessKey',
  'enqueueNotification',
  'dueNotifications',
  'updateNotification',
  'getNotification',
  'listNotifications',
  'purgeBackendState',
  'subscribeSession',
  'putHandoffKey',
  'findHandoffSession',
  'insertQueryRequest',
  'getQueryRequest',
  'findQueryRequestByKey',
  'finishQueryRequest',
  'rescheduleQueryRequest',
  'dueQueryRequests',
  'purgeQueryRequests',
  'listSessions',
  'revokeSessionAccess',
  'redactNotification',
];

export function harness(name: string, factory: StoreFactory, serverClock: boolean): Harness {
  async function withStore(body: StoreBody, options?: FixtureOptions): Promise<void> {
    const clock = testClock(serverClock);
    const fixture = await factory(clock, options);
    const opened = new Set<Store>([fixture.store]);
    const peer = async (peerOptions?: FixtureOptions) => {
      const p = await fixture.openPeer(peerOptions);
      opened.add(p);
      return p;
    };
    try {
      await body(fixture.store, { clock, peer, rawState: () => fixture.rawState() });
    } finally {
      for (const s of opened) await s.close?.();
      await fixture.cleanup?.();
    }
  }

  /** The store as the backend's routes use it; one without the backend's part fails here, naming what it lacks. */
  function backend(s: Store): Backend {
    for (const m of BACKEND_METHODS) assert.equal(typeof (s as Partial<Backend>)[m], 'function', `the ${name} store has BackendState.${m}`);
    return s as Backend;
  }

  return {
    withStore,
    withBackend: (body, options) =>
      withStore(
        (s, { clock, peer, rawState }) => body(backend(s), { clock, peer: async (o) => backend(await peer(o)), rawState }),
        options,
      ),
    serverClock,
  };
}

export const create = (s: Store, token: string, createdAt = iso(START), over: Partial<OnboardingRecord> = {}) =>
  s.create({ tokenOnboarding: token, status: 'IN_PROCESS', createdAt, accessKeyHash: `hash-${token}`, ...over });

export const sha = (text: string) => createHash('sha256').update(text).digest('hex');
export const session = (id: string, over: Partial<SessionRecord> = {}): SessionRecord => ({
  id,
  version: 1,
  reference: 'user-8812',
  status: 'open',
  createdAt: iso(START),
  expiresAt: iso(START + 1800_000),
  documentTypes: [],
  locale: 'pt-BR',
  metadata: {},
  ...over,
});
export const secretsOf = (id: string) => ({ client: sha(`client-${id}`), capture: sha(`capture-${id}`) });
export const entry = (id: string, over: Partial<OutboxEntry> = {}): OutboxEntry => ({
  id,
  type: 'session.completed',
  body: JSON.stringify({ id, type: 'session.completed', data: { n: 1 } }),
  orderKey: 'ses_1',
  createdAt: iso(START),
  state: 'pending',
  attempts: 0,
  nextAttemptMs: START,
  ...over,
});
export const ids = (list: Array<{ id: string }>) => list.map((x) => x.id);

/** Waits for `condition`, polling; fails only after a wide margin, so a slow machine is not a failure. */
export async function eventually(condition: () => boolean | Promise<boolean>, timeoutMs = 10_000): Promise<void> {
  const end = Date.now() + timeoutMs;
  while (!(await condition())) {
    if (Date.now() > end) throw new Error(`condition not met within ${timeoutMs} ms`);
    await new Promise((r) => setTimeout(r, 10));
  }
}
