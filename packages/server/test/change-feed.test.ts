/**
 * The in-process fan-out every store uses (store/core/change-feed.ts): each listener gets its own copy,
 * in order; a record no newer than the last one given is not given again (a shared store's
 * change channel and its catch-up read may both deliver it); unsubscribing the last listener
 * forgets the onboarding, and an unsubscribe called twice never removes someone else.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { ChangeFeed } from '../src/store/core/change-feed.js';
import type { OnboardingRecord, StatusEvent } from '../src/store/store.js';

const at = '2030-01-01T00:00:00.000Z';
function rec(token: string, statuses: StatusEvent['status'][]): OnboardingRecord {
  return {
    tokenOnboarding: token,
    status: statuses.at(-1)!,
    createdAt: at,
    updatedAt: at,
    accessKeyHash: 'h',
    history: statuses.map((status, i) => ({ status, at, source: i === 0 ? 'creation' : 'webhook' })),
  };
}

test('emitIfNewer gives a record only when its history is longer than the last one given', () => {
  const feed = new ChangeFeed();
  const heard: number[] = [];
  feed.subscribe('t', (r) => heard.push(r.history.length));
  feed.emitIfNewer(rec('t', ['IN_PROCESS']));
  feed.emitIfNewer(rec('t', ['IN_PROCESS', 'APPROVED']));
  feed.emitIfNewer(rec('t', ['IN_PROCESS', 'APPROVED']));
  feed.emitIfNewer(rec('t', ['IN_PROCESS']));
  assert.deepEqual(heard, [1, 2]);
  // A token created anew starts a new history.
  feed.forget('t');
  feed.emitIfNewer(rec('t', ['IN_PROCESS']));
  assert.deepEqual(heard, [1, 2, 1]);
});

test('nobody listening: nothing is remembered, so a later listener is given the first record it sees', () => {
  const feed = new ChangeFeed();
  feed.emitIfNewer(rec('t', ['IN_PROCESS', 'APPROVED']));
  const heard: number[] = [];
  feed.subscribe('t', (r) => heard.push(r.history.length));
  feed.emitIfNewer(rec('t', ['IN_PROCESS', 'APPROVED']));
  assert.deepEqual(heard, [2]);
});

test('the last unsubscribe forgets the onboarding: tokens() drops it, and what was given starts over', () => {
  const feed = new ChangeFeed();
  const offA = feed.subscribe('t', () => {});
  const offB = feed.subscribe('u', () => {});
  assert.deepEqual(feed.tokens().sort(), ['t', 'u']);
  feed.emit(rec('t', ['IN_PROCESS', 'APPROVED']));
  offA();
  assert.deepEqual(feed.tokens(), ['u']);
  const heard: number[] = [];
  feed.subscribe('t', (r) => heard.push(r.history.length));
  feed.emitIfNewer(rec('t', ['IN_PROCESS']));
  assert.deepEqual(heard, [1]);
  offB();
});

test('an unsubscribe called again after the onboarding was listened to anew removes nobody', () => {
  const feed = new ChangeFeed();
  const offOld = feed.subscribe('t', () => {});
  offOld();
  const heard: string[] = [];
  feed.subscribe('t', (r) => heard.push(r.status));
  offOld();
  feed.emit(rec('t', ['IN_PROCESS', 'REFUSED']));
  assert.deepEqual(heard, ['REFUSED']);
  assert.deepEqual(feed.tokens(), ['t']);
});

test('one of two listeners leaving keeps the other and the memory of what was given', () => {
  const feed = new ChangeFeed();
  const heard: number[] = [];
  const off = feed.subscribe('t', () => {});
  feed.subscribe('t', (r) => heard.push(r.history.length));
  feed.emit(rec('t', ['IN_PROCESS', 'APPROVED']));
  off();
  feed.emitIfNewer(rec('t', ['IN_PROCESS', 'APPROVED']));
  feed.emitIfNewer(rec('t', ['IN_PROCESS', 'APPROVED', 'REFUSED']));
  assert.deepEqual(heard, [2, 3]);
});

test('each listener gets its own copy, a throwing one does not stop the others; clear() forgets everyone', () => {
  const feed = new ChangeFeed();
  const got: OnboardingRecord[] = [];
  feed.subscribe('t', (r) => {
    r.history.push({ status: 'ERROR', at, source: 'poll' });
    throw new Error('broken subscriber');
  });
  feed.subscribe('t', (r) => got.push(r));
  const sent = rec('t', ['IN_PROCESS', 'APPROVED']);
  feed.emit(sent);
  assert.equal(got[0]!.history.length, 2);
  assert.notEqual(got[0], sent);
  assert.equal(sent.history.length, 2);
  feed.clear();
  assert.deepEqual(feed.tokens(), []);
  feed.emit(rec('t', ['IN_PROCESS', 'APPROVED', 'REFUSED']));
  assert.equal(got.length, 1);
});
