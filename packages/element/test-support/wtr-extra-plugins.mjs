/**
 * Extra Web Test Runner plugins spread into web-test-runner.config.mjs (the element's test
 * companion lives here). Keep it an array of plain WTR/dev-server plugins.
 */
export const plugins = [];
