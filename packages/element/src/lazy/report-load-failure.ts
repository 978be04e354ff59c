/**
 * The browser side of load-failure.ts: reads a failed load's clues from the page (its Resource
 * Timing record of the file, `navigator.onLine`, the file asked for once more) and tells the
 * developer once per file and page, however many copies of this module the lazily loaded files
 * carry (a registry on the global object, not a module variable). Written small: it is part of
 * the element's first load.
 */
import { classifyLoadFailure, missingFileAdvice, type LoadFailure } from './load-failure.js';

/**
 * Whose fault it is that the lazily loaded `part` did not load, told to the developer once when
 * it is the page's. Its file is `file`, else the page's last fetch of one whose URL holds `part`
 * (every build names it so: `onboarding-flow.face.js`, `face-detector-[hash].js`): the engines'
 * import errors do not all name the file (WebKit's does not), their resource records do.
 */
export async function classifyFileFailure(part: string, file?: string): Promise<LoadFailure> {
  file ??= performance
    .getEntriesByType('resource')
    .map((entry) => entry.name)
    .filter((name) => name.includes(part))
    .pop();
  const failure = await classifyLoadFailure(file, navigator.onLine, (url) => fetch(url, { cache: 'no-store' }));
  const told = ((globalThis as { __onboardingFlowMissing?: string[] }).__onboardingFlowMissing ??= []);
  if (failure === 'missing' && !told.includes((file ??= part))) {
    told.push(file);
    console.error(missingFileAdvice(file));
  }
  return failure;
}
