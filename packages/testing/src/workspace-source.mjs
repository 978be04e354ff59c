/**
 * The URL of a workspace package's TypeScript entry (the `source` condition of its "." export),
 * found by the package's name. The Web Test Runner CLI runs without `--conditions=source`, so
 * a plain `import('@onboarding-kit/contract')` there would pick dist/, which exists only after a
 * build; through this the companion double loads the contract's source with tsx either way.
 */
import { existsSync, readFileSync } from 'node:fs';

export function sourceEntryUrl(name) {
  const resolved = import.meta.resolve(name);
  for (let dir = new URL('./', resolved); ; dir = new URL('../', dir)) {
    const manifest = new URL('package.json', dir);
    if (existsSync(manifest)) {
      const pkg = JSON.parse(readFileSync(manifest, 'utf8'));
      if (pkg.name === name) {
        const source = pkg.exports?.['.']?.source;
        if (typeof source !== 'string') throw new Error(`${name} has no "source" condition in its "." export`);
        return new URL(source, dir).href;
      }
    }
    if (dir.pathname === '/') throw new Error(`no package.json named ${name} above ${resolved}`);
  }
}
