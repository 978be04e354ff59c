import { test } from 'node:test';
import assert from 'node:assert/strict';
import { IT_API_KEY, startStack } from '@onboarding-kit/testing/stack';
import { withDeadline } from '@onboarding-kit/testing/deadline';

test('a namespace put offline: its open stream loses its connection, its new requests get a network error, other namespaces go on; back online it answers again', async (t) => {
  const stack = await startStack({ record: true, companion: { apiKeys: [IT_API_KEY] } });
  t.after(() => stack.close());
  const opened = await fetch(`${stack.url}/v1/sessions`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', authorization: `Bearer ${IT_API_KEY}` },
    body: JSON.stringify({ reference: 'offline-test' }),
  });
  assert.equal(opened.status, 201);
  const { clientSecret } = (await opened.json()) as { clientSecret: string };
  const auth = { authorization: `Bearer ${clientSecret}` };
  const offline = (ns: string, value: boolean) =>
    fetch(`${stack.url}/__stack/offline/${ns}`, {
      method: 'PUT',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ offline: value }),
    }).then((r) => r.json());

  const stream = await fetch(`${stack.url}/t/cut/v1/session/events`, { headers: auth });
  assert.equal(stream.status, 200);
  const reader = stream.body!.getReader();
  await withDeadline(reader.read(), 'the first bytes of the stream');

  assert.deepEqual(await offline('cut', true), { offline: true });
  // The open stream ends in an error, as a dropped connection does (not a clean end).
  await assert.rejects(
    withDeadline(
      (async () => {
        for (;;) if ((await reader.read()).done) return;
      })(),
      'the stream to be cut',
    ),
  );
  await assert.rejects(fetch(`${stack.url}/t/cut/v1/session`, { headers: auth }), TypeError);
  assert.equal((await fetch(`${stack.url}/t/other/v1/session`, { headers: auth })).status, 200);

  assert.deepEqual(await offline('cut', false), { offline: false });
  assert.equal((await fetch(`${stack.url}/t/cut/v1/session`, { headers: auth })).status, 200);
});
