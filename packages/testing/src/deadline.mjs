/**
 * Waiting in tests without hanging and without timing anything: every wait ends either when what
 * it waits for happens or, failing that, at a deadline far beyond any machine's slowness (the
 * default 30 s), with a message that says what never came. A deadline is a guard against a hang,
 * never a measure of speed: tests assert what happens, not how fast.
 *
 * Plain JavaScript (types in deadline.d.mts): the Web Test Runner config, which Node loads
 * without tsx, uses it too.
 */

/** The default deadline of every wait here. */
export const DEADLINE_MS = 30_000;

/** `promise`, or a rejection naming `what` once `ms` have passed without it settling. */
export async function withDeadline(promise, what, ms = DEADLINE_MS) {
  let timer;
  const late = new Promise((_, reject) => {
    timer = setTimeout(() => reject(new Error(`${what}: nothing after ${ms} ms`)), ms);
  });
  try {
    return await Promise.race([promise, late]);
  } finally {
    clearTimeout(timer);
  }
}

/** Resolves once `condition` holds (checked every `everyMs`); rejects naming `what` at the deadline. */
export async function eventually(condition, what, options = {}) {
  const ms = options.ms ?? DEADLINE_MS;
  const end = Date.now() + ms;
  while (!(await condition())) {
    if (Date.now() > end) throw new Error(`${what}: still not so after ${ms} ms`);
    await new Promise((r) => setTimeout(r, options.everyMs ?? 10));
  }
}
