/** The file walk the lint scripts share: dotfiles, dependencies and build output are never sources. */
import { readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';

const ALWAYS_SKIPPED = new Set(['node_modules', 'dist']);

/** Files under `dir` whose name `include` accepts, skipping the folders named in `skipDirs` too. */
export function sourceFiles(
  dir: string,
  include: (name: string) => boolean,
  skipDirs: ReadonlySet<string> = ALWAYS_SKIPPED,
  out: string[] = [],
): string[] {
  let names: string[];
  try {
    names = readdirSync(dir);
  } catch {
    return out;
  }
  for (const name of names) {
    if (name.startsWith('.') || ALWAYS_SKIPPED.has(name) || skipDirs.has(name)) continue;
    const path = join(dir, name);
    if (statSync(path).isDirectory()) sourceFiles(path, include, skipDirs, out);
    else if (include(name)) out.push(path);
  }
  return out;
}
