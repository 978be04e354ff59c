/**
 * What the docs promise about how long data is kept is what the companion does: each documented
 * figure is read from the docs and compared with the default it describes (config/defaults.ts,
 * the contract's limits). A figure changed on one side only fails here.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { HANDOFF_LIMITS, SESSION_LIMITS } from '@onboarding-kit/contract';
import { COMPANION_DEFAULTS, IDEMPOTENCY_TTL_MS, SESSION_MAX_AGE_MS } from '../src/config/defaults.js';

const HOUR_MS = 3_600_000;
/** A document's text with every run of white space as one space, so a sentence reads the same however it is wrapped. */
const read = (url: URL) => readFileSync(url, 'utf8').replace(/\s+/g, ' ');
const serverReadme = read(new URL('../README.md', import.meta.url));
const backend = read(new URL('../../../docs/backend-api.md', import.meta.url));
const page = read(new URL('../../../docs/page-api.md', import.meta.url));

/** Every figure `pattern` finds in `text` (its first group, in hours unless `unit` says otherwise); at least one. */
function figures(text: string, pattern: RegExp, where: string): number[] {
  const found = [...text.matchAll(new RegExp(pattern.source, 'g'))].map((m) => Number(m[1]));
  assert.ok(found.length > 0, `${where}: no sentence matches ${pattern} (rephrased? keep this test's pattern with it)`);
  return found;
}

function documents(text: string, pattern: RegExp, ms: number, where: string, unitMs = HOUR_MS): void {
  for (const figure of figures(text, pattern, where)) assert.equal(figure * unitMs, ms, `${where}: ${pattern} says ${figure}`);
}

test('retention: the docs and the defaults agree on how long each kind of data is kept', () => {
  const finished = COMPANION_DEFAULTS.retentionMs;
  const maxAge = COMPANION_DEFAULTS.maxAgeMs;

  // Notifications hold personal data: they settle for as long as sessions and onboardings, not a week.
  documents(backend, /Delivered and failed notifications are deleted (\d+) h after they settle/, finished, 'backend-api Retention');
  documents(backend, /Delivered and failed events are deleted (\d+) h after they settle/, finished, 'backend-api Notifications');
  documents(backend, /A failed event can be replayed for (\d+) h after it was given up/, finished, 'backend-api Retention');
  assert.doesNotMatch(backend + page + serverReadme, /\b7 days\b/, 'no other notification retention left in the docs');

  documents(backend, /Sessions are deleted (\d+) h after they end/, finished, 'backend-api Retention');
  documents(backend, /Standalone query requests keep their result (\d+) h after they end/, finished, 'backend-api Retention');
  documents(backend, /and are deleted (\d+) h after their creation/, maxAge, 'backend-api Retention');
  documents(backend, /erased (\d+) h after the request completed or failed/, finished, 'backend-api queries');
  documents(backend, /the request itself is deleted (\d+) h after its creation/, maxAge, 'backend-api queries');
  documents(backend, /any session (\d+) h after its creation/, SESSION_MAX_AGE_MS, 'backend-api Retention');
  documents(backend, /(\d+) h at most for a session/, SESSION_MAX_AGE_MS, 'backend-api Personal data at rest');
  documents(backend, /idempotency keys after (\d+) h/, IDEMPOTENCY_TTL_MS, 'backend-api Retention');
  documents(backend, /Keys are kept (\d+) h/, IDEMPOTENCY_TTL_MS, 'backend-api Idempotency');
  documents(backend, /deleted by retention \((\d+) h after its outcome\)/, finished, 'backend-api Sessions');
  documents(backend, /`retentionMs` \((\d+) h by default\)/, finished, 'backend-api Retention');

  documents(page, /forgets finished onboardings (\d+) h after their outcome/, finished, 'page-api');
  documents(page, /any onboarding (\d+) h after its creation/, maxAge, 'page-api');
  documents(page, /\| retention \| (\d+) h after the outcome/, finished, 'page-api limits table');
  documents(page, /\| retention \| \d+ h after the outcome, (\d+) h after creation at most/, maxAge, 'page-api limits table');
  documents(page, /keeps polling the upstream \((\d+) hours\)/, maxAge, 'page-api polling');

  documents(serverReadme, /\| `retentionMs` \| (\d+) h \|/, finished, 'server README options');
  documents(serverReadme, /\| `maxAgeMs` \| (\d+) h \|/, maxAge, 'server README options');
  documents(serverReadme, /until `retentionMs` \((\d+) h\) after its outcome/, finished, 'server README stores');
  documents(serverReadme, /never beyond `maxAgeMs` \((\d+) h\) after creation/, maxAge, 'server README stores');
});

test('retention: the docs and the contract agree on how long hand-off links and sessions live', () => {
  documents(page, /Both live (\d+) minutes \(`HANDOFF_LIMITS\.ttlS`/, HANDOFF_LIMITS.ttlS * 1000, 'page-api hand-off', 60_000);
  documents(backend, /\| `expiresIn` \| seconds, \d+ to (\d+), default/, SESSION_LIMITS.maxExpiresInS * 1000, 'backend-api sessions', 1000);
  documents(
    backend,
    /\| `expiresIn` \| seconds, \d+ to \d+, default (\d+) \|/,
    SESSION_LIMITS.defaultExpiresInS * 1000,
    'backend-api',
    1000,
  );
});
