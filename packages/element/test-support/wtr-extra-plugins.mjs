/**
 * Extra Web Test Runner plugins spread into web-test-runner.config.mjs: the element's test
 * companion (see companion-double.mjs).
 */
import { companionDouble } from './companion-double.mjs';

export const plugins = [companionDouble()];
