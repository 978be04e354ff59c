/**
 * Why a lazily loaded file of the element (a part fetched with `import()`, the image worker)
 * did not arrive, and the one console line that tells the page's developer. Two causes need
 * different words for the person: their connection dropped (`offline`: trying again helps), or
 * the page does not serve the file (`missing`: a 404, an HTML page served in its place; only
 * the site can fix it, and the person must not be told to check their internet).
 */

export type LoadFailure = 'offline' | 'missing';

/** The list of files to host, written by the build beside the script-tag bundles. */
export const HOSTING_MANIFEST = 'hosting-manifest.json';

/**
 * Offline when the browser says so, or when asking for the file again (`probe`) gets no answer
 * at all; missing when the file answers with an error status or something that is not
 * JavaScript (an HTML page served in its place). A file that answers as JavaScript after all
 * was a blip on the way: the connection's fault, which trying again fixes. With no URL to ask
 * (no fetch of the file on the page's record) and the browser online, a list of hosted files
 * that forgot one is likelier than a connection that drops between two files.
 */
export async function classifyLoadFailure(
  url: string | undefined,
  online: boolean,
  probe: (url: string) => Promise<Response>,
): Promise<LoadFailure> {
  if (!online) return 'offline';
  try {
    const answer = url ? await probe(url) : undefined;
    return answer?.ok && /script/.test(answer.headers.get('content-type') ?? '') ? 'offline' : 'missing';
  } catch {
    return 'offline';
  }
}

/** The console line for a file the page does not serve: the file, and the list that names every one. */
export function missingFileAdvice(file: string): string {
  // The manifest's name written out: the constant would cost the first load a variable.
  return `[onboarding-flow] ${file} did not load: host all files of hosting-manifest.json beside the script`;
}
