/**
 * The one test suite every store passes: `describeStore(name, factory)` from each
 * store-<kind>.test.ts. Anything the companion relies on a store for is asserted here, so a store
 * that passes is a drop-in replacement for the others.
 */
import { describe } from 'node:test';
import { describeRuleTables } from './store-conformance-tables.js';
import { describeAttestedHashes } from './store-conformance/attested-hashes.js';
import { describeDataAtRest } from './store-conformance/data-at-rest.js';
import { describeDevicesAndHandoff } from './store-conformance/devices-and-handoff.js';
import { harness, type StoreFactory } from './store-conformance/harness.js';
import { describeIdempotencyKeys } from './store-conformance/idempotency.js';
import { describeLeasesAndRates } from './store-conformance/leases-and-rates.js';
import { describeLifecycle } from './store-conformance/lifecycle.js';
import { describeOnboardingSessions } from './store-conformance/onboarding-sessions.js';
import { describeOnboardings } from './store-conformance/onboardings.js';
import { describeOutbox } from './store-conformance/outbox.js';
import { describeQueryRequests } from './store-conformance/query-requests.js';
import { describeRetention } from './store-conformance/retention.js';
import { describeSessions } from './store-conformance/sessions.js';
import { describeSessionChecks } from './store-conformance/session-checks.js';

export { eventually } from './store-conformance/harness.js';

export interface ConformanceOptions {
  /**
   * Leases and rate windows follow the store server's own clock (Redis TTLs): the suite then
   * uses short TTLs and waits them out, with wide margins and no upper bound on elapsed time.
   */
  serverClock?: boolean;
}

export function describeStore(name: string, factory: StoreFactory, options: ConformanceOptions = {}): void {
  const serverClock = options.serverClock ?? false;
  const h = harness(name, factory, serverClock);

  describe(`${name} store`, () => {
    describeOnboardings(h);
    describeLeasesAndRates(h);
  });

  describeRuleTables(name, h.withStore, serverClock);

  describe(`${name} store: the backend's state`, () => {
    describeSessions(h);
    describeIdempotencyKeys(h);
    describeAttestedHashes(h);
    describeOnboardingSessions(h);
    describeOutbox(h);
    describeQueryRequests(h);
    describeDevicesAndHandoff(h);
    describeRetention(h);
    describeDataAtRest(h);
    describeLifecycle(h);
    describeSessionChecks(h);
  });
}
