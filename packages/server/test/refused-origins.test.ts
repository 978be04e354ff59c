/**
 * A CORS preflight from an origin the companion does not allow is warned of, naming the setting
 * (ONBOARDING_ALLOWED_ORIGINS, option allowedOrigins) and the origin: once per origin per
 * window, with a bounded memory of origins, and nothing secret in the line. Over a real socket.
 */
import test, { after, before } from 'node:test';
import assert from 'node:assert/strict';
import { serveCompanion, createJsonLogger, type ServedCompanion } from '@onboarding-kit/server';
import { FAKE_CLIENT, FAKE_SECRET, startFakeUpstream, type FakeUpstream } from './helpers/fake-upstream.js';
import { WEBHOOK_KEY } from './helpers/companion.js';
import { RefusedOrigins, REFUSED_ORIGIN_WINDOW_MS } from '../src/middleware/refused-origins.js';

const ALLOWED = 'https://shop.example';
const STRANGER = 'https://other.example';

let up: FakeUpstream;
let served: ServedCompanion;
const logs: string[] = [];
before(async () => {
  up = await startFakeUpstream();
  served = await serveCompanion({
    port: 0,
    baseUrl: up.url,
    client: FAKE_CLIENT,
    secret: FAKE_SECRET,
    webhookKey: WEBHOOK_KEY,
    allowedOrigins: [ALLOWED],
    logger: createJsonLogger({ sink: (line) => logs.push(line), level: 'debug' }),
  });
});
after(async () => {
  await served?.close();
  await up?.close();
});

function preflight(origin: string, path = '/v1/session'): Promise<Response> {
  return fetch(`${served.url}${path}`, {
    method: 'OPTIONS',
    headers: { origin, 'access-control-request-method': 'GET', 'access-control-request-headers': 'authorization' },
  });
}

const warnings = () =>
  logs.map((line) => JSON.parse(line) as { level: string; msg: string; origin?: string; path?: string }).filter((l) => l.level === 'warn');

test('a refused preflight: one warn line naming the variable, the option and the origin; again within the window: none', async () => {
  const answer = await preflight(STRANGER);
  assert.equal(answer.status, 204);
  assert.equal(answer.headers.get('access-control-allow-origin'), null);
  await preflight(STRANGER, '/v1/session/photos');
  await preflight(STRANGER);
  const told = warnings().filter((l) => l.origin === STRANGER);
  assert.equal(told.length, 1, JSON.stringify(told));
  const [line] = told;
  assert.match(line!.msg, /ONBOARDING_ALLOWED_ORIGINS/);
  assert.match(line!.msg, /allowedOrigins/);
  assert.ok(line!.msg.includes(STRANGER), line!.msg);
  assert.equal(line!.path, '/v1/session');
  const raw = logs.find((l) => l.includes(STRANGER))!;
  for (const secret of [FAKE_SECRET, WEBHOOK_KEY]) assert.ok(!raw.includes(secret), 'no secret in the line');
});

test('an allowed origin, and a preflight with no origin, are not warned of', async () => {
  const from = logs.length;
  const answer = await preflight(ALLOWED);
  assert.equal(answer.headers.get('access-control-allow-origin'), ALLOWED);
  await fetch(`${served.url}/v1/session`, { method: 'OPTIONS', headers: { 'access-control-request-method': 'GET' } });
  const after = logs.slice(from).map((line) => JSON.parse(line) as { level: string });
  assert.ok(after.length > 0, 'the requests were logged');
  assert.deepEqual(
    after.filter((l) => l.level === 'warn'),
    [],
  );
});

test('another refused origin gets its own line', async () => {
  await preflight('http://localhost:5173');
  assert.equal(warnings().filter((l) => l.origin === 'http://localhost:5173').length, 1);
});

test('once per origin per window, and a bounded memory of origins', () => {
  let now = 0;
  const refused = new RefusedOrigins({ remembered: 3, now: () => now });
  assert.equal(refused.shouldTell('https://a.example'), true);
  assert.equal(refused.shouldTell('https://a.example'), false);
  now += REFUSED_ORIGIN_WINDOW_MS - 1;
  assert.equal(refused.shouldTell('https://a.example'), false);
  now += 1;
  assert.equal(refused.shouldTell('https://a.example'), true);
  for (const o of ['https://b.example', 'https://c.example', 'https://d.example', 'https://e.example']) refused.shouldTell(o);
  assert.equal(refused.size, 3);
  // a was told longest ago: forgotten, so told again (which forgets b).
  assert.equal(refused.shouldTell('https://a.example'), true);
  assert.equal(refused.shouldTell('https://e.example'), false);
  assert.equal(refused.size, 3);
});
