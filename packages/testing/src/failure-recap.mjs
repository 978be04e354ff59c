import { isAbsolute, relative } from 'node:path';

/**
 * A Web Test Runner reporter that repeats every failure at the very end of the run, after the
 * progress bars: which engine, which file, which test, and its error.
 *
 * The default reporter prints a file's failures when that file finishes, which in a 3-engine run
 * is minutes and thousands of lines before the end. A CI log that keeps only its tail then shows
 * "1 failed" and nothing to act on; this recap makes the tail enough.
 */

/** How many lines of a stack to keep: the test's own frames come first. */
const STACK_LINES = 6;

/**
 * The recap is the reporter's part of the final progress report, which WTR draws after every
 * reporter has stopped: so it comes below the default reporter's bars and "Finished" line.
 * (Printing it from `stop()` would put it above them.)
 * @param {{ notes?: (session: any) => string[] }} [options] `notes`: more lines about a session
 *   that failed as a whole (stalled, crashed), such as `commandTrail().describe`
 * @returns {import('@web/test-runner').Reporter}
 */
export function failureRecap(options = {}) {
  let recap = [];
  return {
    stop({ sessions }) {
      recap = recapLines(sessions, options.notes);
    },
    getTestProgress() {
      return recap;
    },
  };
}

/**
 * The recap's lines for a run's sessions: nothing when every session passed.
 * @param {readonly any[]} sessions WTR's TestSession objects
 * @param {(session: any) => string[]} [notes] more lines about a session that failed as a whole
 * @returns {string[]}
 */
export function recapLines(sessions, notes) {
  const failures = [];
  for (const session of sessions) {
    const file = isAbsolute(session.testFile) ? relative(process.cwd(), session.testFile) : session.testFile;
    const where = `${session.browser?.name ?? 'browser'} ${file}`;
    const extra = () => (notes ? safeNotes(notes, session) : []);
    for (const error of session.errors ?? []) failures.push({ where, test: '(the file itself)', error, extra: extra() });
    if (session.testResults) collectFailedTests(session.testResults, [], where, failures);
    // A session can fail with neither (a browser that never loaded the file): still name it.
    if (session.passed === false && !failures.some((f) => f.where === where)) {
      failures.push({
        where,
        test: '(the file itself)',
        error: { message: `status ${session.status ?? 'unknown'}, no error reported` },
        extra: extra(),
      });
    }
  }
  if (failures.length === 0) return [];
  const lines = ['', `Failures in this run (${failures.length}), repeated here so that the end of the log says what failed:`];
  for (const { where, test, error, extra = [] } of failures) {
    lines.push('', `  ✗ ${where}`, `    ${test}`);
    for (const line of [...describeError(error), ...extra]) lines.push(`      ${line}`);
  }
  lines.push('');
  return lines;
}

function safeNotes(notes, session) {
  try {
    return notes(session);
  } catch (error) {
    return [`(no notes: ${error instanceof Error ? error.message : String(error)})`];
  }
}

function collectFailedTests(suite, path, where, failures) {
  const here = suite.name ? [...path, suite.name] : path;
  for (const test of suite.tests ?? []) {
    if (!test.passed && !test.skipped) failures.push({ where, test: [...here, test.name].join(' > '), error: test.error });
  }
  for (const child of suite.suites ?? []) collectFailedTests(child, here, where, failures);
}

function describeError(error) {
  if (!error) return ['(no error recorded)'];
  const lines = String(error.message ?? error).split('\n');
  if (error.expected !== undefined || error.actual !== undefined) {
    lines.push(`expected: ${error.expected}`, `actual:   ${error.actual}`);
  }
  if (error.stack) {
    const frames = String(error.stack)
      .split('\n')
      .filter((l) => /^\s*at |@/.test(l))
      .slice(0, STACK_LINES);
    lines.push(...frames.map((l) => l.trim()));
  }
  return lines;
}
