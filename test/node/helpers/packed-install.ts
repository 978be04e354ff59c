/**
 * Installs packed workspace packages in an empty folder from npm's cache alone: `npm install`
 * of a tarball would ask the registry for each dependency's versions (not cached by `npm ci`,
 * which reads the lockfile), so the folder gets a lockfile of its own, made from the repository's:
 * the tarballs with their integrity, and every runtime dependency they need at the version,
 * integrity and place the repository's lockfile gives it. `npm ci --offline` then installs
 * exactly that from the cache `npm ci` filled, and fails rather than reach the network.
 */
import { spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { basename, join } from 'node:path';

interface LockEntry {
  version?: string;
  resolved?: string;
  integrity?: string;
  link?: boolean;
  dependencies?: Record<string, string>;
  optionalDependencies?: Record<string, string>;
  peerDependencies?: Record<string, string>;
  peerDependenciesMeta?: Record<string, { optional?: boolean }>;
  [key: string]: unknown;
}

/** A workspace package packed: its name, its tarball, and its folder in the repository (`packages/server`). */
interface Packed {
  name: string;
  tarball: string;
  workspace: string;
}

/** The lockfile (v3) of a folder whose package.json depends on `packed` by `file:` tarball. */
function lockfileFor(repoLock: { packages: Record<string, LockEntry> }, packed: readonly Packed[], name: string): unknown {
  const repo = repoLock.packages;
  const out: Record<string, LockEntry> = {
    '': { name, version: '1.0.0', dependencies: Object.fromEntries(packed.map((p) => [p.name, `file:${p.tarball}`])) },
  };
  const byName = new Map(packed.map((p) => [p.name, p]));
  // Each queued item: a dependency's name, and the repository path of the package that needs it (where the lookup starts).
  const queue: { dep: string; from: string; to: string; optional: boolean }[] = [];
  const need = (entry: LockEntry, from: string, to: string) => {
    for (const dep of Object.keys(entry.dependencies ?? {})) queue.push({ dep, from, to, optional: false });
    for (const dep of Object.keys(entry.optionalDependencies ?? {})) queue.push({ dep, from, to, optional: true });
    for (const dep of Object.keys(entry.peerDependencies ?? {}))
      if (!entry.peerDependenciesMeta?.[dep]?.optional) queue.push({ dep, from, to, optional: false });
  };
  for (const p of packed) {
    const entry = repo[p.workspace]!;
    const at = `node_modules/${p.name}`;
    out[at] = {
      ...entry,
      resolved: `file:${p.tarball}`,
      integrity: `sha512-${createHash('sha512').update(readFileSync(p.tarball)).digest('base64')}`,
    };
    delete out[at]!.name;
    delete out[at]!.devDependencies;
    need(entry, p.workspace, at);
  }
  while (queue.length > 0) {
    const { dep, from, to, optional } = queue.shift()!;
    if (byName.has(dep)) continue;
    // Node's lookup: the folder's own node_modules, then each folder above it.
    let found: { repoPath: string; appPath: string } | undefined;
    for (let [r, a] = [from, to]; ; ) {
      const candidate = `${r ? `${r}/` : ''}node_modules/${dep}`;
      if (repo[candidate] && !repo[candidate].link) {
        found = { repoPath: candidate, appPath: `${a ? `${a}/` : ''}node_modules/${dep}` };
        break;
      }
      if (!r) break;
      r = parentPackage(r);
      a = parentPackage(a);
    }
    if (!found) {
      if (optional) continue;
      throw new Error(`${dep}, needed by ${from}, is not in the repository's lockfile`);
    }
    if (out[found.appPath]) continue;
    out[found.appPath] = { ...repo[found.repoPath]! };
    need(repo[found.repoPath]!, found.repoPath, found.appPath);
  }
  return { name, version: '1.0.0', lockfileVersion: 3, requires: true, packages: out };
}

/** The folder of the package that holds `path`'s package (`node_modules/a/node_modules/b` -> `node_modules/a`; `packages/x` -> ``). */
function parentPackage(path: string): string {
  const i = path.lastIndexOf('/node_modules/');
  return i < 0 ? '' : path.slice(0, i);
}

/** `npm pack` of `workspaces` into `dir`, then `npm ci --offline` of them in `dir/app`. Returns the app's folder. */
export function packAndInstall(
  repoRoot: string,
  dir: string,
  workspaces: readonly { name: string; workspace: string }[],
  env: NodeJS.ProcessEnv,
): string {
  const npm = process.platform === 'win32' ? 'npm.cmd' : 'npm';
  const packed = spawnSync(npm, ['pack', '--json', '--pack-destination', dir, ...workspaces.flatMap((w) => ['-w', w.name])], {
    cwd: repoRoot,
    encoding: 'utf8',
    env,
  });
  if (packed.status !== 0) throw new Error(`npm pack: ${packed.stderr}`);
  const files = (JSON.parse(packed.stdout) as { name: string; filename: string }[]).map((f) => ({
    name: f.name,
    file: basename(f.filename),
  }));
  const app = join(dir, 'app');
  const list: Packed[] = workspaces.map((w) => ({ ...w, tarball: join(dir, files.find((f) => f.name === w.name)!.file) }));
  const name = 'okit-packed-install';
  mkdirSync(app, { recursive: true });
  writeFileSync(
    join(app, 'package.json'),
    JSON.stringify({
      name,
      version: '1.0.0',
      private: true,
      dependencies: Object.fromEntries(list.map((p) => [p.name, `file:${p.tarball}`])),
    }),
  );
  const repoLock = JSON.parse(readFileSync(join(repoRoot, 'package-lock.json'), 'utf8')) as { packages: Record<string, LockEntry> };
  writeFileSync(join(app, 'package-lock.json'), JSON.stringify(lockfileFor(repoLock, list, name), null, 2));
  const installed = spawnSync(npm, ['ci', '--offline', '--omit=dev', '--no-audit', '--no-fund'], { cwd: app, encoding: 'utf8', env });
  if (installed.status !== 0) throw new Error(`npm ci --offline: ${installed.stdout}\n${installed.stderr}`);
  return app;
}
