/**
 * The element's `dist/hosting-manifest.json` read as the list of files a hosted page serves: the
 * one list the element's build writes of every file it loads from beside its script, so a new
 * lazy file of the element is served without a change here.
 */

/** The list of files to host, beside the element's script-tag bundles. */
export const HOSTING_MANIFEST = 'hosting-manifest.json';

/**
 * The files a page that loads the element's module script serves (the classic form's script
 * left out), or null when `manifest` is not a hosting manifest.
 */
export function moduleFormFiles(manifest: unknown): string[] | null {
  const files = (manifest as { files?: unknown } | null)?.files;
  if (!Array.isArray(files)) return null;
  const names: string[] = [];
  for (const entry of files as { file?: unknown; kind?: unknown }[]) {
    // A name with a path in it would reach outside the element's directory.
    if (typeof entry?.file !== 'string' || !/^[\w.-]+$/.test(entry.file) || typeof entry.kind !== 'string') return null;
    if (entry.kind !== 'classic script') names.push(entry.file);
  }
  return names;
}
