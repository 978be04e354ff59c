/**
 * Whose fault a lazily loaded file that did not arrive is (src/lazy/load-failure.ts): the
 * person's connection, or the page that does not serve it; and the console line that names it.
 */
import test from 'node:test';
import assert from 'node:assert/strict';
import { classifyLoadFailure, HOSTING_MANIFEST, missingFileAdvice } from '../src/lazy/load-failure.js';

const FILE = 'https://shop.example/kit/onboarding-flow.photo-steps.js';
const answers = (status: number, type: string) => async () => new Response('', { status, headers: type ? { 'content-type': type } : {} });
const unreachable = async (): Promise<never> => {
  throw new TypeError('Failed to fetch');
};

test('offline whenever the browser says so, whatever the file would answer', async () => {
  assert.equal(await classifyLoadFailure(FILE, false, answers(404, 'text/html')), 'offline');
  assert.equal(await classifyLoadFailure(undefined, false, answers(404, 'text/html')), 'offline');
});

test('asked again: a 404 or an HTML page in its place is missing', async () => {
  assert.equal(await classifyLoadFailure(FILE, true, answers(404, 'text/plain')), 'missing');
  assert.equal(await classifyLoadFailure(FILE, true, answers(403, 'text/javascript')), 'missing');
  assert.equal(await classifyLoadFailure(FILE, true, answers(200, 'text/html; charset=utf-8')), 'missing');
  assert.equal(await classifyLoadFailure(FILE, true, answers(200, '')), 'missing');
});

test('asked again: no answer is the connection, JavaScript was a blip on the way', async () => {
  assert.equal(await classifyLoadFailure(FILE, true, unreachable), 'offline');
  assert.equal(await classifyLoadFailure(FILE, true, answers(200, 'text/javascript; charset=utf-8')), 'offline');
  assert.equal(await classifyLoadFailure(FILE, true, answers(200, 'application/javascript')), 'offline');
});

test('no fetch of the file on record to ask again: online, the page is the likelier fault', async () => {
  assert.equal(await classifyLoadFailure(undefined, true, unreachable), 'missing');
});

test('the console line names the file and the manifest', () => {
  const line = missingFileAdvice(FILE);
  assert.ok(line.includes(FILE), line);
  assert.ok(line.includes(HOSTING_MANIFEST), line);
});
