import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { getToken, postJson, sleep, webhookReceiver, type Json } from './helpers.js';

const packageDir = fileURLToPath(new URL('..', import.meta.url));

test('cli: reads its environment, prints its URL (never the secret), stops cleanly on SIGTERM', async () => {
  const hook = await webhookReceiver();
  const child = spawn(process.execPath, ['--conditions=source', '--import', 'tsx', 'src/cli.ts'], {
    cwd: packageDir,
    env: {
      ...process.env,
      PORT: '0',
      HOST: '127.0.0.1',
      SANDBOX_CLIENT: 'cli-client',
      SANDBOX_SECRET: 'cli-secret-do-not-print',
      SANDBOX_WEBHOOK_URL: hook.url,
      SANDBOX_WEBHOOK_KEY: 'cli-webhook-key',
      SANDBOX_PROCESSING_MS: '30',
      SANDBOX_TOKEN_TTL_S: '7',
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  child.stdout.on('data', (c: Buffer) => (output += c.toString()));
  child.stderr.on('data', (c: Buffer) => (output += c.toString()));
  const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
  try {
    // A deadline against a hang (tsx compiles on start, slowly on a loaded machine), not a speed check.
    const deadline = Date.now() + 60_000;
    while (!/listening on (http:\/\/\S+)/.test(output) && Date.now() < deadline) await sleep(50);
    const url = /listening on (http:\/\/\S+)/.exec(output)?.[1];
    assert.ok(url, `no URL printed: ${output}`);
    const f = (path: string, init?: RequestInit) => fetch(url + path, init);

    const res = await postJson(f, '/api/token-generate', { client: 'cli-client', secret: 'cli-secret-do-not-print' });
    assert.equal(((await res.json()) as Json).expires_in, 7);
    await assert.rejects(getToken(f), /401/, 'the default credentials are replaced');
    const token = await getToken(f, 'cli-client', 'cli-secret-do-not-print');
    const created = (await (await postJson(f, '/api/token-history-onboarding', { cpf: '529.982.247-25' }, token)).json()) as Json;
    const [delivery] = await hook.waitFor(1);
    assert.equal(delivery!.body.tokenOnboarding, created.tokenOnboarding);
    assert.equal(delivery!.headers['id-service-token'], 'cli-webhook-key');

    child.kill('SIGTERM');
    assert.equal(await exited, 0);
    for (const secret of ['cli-secret-do-not-print', 'cli-webhook-key', token]) assert.equal(output.includes(secret), false);
  } finally {
    child.kill('SIGKILL');
    await hook.close();
  }
});
