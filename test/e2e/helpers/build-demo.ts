/**
 * Builds what `npm run build` builds for the demo, fresh from source, into a private temp
 * directory (so parallel runs and a developer's own dist/ never interfere): the element's
 * script-tag bundles (the element package's own buildBundles), then the demo pages with those
 * bundles copied in. `npm start` serves the result when ONBOARDING_DEMO_DIR points at it.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { build } from 'vite';
import { buildBundles } from '@onboarding-kit/element/internal/build-bundles';
import { demoConfig } from '../../../vite.config.js';

export interface BuiltDemo {
  /** The demo's output (index.html, react/, vue/, assets/, element/). */
  demoDir: string;
  /** The element's script-tag files as its package builds them. */
  elementDir: string;
  remove(): Promise<void>;
}

export async function buildDemo(): Promise<BuiltDemo> {
  const root = await mkdtemp(join(tmpdir(), 'onboarding-kit-e2e-'));
  const elementDir = join(root, 'element-dist');
  const demoDir = join(root, 'demo');
  try {
    await buildBundles(elementDir);
    await build({ configFile: false, ...demoConfig({ elementDist: elementDir, outDir: demoDir, logLevel: 'warn' }) });
  } catch (error) {
    await rm(root, { recursive: true, force: true });
    throw error;
  }
  return { demoDir, elementDir, remove: () => rm(root, { recursive: true, force: true }) };
}
