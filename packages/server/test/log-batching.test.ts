/**
 * The default JSON logger writes the lines of one turn of the event loop to stdout in one write,
 * redacted as before, and never loses them when the process ends: at process.exit(), on an
 * uncaught exception, or when the event loop runs out (checked in fresh processes:
 * test/helpers/log-exit-child.ts).
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { createJsonLogger, redactingLogger } from '@onboarding-kit/server';

const CHILD = fileURLToPath(new URL('./helpers/log-exit-child.ts', import.meta.url));

function checkLines(stdout: string): void {
  const lines = stdout.trim().split('\n');
  assert.equal(lines.length, 3, stdout);
  lines.forEach((line, i) => {
    const parsed = JSON.parse(line) as Record<string, unknown>;
    assert.equal(parsed.msg, `line ${i} [redacted]`);
    assert.equal(parsed.app, 'exit-test');
    assert.equal(parsed.cpf, '529.***.***-25');
    assert.equal(parsed.authorization, '[redacted]');
    for (const leaked of ['child-secret-123456', '52998224725', 'Bearer abc'])
      assert.ok(!line.includes(leaked), `${leaked} leaked: ${line}`);
  });
}

for (const how of ['exit', 'throw', 'end'] as const) {
  test(`the default logger's lines all reach stdout, redacted, when the process ends by ${how}`, async () => {
    const stdout = await new Promise<string>((resolve) =>
      execFile(process.execPath, ['--conditions=source', '--import', 'tsx', CHILD, how], { timeout: 120_000 }, (error, out, stderr) => {
        if (how === 'throw') assert.match(stderr, /ended by an uncaught exception/);
        else assert.equal(error, null, stderr);
        resolve(out);
      }),
    );
    checkLines(stdout);
  });
}

test('the default logger writes the lines of one turn in one write to stdout, redacted; past 64 KiB at once', async () => {
  const writes: string[] = [];
  const original = process.stdout.write;
  process.stdout.write = ((chunk: string | Uint8Array) => {
    // Only the logger's lines (the test reporter writes to stdout too).
    if (String(chunk).startsWith('{"time"')) writes.push(String(chunk));
    else original.call(process.stdout, chunk);
    return true;
  }) as typeof process.stdout.write;
  try {
    const log = redactingLogger(createJsonLogger(), () => ['batch-secret-123456']).child({ requestId: 'r1' });
    log.info('one batch-secret-123456', { cpf: '52998224725' });
    log.warn('two', { authorization: 'Bearer abc' });
    log.debug('below the level');
    assert.equal(writes.length, 0, 'nothing written within the turn');
    await new Promise((resolve) => setImmediate(resolve));
    assert.equal(writes.length, 1);
    const lines = writes[0]!.split('\n');
    assert.equal(lines.pop(), '', 'each line ends with a newline');
    assert.deepEqual(
      lines.map((l) => (JSON.parse(l) as { msg: string }).msg),
      ['one [redacted]', 'two'],
    );
    assert.deepEqual(
      lines.map((l) => (JSON.parse(l) as { requestId: string }).requestId),
      ['r1', 'r1'],
    );
    assert.equal((JSON.parse(lines[0]!) as { cpf: string }).cpf, '529.***.***-25');
    for (const leaked of ['batch-secret-123456', '52998224725', 'Bearer abc']) assert.ok(!writes[0]!.includes(leaked), `${leaked} leaked`);

    // A turn that logs a lot does not hold it all: past 64 KiB the lines go at once.
    writes.length = 0;
    const long = 'x'.repeat(1_500);
    for (let i = 0; i < 50; i++) log.info(`long ${i}`, { note: long });
    assert.equal(writes.length, 1, 'written once past 64 KiB, within the turn');
    await new Promise((resolve) => setImmediate(resolve));
    assert.equal(writes.join('').trim().split('\n').length, 50);
  } finally {
    process.stdout.write = original;
  }
});
