/**
 * The files of the hosted pages, all served by the companion itself from memory (nothing from a
 * CDN or any other origin):
 *
 * - the page's own: its script (built from src/hosted/page/ into dist/page/), its stylesheet
 *   (with the brand) and the brand's logo, under `/capture/assets/<hash>/`, the hash of their
 *   content;
 * - the element's script-tag files (the bundle and the files it loads from beside itself, as the
 *   element's hosting manifest lists them), read once from the element's build under
 *   `/capture/element/<hash>/`, the hash of all of them, so the lazy files resolve beside the
 *   bundle under the same version.
 *
 * A path names its content, so every answer is cached for a year as immutable; a new build or a
 * new brand is a new path.
 */
import { createHash } from 'node:crypto';
import { existsSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Brand } from './brand.js';
import { HOSTING_MANIFEST, moduleFormFiles } from './element-manifest.js';
import { PAGE_SCRIPT_DIR, PAGE_SCRIPT_FILE } from './page-script-file.js';
import { pageStylesheet } from './page-style.js';

export interface Asset {
  bytes: Uint8Array;
  type: string;
}

/** The element's bundle, the one file a page names; the others are loaded from beside it. */
export const ELEMENT_BUNDLE = 'onboarding-flow.bundle.js';
export const PAGE_STYLE_FILE = 'hosted-page.css';

const JS = 'text/javascript; charset=utf-8';
/** The element's hosted files that are not scripts: the liveness worker's model and WASM. */
const TYPE_BY_EXTENSION: Record<string, string> = {
  '.json': 'application/json',
  '.bin': 'application/octet-stream',
  '.wasm': 'application/wasm',
};
const typeOf = (name: string) => TYPE_BY_EXTENSION[/\.\w+$/.exec(name)?.[0] ?? ''] ?? JS;

function versionOf(files: Map<string, Asset>): string {
  const hash = createHash('sha256');
  for (const [name, asset] of [...files].sort(([a], [b]) => a.localeCompare(b)))
    hash.update(name).update('\0').update(asset.bytes).update('\0');
  return hash.digest('hex').slice(0, 16);
}

/** A file's bytes, or null when it cannot be read. */
function bytesOf(path: string): Uint8Array | null {
  try {
    return new Uint8Array(readFileSync(path));
  } catch {
    return null;
  }
}

/** Where the element's build is by default: `dist/` of the installed `@onboarding-kit/element`. */
export function defaultElementDir(): string | null {
  try {
    return join(dirname(createRequire(import.meta.url).resolve('@onboarding-kit/element/package.json')), 'dist');
  } catch {
    return null;
  }
}

/**
 * Where this package's build put the page's script: `dist/page/` of the package, found from this
 * module whether it runs from `src/` (tsx, the tests, `npm start`) or from `dist/` (the package).
 */
function defaultPageScriptDir(): string | null {
  let dir = dirname(fileURLToPath(import.meta.url));
  while (!existsSync(join(dir, 'package.json'))) {
    const up = dirname(dir);
    if (up === dir) return null;
    dir = up;
  }
  return join(dir, PAGE_SCRIPT_DIR);
}

/** A build the pages need is not there (the element's, or the page's script): the message says what to do. */
export class BuildMissing extends Error {
  override readonly name = 'BuildMissing';
}

export class HostedAssets {
  /** The page's own files and their version. */
  readonly page: { version: string; files: Map<string, Asset>; logo?: string };
  readonly #elementDir: string | null;
  #element: { version: string; files: Map<string, Asset> } | undefined;
  /** Why the page's script is not among the page's files, when it is not. */
  readonly #scriptMissing: string | undefined;

  /** `scriptDir`: where the page's script was built (default {@link defaultPageScriptDir}). */
  constructor(brand: Brand, elementDir: string | null, scriptDir: string | null = defaultPageScriptDir()) {
    const files = new Map<string, Asset>([
      [PAGE_STYLE_FILE, { bytes: new TextEncoder().encode(pageStylesheet(brand)), type: 'text/css; charset=utf-8' }],
    ]);
    // Read once, here: the page's version is the hash of its files, script included.
    const script = scriptDir ? bytesOf(join(scriptDir, PAGE_SCRIPT_FILE)) : null;
    if (script) files.set(PAGE_SCRIPT_FILE, { bytes: script, type: JS });
    else
      this.#scriptMissing = `the hosted page's script (${PAGE_SCRIPT_FILE}) is not in ${scriptDir ?? PAGE_SCRIPT_DIR}: build it (npm run build)`;
    let logo: string | undefined;
    if (brand.logo) {
      logo = `logo.${brand.logo.ext}`;
      files.set(logo, { bytes: brand.logo.bytes, type: brand.logo.type });
    }
    this.page = { version: versionOf(files), files, ...(logo && { logo }) };
    this.#elementDir = elementDir;
  }

  /**
   * The element's version, for a page that loads both scripts; throws {@link BuildMissing} when
   * the page's script or the element's files are not there.
   */
  scriptsVersion(): string {
    if (this.#scriptMissing) throw new BuildMissing(this.#scriptMissing);
    return this.element().version;
  }

  /**
   * The element's files, read once (a failed read is tried again at the next page); throws
   * {@link BuildMissing}, saying what to do, when the build is not there.
   */
  element(): { version: string; files: Map<string, Asset> } {
    if (this.#element) return this.#element;
    const dir = this.#elementDir;
    if (!dir)
      throw new BuildMissing('the element is not installed: add @onboarding-kit/element, or set hostedPage.elementDir to its built files');
    const manifest = bytesOf(join(dir, HOSTING_MANIFEST));
    if (!manifest)
      throw new BuildMissing(`the element's list of files (${HOSTING_MANIFEST}) is not in ${dir}: build the element (npm run build)`);
    let names: string[] | null;
    try {
      names = moduleFormFiles(JSON.parse(new TextDecoder().decode(manifest)));
    } catch {
      names = null;
    }
    if (!names?.includes(ELEMENT_BUNDLE))
      throw new BuildMissing(
        `${join(dir, HOSTING_MANIFEST)} does not list the element's bundle (${ELEMENT_BUNDLE}): build the element again (npm run build)`,
      );
    const files = new Map<string, Asset>();
    for (const name of names) {
      const bytes = bytesOf(join(dir, name));
      if (!bytes)
        throw new BuildMissing(`${name}, listed in ${HOSTING_MANIFEST}, is not in ${dir}: build the element again (npm run build)`);
      files.set(name, { bytes, type: typeOf(name) });
    }
    this.#element = { version: versionOf(files), files };
    return this.#element;
  }
}
