/**
 * ONBOARDING_EVENTS is the one list of the element's event names: each name has its event
 * class and each class's name is listed, and the list's own module loads nothing else, so a
 * page can import it without the element.
 */
import test from 'node:test';
import assert from 'node:assert/strict';
import { readFile } from 'node:fs/promises';

type EventClass = (new (detail: never) => CustomEvent) & { eventName: string };

test('every listed name has its event class, and every event class is listed', async () => {
  const element = await import('@onboarding-kit/element');
  const classes = (Object.values(element) as unknown[]).filter(
    (value): value is EventClass => typeof value === 'function' && typeof (value as { eventName?: unknown }).eventName === 'string',
  );
  assert.equal(new Set(element.ONBOARDING_EVENTS).size, element.ONBOARDING_EVENTS.length, 'no name twice');
  assert.deepEqual(classes.map((c) => c.eventName).sort(), [...element.ONBOARDING_EVENTS].sort());
  for (const EventClass of classes) {
    const event = new EventClass({} as never);
    assert.equal(event.type, EventClass.eventName);
    assert.ok(event.bubbles && event.composed, `${event.type} bubbles out of the shadow root`);
  }
});

test('the names module is the same list and imports nothing', async () => {
  const { ONBOARDING_EVENTS } = await import('@onboarding-kit/element/event-names');
  const element = await import('@onboarding-kit/element');
  assert.equal(ONBOARDING_EVENTS, element.ONBOARDING_EVENTS);
  assert.ok(
    ONBOARDING_EVENTS.every((name) => /^onboarding-[a-z]+(-[a-z]+)*$/.test(name)),
    ONBOARDING_EVENTS.join(),
  );
  const source = await readFile(new URL('../src/event-names.ts', import.meta.url), 'utf8');
  assert.doesNotMatch(source, /^\s*(import|export \* from|export \{[^}]*\} from)/m);
});
