/**
 * Docs that run: every code block of README.md, docs/*.md and the packages' READMEs is run
 * against one real companion on loopback (with the sandbox as its upstream), is a shape or an
 * output, or says why it cannot run alone; a block that is none of these fails
 * (helpers/doc-samples.ts holds the convention). Samples read `ONBOARDING_URL` (the companion),
 * `ONBOARDING_API_KEY`, `ONBOARDING_NOTIFY_SECRET`, `SESSION_ID` (an open session) and `PORT`
 * (where a server sample listens).
 */
import { after, before, describe, it, test } from 'node:test';
import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { signNotification } from '@onboarding-kit/server';
import { IT_API_KEY, IT_CLIENT, IT_SECRET, IT_WEBHOOK_KEY, SAMPLE_PNG_BASE64, startStack, type Stack } from './helpers/stack.js';
import { readConfig } from '../../demo/config.js';
import { classifyBlock, extractBlocks, isSampleDoc, type DocBlock, type SampleKind } from './helpers/doc-samples.js';
import { freePort, REPO_ROOT, runScript, runShell, sampleDir, startServer, type RunningSample } from './helpers/sample-runner.js';

const NOTIFY_SECRET = 'doc-samples-notify-secret-0123456789abcdef';
const ADMIN_KEY = 'doc-samples-admin-key-0123456789';
/** What the element sends to create an onboarding (docs/page-api.md), with the sandbox's test picture. */
const createBody = () => ({
  cpf: '529.982.247-25',
  name: 'Maria Silva',
  documentType: 'CNH',
  images: { documentFront: SAMPLE_PNG_BASE64, documentBack: SAMPLE_PNG_BASE64, selfie: SAMPLE_PNG_BASE64 },
});

function sampleDocs(): string[] {
  const found = ['README.md'];
  for (const name of readdirSync(`${REPO_ROOT}docs`)) found.push(`docs/${name}`);
  for (const pkg of readdirSync(`${REPO_ROOT}packages`)) {
    for (const name of readdirSync(`${REPO_ROOT}packages/${pkg}`)) found.push(`packages/${pkg}/${name}`);
  }
  return found.filter(isSampleDoc).sort();
}

const blocks: { block: DocBlock; sample: SampleKind }[] = sampleDocs().flatMap((file) =>
  extractBlocks(file, readFileSync(`${REPO_ROOT}${file}`, 'utf8')).map((block) => ({ block, sample: classifyBlock(block.info) })),
);
const where = (b: DocBlock) => `${b.file}:${b.line}`;

test('the extractor finds fenced blocks, indented ones too, and the classifier follows the info string', () => {
  const doc = [
    '# t',
    '```sh',
    'echo 1',
    '```',
    '- item',
    '  ```js receiver /hook',
    '  x();',
    '  ```',
    '````',
    'a',
    '```',
    '````',
    '```html no-run: markup',
    '<p>',
    '```',
  ].join('\n');
  const found = extractBlocks('README.md', doc);
  assert.deepEqual(
    found.map((b) => [b.line, b.info, b.code]),
    [
      [2, 'sh', 'echo 1'],
      [6, 'js receiver /hook', 'x();'],
      [9, '', 'a\n```'],
      [13, 'html no-run: markup', '<p>'],
    ],
  );
  assert.deepEqual(classifyBlock('json'), { kind: 'shape' });
  assert.deepEqual(classifyBlock('text'), { kind: 'shape' });
  assert.deepEqual(classifyBlock('bash'), { kind: 'shell' });
  assert.deepEqual(classifyBlock('ts'), { kind: 'script', lang: 'ts' });
  assert.deepEqual(classifyBlock('js receiver'), { kind: 'receiver', lang: 'js', path: '/' });
  assert.deepEqual(classifyBlock('ts server /v1/health'), { kind: 'server', lang: 'ts', path: '/v1/health' });
  assert.deepEqual(classifyBlock('sh server /v1/health'), { kind: 'server', lang: 'sh', path: '/v1/health' });
  assert.deepEqual(classifyBlock('tsx no-run: a JSX fragment'), { kind: 'no-run', reason: 'a JSX fragment' });
  for (const info of ['', 'html', 'tsx', 'vue', 'css', 'js no-run', 'js no-run:', 'js server', 'sh receiver', 'json no-run-ish', 'python'])
    assert.equal(classifyBlock(info).kind, 'unclassified', info);
});

test('every block of the docs is run, a shape or an output, or says why it is not run', () => {
  const unclassified = blocks.flatMap(({ block, sample }) => (sample.kind === 'unclassified' ? [`${where(block)}: ${sample.why}`] : []));
  assert.deepEqual(unclassified, []);
  const count = (kind: SampleKind['kind']) => blocks.filter((b) => b.sample.kind === kind).length;
  const run = count('shell') + count('script') + count('receiver') + count('server');
  const notRun = blocks.flatMap(({ block, sample }) =>
    sample.kind === 'no-run' ? [`  ${where(block)} (${block.info.split(/\s/)[0]}): ${sample.reason}`] : [],
  );
  // A block of npm commands alone is checked by scripts/doc-sample-npm.mjs, not run: counted apart.
  const npmOnly = blocks.filter(
    ({ block, sample }) =>
      sample.kind === 'shell' &&
      block.code
        .split('\n')
        .map((l) => l.replace(/#.*$/, '').trim())
        .filter(Boolean)
        .every((l) => /^([A-Z_]+=\S*\s+)*npm\s/.test(l)),
  ).length;
  process.stdout.write(
    `# doc samples: ${blocks.length} blocks in ${sampleDocs().length} documents; ${run} run (${count('shell')} shell, ${npmOnly} of them npm commands checked and not run; ${count('script')} scripts, ` +
      `${count('receiver')} receivers, ${count('server')} servers), ${count('shape')} shapes and outputs, ${notRun.length} not run:\n${notRun.map((l) => `# ${l}`).join('\n')}\n`,
  );
  assert.ok(run > 0);
});

// Three at a time: each sample is a process of its own, most of its time spent loading.
describe('the samples run against a real companion', { concurrency: 3 }, () => {
  let stack: Stack;
  let relay: Server;
  /** Where the companion's notifications go on from the relay: the receiver sample running now. */
  let target: string | undefined;
  const deliveries: { type: string; session: string | undefined; status: number }[] = [];

  before(async () => {
    relay = createServer((req, res) => {
      const chunks: Buffer[] = [];
      req.on('data', (c: Buffer) => chunks.push(c));
      req.on('end', () => {
        void (async () => {
          const body = Buffer.concat(chunks);
          const answer = target
            ? await fetch(target, {
                method: 'POST',
                headers: { 'content-type': 'application/json', 'onboarding-signature': String(req.headers['onboarding-signature']) },
                body,
              }).catch(() => undefined)
            : undefined;
          const status = answer?.status ?? 503;
          const event = JSON.parse(body.toString('utf8')) as { type: string; data?: { id?: string } };
          deliveries.push({ type: event.type, session: event.data?.id, status });
          res.writeHead(status).end();
        })();
      });
    });
    await new Promise<void>((resolve) => relay.listen(0, '127.0.0.1', resolve));
    stack = await startStack({
      companion: {
        apiKeys: [IT_API_KEY],
        adminKey: ADMIN_KEY,
        notify: { url: `http://127.0.0.1:${(relay.address() as AddressInfo).port}/`, secret: NOTIFY_SECRET },
      },
    });
  });

  after(async () => {
    for (const { cleanup } of shellDirs.values()) cleanup();
    await stack.close();
    relay.closeAllConnections();
    await new Promise((resolve) => relay.close(resolve));
  });

  const api = (path: string, init: RequestInit = {}) =>
    fetch(`${stack.url}${path}`, {
      ...init,
      headers: { authorization: `Bearer ${IT_API_KEY}`, 'content-type': 'application/json', ...init.headers },
    });

  async function openSession(): Promise<{ id: string; clientSecret: string }> {
    const res = await api('/v1/sessions', {
      method: 'POST',
      body: JSON.stringify({ reference: 'doc-sample', cpf: '529.982.247-25', name: 'Maria Silva' }),
    });
    assert.equal(res.status, 201);
    return (await res.json()) as { id: string; clientSecret: string };
  }

  /** An onboarding the sandbox decided (its report and PDF final), for the admin samples (`$TOKEN`). */
  let decided: Promise<string> | undefined;
  function decidedOnboarding(): Promise<string> {
    decided ??= (async () => {
      const res = await fetch(`${stack.url}/v1/onboardings`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify(createBody()),
      });
      assert.equal(res.status, 201);
      const { tokenOnboarding, accessKey } = (await res.json()) as { tokenOnboarding: string; accessKey: string };
      for (const deadline = Date.now() + 20_000; ; ) {
        const read = await fetch(`${stack.url}/v1/onboardings/${tokenOnboarding}`, { headers: { authorization: `Bearer ${accessKey}` } });
        const state = (await read.json()) as { status: string };
        if (state.status !== 'IN_PROCESS') return tokenOnboarding;
        assert.ok(Date.now() < deadline, `the onboarding was never decided: ${JSON.stringify(state)}`);
        await new Promise((r) => setTimeout(r, 100));
      }
    })();
    return decided;
  }

  async function envFor(port?: number): Promise<Record<string, string>> {
    const session = await openSession();
    return {
      // The packages' bins, as `npm install` puts them on an npm script's PATH.
      PATH: `${REPO_ROOT}node_modules/.bin:${process.env.PATH ?? '/usr/bin:/bin'}`,
      HOME: process.env.HOME ?? '/tmp',
      ONBOARDING_URL: stack.url,
      ONBOARDING_API_KEY: IT_API_KEY,
      ONBOARDING_NOTIFY_SECRET: NOTIFY_SECRET,
      SESSION_ID: session.id,
      ONBOARDING_ADMIN_KEY: ADMIN_KEY,
      TOKEN: await decidedOnboarding(),
      // A companion of the sample's own (packages/server/README.md's quick start) on the same sandbox.
      ONBOARDING_BASE_URL: stack.sandboxUrl,
      ONBOARDING_CLIENT: IT_CLIENT,
      ONBOARDING_SECRET: IT_SECRET,
      ONBOARDING_WEBHOOK_KEY: IT_WEBHOOK_KEY,
      ONBOARDING_API_KEYS: IT_API_KEY,
      ONBOARDING_NOTIFY_URL: `http://127.0.0.1:${(relay.address() as AddressInfo).port}/`,
      ...(port !== undefined && { PORT: String(port), HOST: '127.0.0.1', ONBOARDING_PUBLIC_URL: `http://127.0.0.1:${port}` }),
    };
  }

  const failure = (what: string, out: { code: number | null; stdout: string; stderr: string }) =>
    `${what} exited ${out.code}\n--- stdout\n${out.stdout.slice(-3000)}\n--- stderr\n${out.stderr.slice(-3000)}`;

  async function until<T>(what: string, probe: () => T | undefined, ms = 20_000): Promise<T> {
    const deadline = Date.now() + ms;
    for (;;) {
      const found = probe();
      if (found !== undefined) return found;
      if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
      await new Promise((r) => setTimeout(r, 50));
    }
  }

  /** One receiver at a time: the relay sends the companion's notifications to one. */
  let receiverTurn: Promise<unknown> = Promise.resolve();
  function exerciseReceiver(receiver: RunningSample, path: string): Promise<void> {
    const turn = receiverTurn.then(() => exerciseOne(receiver, path));
    receiverTurn = turn.catch(() => undefined);
    return turn;
  }

  /** A receiver answers the companion's real notifications 2xx, a bad signature 4xx, and 5xx when its handler throws, and lives on. */
  async function exerciseOne(receiver: RunningSample, path: string): Promise<void> {
    const url = receiver.url + path;
    target = url;
    try {
      const session = await openSession();
      const created = await fetch(`${stack.url}/v1/onboardings`, {
        method: 'POST',
        headers: { authorization: `Bearer ${session.clientSecret}`, 'content-type': 'application/json' },
        body: JSON.stringify(createBody()),
      });
      assert.equal(created.status, 201, await created.text());
      for (const type of ['session.submitted', 'session.completed']) {
        const answered = await until(`${type} delivered to the receiver`, () =>
          deliveries.find((d) => d.session === session.id && d.type === type && d.status >= 200 && d.status < 300),
        );
        assert.ok(answered, type);
      }
      const view = (await (await api(`/v1/sessions/${session.id}`)).json()) as Record<string, unknown>;
      const post = async (event: object, secret = NOTIFY_SECRET) => {
        const body = JSON.stringify(event);
        const signature = await signNotification(body, [secret], Math.floor(Date.now() / 1000));
        const headers = { 'content-type': 'application/json', 'onboarding-signature': signature };
        // 0: no answer at all (the process died).
        return (await fetch(url, { method: 'POST', headers, body }).catch(() => undefined))?.status ?? 0;
      };
      const event = (id: string, type: string, data: object) => ({
        id,
        type,
        createdAt: new Date().toISOString(),
        environment: 'test',
        data,
      });
      // A completed session without its onboarding: the handler's own code throws on it.
      const thrown = await post(event('evt_doc_throws', 'session.completed', { ...view, onboarding: null }));
      assert.ok(
        thrown >= 500 && thrown < 600,
        `a handler that throws must answer 5xx (so the companion retries), got ${thrown}\n${receiver.output()}`,
      );
      const forged = await post(event('evt_doc_forged', 'session.completed', view), 'not-the-notify-secret-0123456789abcdef');
      assert.ok(forged >= 400 && forged < 500, `a bad signature must answer 4xx, got ${forged}`);
      assert.ok(receiver.alive(), `the receiver died:\n${receiver.output()}`);
      const later = await post(event('evt_doc_later', 'session.submitted', view));
      assert.ok(later >= 200 && later < 300, `after a failure the receiver still answers 2xx, got ${later}\n${receiver.output()}`);
    } finally {
      target = undefined;
    }
  }

  /** The shell samples of one document run one after the other, in one directory. */
  const shellDirs = new Map<string, { dir: string; cleanup(): void; turn: Promise<unknown> }>();
  function inDocumentTurn<T>(file: string, run: (dir: string) => Promise<T>): Promise<T> {
    let doc = shellDirs.get(file);
    if (!doc) shellDirs.set(file, (doc = { ...sampleDir(), turn: Promise.resolve() }));
    const { dir } = doc;
    const turn = doc.turn.then(() => run(dir));
    doc.turn = turn.catch(() => undefined);
    return turn;
  }

  for (const { block, sample } of blocks) {
    const name = `${where(block)} (${block.info})`;
    if (sample.kind === 'shell') {
      it(name, async () => {
        const env = await envFor();
        const out = await inDocumentTurn(block.file, (dir) => runShell(block.code, env, dir));
        assert.equal(out.code, 0, failure('the shell sample', out));
        const set = Object.fromEntries(Object.entries(out.vars).filter(([k, v]) => env[k] !== v));
        if (Object.keys(set).length > 0) {
          const config = readConfig(set);
          assert.ok(config.ok, `the variables it sets are refused: ${config.ok ? '' : config.errors.join('; ')}`);
        }
      });
    } else if (sample.kind === 'script') {
      it(name, async () => {
        const out = await runScript(block.code, sample.lang, await envFor());
        assert.equal(out.code, 0, failure('the script', out));
      });
    } else if (sample.kind === 'server') {
      it(name, async () => {
        const port = await freePort();
        const env = await envFor(port);
        // A sample that names the embedded sandbox as its upstream gets no other one to contradict it.
        if (/ONBOARDING_UPSTREAM=sandbox/.test(block.code)) delete env.ONBOARDING_BASE_URL;
        const server = await startServer(block.code, sample.lang, port, env, sample.path);
        try {
          const res = await fetch(server.url + sample.path, { redirect: 'manual' });
          assert.ok(res.status < 400, `GET ${sample.path} answered ${res.status}: ${await res.text()}\n${server.output()}`);
        } finally {
          await server.stop();
        }
      });
    } else if (sample.kind === 'receiver') {
      it(name, async () => {
        const port = await freePort();
        const receiver = await startServer(block.code, sample.lang, port, await envFor(port));
        try {
          await exerciseReceiver(receiver, sample.path);
        } finally {
          await receiver.stop();
        }
      });
    }
  }
});
