/**
 * Texts that must say what the rules do (issue 31, "Hints and checks agree"), over real sockets:
 * - `/h`: the short code's error sits under the field it is about (between the input and the
 *   button, named by the input's aria-describedby), not under the button;
 * - a person's name with digits ("Maria 123") is refused by the companion as the element's
 *   message says (letters, spaces and common marks only), for a creation and for a session alike.
 */
import { test, after, before } from 'node:test';
import assert from 'node:assert/strict';
import { body, companionOn, create, startStack, type Stack } from '@onboarding-kit/testing/stack';
import { listen } from '@onboarding-kit/server';

const KEY = 'sk_test_names_0123456789abcdef0123456789';
let stack: Stack;
let companion: Awaited<ReturnType<typeof listen>>;
before(async () => {
  stack = await startStack();
  const { app } = companionOn(stack, { apiKeys: [KEY], publicUrl: 'https://kyc.example' });
  companion = await listen((req) => app.fetch(req), { port: 0 });
});
after(async () => {
  await companion.close();
  await stack.close();
});

test('/h: the code error sits right under the field, which names it in aria-describedby', async () => {
  const res = await fetch(`${companion.url}/h`, { headers: { 'accept-language': 'pt-BR' } });
  assert.equal(res.status, 200);
  const html = await res.text();
  const form = /<form id="okit-code-form"[\s\S]*?<\/form>/.exec(html)?.[0] ?? '';
  const input = form.indexOf('<input');
  const message = form.indexOf('id="okit-code-message"');
  const button = form.indexOf('<button');
  assert.ok(input >= 0 && message >= 0 && button >= 0, form);
  assert.ok(input < message && message < button, 'the message comes after the field and before the button');
  // Nothing but the message between the field and it: it reads as the field's own error.
  assert.match(form, /<input [^>]*>\s*<p class="okit-message" id="okit-code-message" role="alert"><\/p>/);
  assert.match(/<input [^>]*>/.exec(form)![0], /aria-describedby="okit-code-hint okit-code-message"/);
});

test('a name with digits is refused as its message says: creation and session alike', async () => {
  const refused = await create(stack.url, body(undefined, { name: 'Maria 123' }));
  assert.equal(refused.status, 400);
  const error = ((await refused.json()) as { error: { code: string; field: string } }).error;
  assert.deepEqual([error.code, error.field], ['invalid_field', 'name']);
  const accepted = await create(stack.url, body(undefined, { name: "Maria d'Ávila-Souza Jr." }));
  assert.equal(accepted.status, 201, await accepted.clone().text());

  const session = (name: string) =>
    fetch(`${companion.url}/v1/sessions`, {
      method: 'POST',
      headers: { authorization: `Bearer ${KEY}`, 'content-type': 'application/json' },
      body: JSON.stringify({ reference: 'user-names', cpf: '529.982.247-25', name }),
    });
  const bad = await session('Maria 123');
  assert.equal(bad.status, 400);
  assert.equal(((await bad.json()) as { error: { field: string } }).error.field, 'name');
  assert.equal((await session('José da Silva')).status, 201);
});
