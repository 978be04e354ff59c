import { test } from 'node:test';
import assert from 'node:assert/strict';
import { commandTrail } from '@onboarding-kit/testing/command-trail';
import { recapLines } from '@onboarding-kit/testing/failure-recap';

type Command = { command: string; payload?: unknown; session: { id: string } };

/** WTR's dispatch: each plugin in turn until one answers (testRunnerApiPlugin). */
async function dispatch(plugins: readonly object[], args: Command): Promise<unknown> {
  for (const p of plugins as { executeCommand?: (a: Command) => unknown }[]) {
    const result = await p.executeCommand?.(args);
    if (result != null) return result;
  }
  return undefined;
}

test('the trail names each command a session sent, which answered and how fast, and which never did', async () => {
  let clock = Date.parse('2026-11-27T12:00:00.000Z');
  const trail = commandTrail({ now: () => clock, keep: 3 });
  const builtins = { name: 'set-viewport', executeCommand: ({ command }: Command) => (command === 'set-viewport' ? true : undefined) };
  let hang!: () => void;
  const ours = {
    name: 'ours',
    executeCommand: ({ command }: Command) => {
      if (command === 'screenshot')
        return new Promise((resolve) => {
          hang = () => resolve('shot');
        });
      if (command === 'broken') throw new Error('no such page');
      return undefined;
    },
  };
  const plugins: object[] = [trail, builtins, ours];
  trail.serverStart?.({ config: { plugins } } as never);
  const s = { id: 'session-1' };

  await dispatch(plugins, { command: 'set-viewport', payload: { width: 390, height: 844 }, session: s });
  clock += 1500;
  await assert.rejects(dispatch(plugins, { command: 'broken', session: s }), /no such page/);
  const pending = dispatch(plugins, { command: 'screenshot', payload: { name: 'handoff-offer' }, session: s });
  await new Promise((r) => setImmediate(r));
  clock += 296_000;

  const lines = trail.describe(s);
  assert.equal(lines[0], 'its last server commands (of 3 kept):');
  assert.equal(lines[1], '  12:00:00.000 set-viewport {"width":390,"height":844}: answered in 0.0 s');
  assert.equal(lines[2], '  12:00:01.500 broken: failed after 0.0 s: no such page');
  assert.equal(lines[3], '  12:00:01.500 screenshot {"name":"handoff-offer"}: NO ANSWER after 296.0 s');
  assert.deepEqual(trail.describe({ id: 'other' }), ['no server command was sent']);

  // Only `keep` entries stay, the oldest go first.
  hang();
  await pending;
  await dispatch(plugins, { command: 'set-viewport', session: s });
  assert.deepEqual(
    trail.trail(s.id).map((e) => e.command),
    ['broken', 'screenshot', 'set-viewport'],
  );

  // The recap carries the trail under a file that stalled.
  const stalled = {
    id: s.id,
    browser: { name: 'Firefox' },
    testFile: 'handoff.test.ts',
    passed: false,
    errors: [{ message: 'Browser tests did not finish within 300000ms.' }],
  };
  const text = recapLines([stalled], trail.describe).join('\n');
  assert.match(text, /did not finish within 300000ms\.\n {6}its last server commands \(of 3 kept\):\n {8}12:00:01\.500 broken/);
});

test('a notes function that throws still leaves a recap', () => {
  const text = recapLines([{ id: 'x', testFile: 'a.test.ts', passed: false, errors: [{ message: 'stalled' }] }], () => {
    throw new Error('boom');
  }).join('\n');
  assert.match(text, /stalled\n {6}\(no notes: boom\)/);
});

test('with a deadline, a command no plugin answers in time fails with its name, and the trail says so', async () => {
  const trail = commandTrail({ deadlineMs: 50 });
  const hung = { name: 'hung', executeCommand: ({ command }: Command) => (command === 'set-viewport' ? new Promise(() => {}) : undefined) };
  const quick = { name: 'quick', executeCommand: ({ command }: Command) => (command === 'stack' ? { url: 'x' } : undefined) };
  const plugins: object[] = [trail, hung, quick];
  trail.serverStart?.({ config: { plugins } } as never);
  const s = { id: 'session-2' };
  await assert.rejects(
    dispatch(plugins, { command: 'set-viewport', payload: { width: 390 }, session: s }),
    /server command set-viewport: nothing after 50 ms/,
  );
  // Commands that are answered in time are untouched by the deadline.
  assert.deepEqual(await dispatch(plugins, { command: 'stack', session: s }), { url: 'x' });
  const lines = trail.describe(s);
  assert.match(lines[1]!, /set-viewport \{"width":390\}: failed after 0\.\d s: server command set-viewport: nothing after 50 ms/);
  assert.match(lines[2]!, /stack: answered in/);
});
