/**
 * Many instances, for real: two `npm start` processes (demo/start.ts) on one Redis, in front of
 * one sandbox whose webhooks go through a small round-robin balancer. A page's event stream on
 * instance B gets the outcome of a webhook that instance A answered; then 200 onboardings across
 * both, a third of them decided while the sandbox drops webhooks (only polling can bring those),
 * and instance A killed with SIGKILL while webhooks are on their way to it: every onboarding
 * reaches the status the sandbox decided, none is lost, and none moves back or twice.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { OnboardingStatus } from '@onboarding-kit/contract';
import { serveSandbox } from '@onboarding-kit/sandbox';
import { createStore } from '@onboarding-kit/server';
import { startRedisServer } from '@onboarding-kit/testing/redis-server';
import { SANDBOX_DEFAULTS } from '../../demo/config.js';
import { startDemo, stopDemo, type DemoProcess } from './helpers/demo-process.js';
import { body, createOk, openEvents } from './helpers/stack.js';

type Final = Exclude<OnboardingStatus, 'IN_PROCESS'>;

/**
 * What a load balancer does for the upstream's webhooks: each one to the next instance in turn.
 * An instance that cannot be reached makes it answer 502, and the webhook is lost, as it would be
 * behind a real balancer (the upstream never resends).
 */
async function webhookBalancer(): Promise<{
  url: string;
  targets: string[];
  answered: Map<string, number>;
  lost: () => number;
  close(): Promise<void>;
}> {
  const state = { targets: [] as string[], answered: new Map<string, number>(), lost: 0, next: 0 };
  const server: Server = createServer(async (req, res) => {
    const chunks: Buffer[] = [];
    for await (const c of req) chunks.push(c as Buffer);
    const target = state.targets[state.next++ % Math.max(1, state.targets.length)];
    try {
      if (!target) throw new Error('no instance');
      const answer = await fetch(`${target}${req.url}`, {
        method: 'POST',
        headers: {
          'content-type': String(req.headers['content-type'] ?? 'application/json'),
          'id-service-token': String(req.headers['id-service-token'] ?? ''),
        },
        body: Buffer.concat(chunks),
      });
      state.answered.set(target, (state.answered.get(target) ?? 0) + 1);
      res.writeHead(answer.status, { 'content-type': 'application/json' }).end(await answer.text());
    } catch {
      state.lost++;
      res.writeHead(502).end();
    }
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    get targets() {
      return state.targets;
    },
    set targets(t: string[]) {
      state.targets = t;
    },
    answered: state.answered,
    lost: () => state.lost,
    close: () =>
      new Promise<void>((r) => {
        server.close(() => r());
        server.closeAllConnections();
      }),
  };
}

/** Runs `fn` over `items`, `concurrency` at a time. */
async function pool<T, R>(items: T[], concurrency: number, fn: (item: T, index: number) => Promise<R>): Promise<R[]> {
  const out: R[] = [];
  let next = 0;
  await Promise.all(
    Array.from({ length: concurrency }, async () => {
      while (next < items.length) {
        const i = next++;
        out[i] = await fn(items[i]!, i);
      }
    }),
  );
  return out;
}

test('two companions on one Redis: a webhook to A reaches a stream on B; 200 onboardings with dropped webhooks and A killed all reach their outcome', async () => {
  const redis = await startRedisServer();
  const balancer = await webhookBalancer();
  const upstream = await serveSandbox({ port: 0, ...SANDBOX_DEFAULTS, webhookUrl: `${balancer.url}/v1/webhooks`, processingMs: 600_000 });
  const prefix = `okit-it-${randomUUID().slice(0, 8)}:`;
  const env = {
    ONBOARDING_BASE_URL: upstream.url,
    ONBOARDING_CLIENT: SANDBOX_DEFAULTS.client,
    ONBOARDING_SECRET: SANDBOX_DEFAULTS.secret,
    ONBOARDING_WEBHOOK_KEY: SANDBOX_DEFAULTS.webhookKey,
    ONBOARDING_STORE: redis.url,
    ONBOARDING_REDIS_PREFIX: prefix,
    ONBOARDING_RATE_LIMIT: '0',
    ONBOARDING_CREATIONS_PER_CLIENT: '0',
    // A killed instance's polling leases lapse after 2 s instead of 30 s: the test need not wait.
    ONBOARDING_POLL_LEASE_MS: '2000',
  };
  const instances: DemoProcess[] = [startDemo(env), startDemo(env)];
  const [A, B] = instances as [DemoProcess, DemoProcess];
  try {
    const [a, b] = await Promise.all([A.url, B.url]);
    // The manual-review CPF stays IN_PROCESS until the test decides it through the sandbox.
    const manual = body({ cpf: '987.654.321-00' });

    // 1. The webhook goes to A; the page's stream is held by B.
    balancer.targets = [a];
    const one = await createOk(a, manual);
    const stream = await openEvents(b, one.tokenOnboarding, one.accessKey);
    await stream.waitFor(1, 30_000);
    await upstream.sandbox.decide(one.tokenOnboarding, 'REFUSED');
    assert.equal(balancer.answered.get(a), 1, 'A answered the webhook');
    assert.deepEqual(
      (await stream.waitFor(2, 30_000)).map((e) => e.status),
      ['IN_PROCESS', 'REFUSED'],
    );
    stream.close();

    // 2. 200 onboardings, created on both instances.
    const made = await pool(
      Array.from({ length: 200 }, (_, i) => i),
      8,
      (i) => createOk(i % 2 ? a : b, manual),
    );
    const expected: Final[] = made.map((_, i) => (['APPROVED', 'REFUSED', 'ERROR'] as const)[i % 3]!);
    const decide = (i: number) => upstream.sandbox.decide(made[i]!.tokenOnboarding, expected[i]!);

    // A third decided while the sandbox drops its webhooks: only polling can bring these outcomes.
    upstream.sandbox.setFaults({ dropWebhooks: true });
    for (let i = 0; i < 67; i++) await decide(i);
    upstream.sandbox.setFaults({ dropWebhooks: false });

    // The rest with webhooks shared by both instances; A is killed halfway, webhooks still on their way to it.
    balancer.targets = [a, b];
    const rest = Array.from({ length: 133 }, (_, k) => 67 + k);
    const killed = (async () => {
      while (upstream.sandbox.stats().webhooksSent < 30) await new Promise((r) => setTimeout(r, 1));
      A.child.kill('SIGKILL');
    })();
    await pool(rest, 4, (i) => decide(i));
    await killed;
    assert.equal(await A.exited, null, 'A died by the signal');
    balancer.targets = [b];

    // Every onboarding, whoever created it, reaches its outcome as read from B with its access key.
    const pending = new Set(made.map((_, i) => i));
    const deadline = Date.now() + 120_000;
    while (pending.size && Date.now() < deadline) {
      await pool([...pending], 8, async (i) => {
        const res = await fetch(`${b}/v1/onboardings/${made[i]!.tokenOnboarding}`, {
          headers: { authorization: `Bearer ${made[i]!.accessKey}` },
        });
        assert.equal(res.status, 200);
        const { status } = (await res.json()) as { status: OnboardingStatus };
        if (status !== 'IN_PROCESS') {
          assert.equal(status, expected[i], `onboarding ${i}`);
          pending.delete(i);
        }
      });
      if (pending.size) await new Promise((r) => setTimeout(r, 250));
    }
    assert.equal(pending.size, 0, `${pending.size} onboardings never reached their outcome`);

    // None lost, none regressing: each history is its creation and its one outcome, in that order.
    const store = await createStore(redis.url, { redisPrefix: prefix });
    try {
      for (const [i, o] of made.entries()) {
        const record = await store.get(o.tokenOnboarding);
        assert.ok(record, `onboarding ${i} is in the store`);
        assert.deepEqual(
          record.history.map((h) => h.status),
          ['IN_PROCESS', expected[i]],
          `history of onboarding ${i}`,
        );
      }
      const sources = new Set(
        (await Promise.all(made.slice(0, 67).map((o) => store.get(o.tokenOnboarding)))).map((r) => r!.history[1]!.source),
      );
      assert.deepEqual(sources, new Set(['poll']), 'the dropped third came by polling');
    } finally {
      await store.close?.();
    }
    assert.equal(await stopDemo(B, 'SIGTERM'), 0, JSON.stringify(B.output().err));
  } finally {
    for (const p of instances) p.child.kill('SIGKILL');
    await Promise.all(instances.map((p) => p.exited));
    await upstream.close();
    await balancer.close();
    await redis.stop();
  }
});
