import { test } from 'node:test';
import assert from 'node:assert/strict';
import { failureRecap, recapLines } from '@onboarding-kit/testing/failure-recap';

const passing = {
  browser: { name: 'Firefox' },
  testFile: 'a.test.ts',
  passed: true,
  errors: [],
  testResults: { name: '', suites: [], tests: [{ name: 'fine', passed: true, skipped: false }] },
};

const failing = {
  browser: { name: 'Chromium' },
  testFile: 'packages/element/src/hand-off.test.ts',
  passed: false,
  errors: [],
  testResults: {
    name: '',
    tests: [{ name: 'skipped one', passed: false, skipped: true }],
    suites: [
      {
        name: 'hand-off',
        tests: [],
        suites: [
          {
            name: 'panel',
            suites: [],
            tests: [
              {
                name: 'claims the code',
                passed: false,
                skipped: false,
                error: {
                  message: 'expected 429 to equal 200',
                  expected: '200',
                  actual: '429',
                  stack: 'AssertionError: x\n    at claim (hand-off.test.ts:12:3)\n    at run (mocha.js:1:1)',
                },
              },
            ],
          },
        ],
      },
    ],
  },
};

const stalled = {
  browser: { name: 'WebKit' },
  testFile: 'outcome.test.ts',
  passed: false,
  errors: [{ message: 'Browser tests did not finish within 300000ms.' }],
};

test('a run where everything passed adds nothing to the log', () => {
  assert.deepEqual(recapLines([passing]), []);
  const reporter = failureRecap();
  reporter.stop?.({ sessions: [passing] } as never);
  assert.deepEqual(reporter.getTestProgress?.({ sessions: [passing], testRun: 1 } as never), []);
});

test('each failed test is named with its engine, file, suites and error; skipped tests are not failures', () => {
  const text = recapLines([passing, failing, stalled]).join('\n');
  assert.match(text, /Failures in this run \(2\)/);
  assert.match(
    text,
    /✗ Chromium packages\/element\/src\/hand-off\.test\.ts\n {4}hand-off > panel > claims the code\n {6}expected 429 to equal 200/,
  );
  assert.match(text, /expected: 200\n {6}actual: {3}429/);
  assert.match(text, /at claim \(hand-off\.test\.ts:12:3\)/);
  assert.doesNotMatch(text, /skipped one/);
  // A file that never finished has no failed test, only its session's error.
  assert.match(text, /✗ WebKit outcome\.test\.ts\n {4}\(the file itself\)\n {6}Browser tests did not finish within 300000ms\./);
});

test('a failed session with no error and no failed test is still named', () => {
  const text = recapLines([{ browser: { name: 'Firefox' }, testFile: 'x.test.ts', passed: false, status: 'FINISHED', errors: [] }]).join(
    '\n',
  );
  assert.match(text, /✗ Firefox x\.test\.ts\n {4}\(the file itself\)\n {6}status FINISHED, no error reported/);
});

test('the recap shows in the progress report only once the run has stopped (the final report)', () => {
  const reporter = failureRecap();
  const progress = () => [reporter.getTestProgress?.({ sessions: [failing], testRun: 1 } as never) ?? []].flat().join('\n');
  assert.equal(progress(), '', 'nothing while tests still run');
  reporter.stop?.({ sessions: [failing] } as never);
  assert.match(progress(), /claims the code/);
});
