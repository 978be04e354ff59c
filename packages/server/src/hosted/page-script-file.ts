/**
 * The hosted pages' script as the build writes it (vite.config.ts of this package) and the
 * companion reads it (hosted-assets.ts): one name for both sides.
 */

/** Its source, the module the pages load (src/hosted/page/). */
export const PAGE_SCRIPT_SOURCE = 'src/hosted/page/hosted-page.ts';
/** Where the build writes it, from the package's root. */
export const PAGE_SCRIPT_DIR = 'dist/page';
/** Its file name, in the build and in the pages' URLs. */
export const PAGE_SCRIPT_FILE = 'hosted-page.js';
