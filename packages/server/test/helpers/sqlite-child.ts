/**
 * A second process on a SQLite store file, for the durability and concurrency tests.
 *   write <path>: creates onboardings without end, approving every other one, and prints
 *     `created N` / `approved N` after each write has committed, until it is killed.
 *   race <path> <status> <token...>: prints `ready`, waits for a line on stdin, then applies
 *     <status> twice to each token, printing one JSON line {token, changed} per update.
 */
import { createInterface } from 'node:readline';
import type { OnboardingStatus } from '@onboarding-kit/contract';
import { SqliteStore } from '../../src/store/sqlite-store.js';

const [mode, path, ...rest] = process.argv.slice(2);
const store = new SqliteStore(path!);
// Pipes are written synchronously on Linux: a line printed is in the parent's pipe before the next write begins.
const say = (line: string) => process.stdout.write(`${line}\n`);

// A writer whose test died (a timeout, a mutant under Stryker) must not write on forever as an
// orphan: it stops as soon as it is no longer its parent's child.
const parent = process.ppid;

if (mode === 'write') {
  for (let i = 0; process.ppid === parent; i++) {
    const token = `tok-${i}`;
    await store.create({ tokenOnboarding: token, status: 'IN_PROCESS', createdAt: new Date().toISOString(), accessKeyHash: `hash-${i}` });
    say(`created ${i}`);
    if (i % 2 === 0) {
      await store.applyStatus(token, { status: 'APPROVED', source: 'webhook', externalId: `ext-${i}` });
      say(`approved ${i}`);
    }
  }
} else if (mode === 'race') {
  const [status, ...tokens] = rest as [OnboardingStatus, ...string[]];
  say('ready');
  const lines = createInterface({ input: process.stdin });
  await new Promise<void>((resolve) => lines.once('line', () => resolve()));
  lines.close();
  for (const token of tokens) {
    for (let n = 0; n < 2; n++) {
      const r = await store.applyStatus(token, { status, source: 'webhook' });
      say(JSON.stringify({ token, changed: r?.changed ?? null }));
    }
  }
  await store.close();
} else {
  console.error(`unknown mode ${mode}`);
  process.exit(2);
}
