/**
 * When an open session's expiry is noticed and told to the backend: every figure the docs give
 * for it is the sweep's interval (config/defaults.ts), and no other wording of it is left.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { SESSION_SWEEP_EVERY_MS } from '../src/config/defaults.js';

const read = (path: string) => readFileSync(new URL(`../../../${path}`, import.meta.url), 'utf8').replace(/\s+/g, ' ');
const DOCS = ['README.md', 'docs/backend-api.md', 'docs/page-api.md', 'docs/hosted-page.md', 'packages/server/README.md'];

test('the docs say the sweep that expires open sessions runs every 15 s, and session.expired leaves within 15 s', () => {
  const backend = read('docs/backend-api.md');
  const figures = [
    ...backend.matchAll(/A sweep every (\d+) s marks it and sends `session\.expired`/g),
    ...backend.matchAll(/sent within (\d+) s of `expiresAt`: a sweep every (\d+) s finds it/g),
    ...backend.matchAll(/the event leaves within (\d+) s of `expiresAt`/g),
  ].flatMap((m) => m.slice(1).map(Number));
  assert.ok(figures.length >= 4, 'a sentence was rephrased: keep this test with it');
  for (const figure of figures) assert.equal(figure * 1000, SESSION_SWEEP_EVERY_MS);
  for (const doc of DOCS) assert.doesNotMatch(read(doc), /session\.expired[^|.]*within a minute/, doc);
});
