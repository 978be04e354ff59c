/**
 * Module resolve hook: `@onboarding-kit/<name>` (the package's "." export) becomes the `source`
 * entry of `packages/<name>` under the directory the test process runs in (Stryker's sandbox).
 * Subpaths and packages the sandbox does not hold resolve as usual.
 */
import { existsSync, readFileSync } from 'node:fs';

let root;

export function initialize(data) {
  root = new URL(data.root);
}

const WORKSPACE_NAME = /^@onboarding-kit\/([a-z0-9-]+)$/;
const entries = new Map();

function sourceEntry(name) {
  if (!entries.has(name)) {
    const manifest = new URL(`packages/${name}/package.json`, root);
    let entry = null;
    if (existsSync(manifest)) {
      const source = JSON.parse(readFileSync(manifest, 'utf8')).exports?.['.']?.source;
      if (typeof source === 'string') entry = new URL(source, manifest).href;
    }
    entries.set(name, entry);
  }
  return entries.get(name);
}

export async function resolve(specifier, context, nextResolve) {
  const name = WORKSPACE_NAME.exec(specifier)?.[1];
  const entry = name && sourceEntry(name);
  return entry ? nextResolve(entry, context) : nextResolve(specifier, context);
}
