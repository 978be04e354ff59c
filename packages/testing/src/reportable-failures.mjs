/**
 * The test page of every browser test file, with failures made reportable. Web Test Runner sends
 * a file's results to its server through `structuredClone`, and a failed assertion keeps its
 * `actual` and `expected` as they were: a DOM node there (`expect(el.activeElement).to.equal(x)`)
 * cannot be cloned, the results are never sent, and the file is reported as a stall after its
 * whole deadline instead of as the failure it was. Here each failure's values that cannot be
 * cloned are replaced by a short description before the runner records them.
 */

/** Runs in the page, after the test framework has defined `Mocha` and before the tests run. */
const patch = `
const describe = (value) => {
  if (value instanceof Node) {
    const html = value instanceof Element ? value.outerHTML : value.nodeName;
    return html.length > 200 ? html.slice(0, 200) + '…' : html;
  }
  try {
    return String(value);
  } catch {
    return Object.prototype.toString.call(value);
  }
};
const cloneable = (value) => {
  try {
    structuredClone(value);
    return true;
  } catch {
    return false;
  }
};
const fail = window.Mocha.Runner.prototype.fail;
window.Mocha.Runner.prototype.fail = function (test, err, ...rest) {
  if (err && typeof err === 'object') {
    for (const key of ['actual', 'expected']) {
      if (key in err && !cloneable(err[key])) err[key] = describe(err[key]);
    }
  }
  return fail.call(this, test, err, ...rest);
};
`;

/** `testRunnerHtml` for the Web Test Runner config. */
export function reportableFailuresHtml(testFramework) {
  return `<!DOCTYPE html><html><head></head><body><script type="module" src="${testFramework}"></script><script type="module">${patch}</script></body></html>`;
}
