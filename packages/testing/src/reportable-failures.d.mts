/** `testRunnerHtml` for the Web Test Runner config: failures whose values cannot be cloned are still reported. */
export function reportableFailuresHtml(testFramework: string): string;
