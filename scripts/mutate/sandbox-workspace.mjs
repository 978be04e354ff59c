/**
 * Preloaded (`--import`) into every test process Stryker starts. Stryker copies the repository to
 * a sandbox and mutates the copy, but the sandbox's node_modules is a link to the real one, whose
 * `@onboarding-kit/*` entries point at the unmutated packages: a test importing
 * `@onboarding-kit/server` by name would test the original and let every mutant survive. The hooks
 * in ./sandbox-workspace-hooks.mjs send those names to the sandbox's own copies instead.
 */
import { register } from 'node:module';
import { pathToFileURL } from 'node:url';

register('./sandbox-workspace-hooks.mjs', import.meta.url, { data: { root: pathToFileURL(`${process.cwd()}/`).href } });
