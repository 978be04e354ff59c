/**
 * `dist/hosting-manifest.json`: every file a page that loads `<onboarding-flow>` by script tag
 * serves in the script's directory (the script itself, then each file it or another listed file
 * fetches from beside itself), with its size and a Subresource Integrity hash of the file just
 * built. Docs point at it instead of repeating the list; test/hosting-manifest.test.ts checks
 * that the built JavaScript asks for exactly these files, so a new lazy file cannot be left out.
 */
import { createHash } from 'node:crypto';
import { readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import {
  AFTER_SEND_FILE,
  BUNDLE_FILE,
  CAPTURE_VIEW_FILE,
  CONSENT_TEXT_FILE,
  HANDOFF_FILE,
  IIFE_FILE,
  IMAGE_WORKER_FILE,
  LIVENESS_WORKER_FILE,
  PHOTO_STEPS_FILE,
  PIPELINE_FILE,
  READER_WORKER_FILE,
} from '../vite.config.js';
import { LIVENESS_FILES } from '../src/liveness/model-files.js';

export const HOSTING_MANIFEST_FILE = 'hosting-manifest.json';

export type HostedKind = 'module script' | 'classic script' | 'module' | 'worker' | 'worker data';

/** What each hosted file is, in the order a person's walk through the flow first asks for it. */
const HOSTED_FILES: readonly { file: string; kind: HostedKind; loaded: string }[] = [
  { file: BUNDLE_FILE, kind: 'module script', loaded: 'by <script type="module" src> (the module form)' },
  { file: IIFE_FILE, kind: 'classic script', loaded: 'by <script src> (the classic form)' },
  { file: CONSENT_TEXT_FILE, kind: 'module', loaded: 'when the element connects (the full consent text)' },
  { file: PHOTO_STEPS_FILE, kind: 'module', loaded: 'during the consent and data steps (every step after them)' },
  { file: READER_WORKER_FILE, kind: 'worker', loaded: 'during the data steps, when the browser is idle (reads the document photos)' },
  {
    file: LIVENESS_WORKER_FILE,
    kind: 'worker',
    loaded: 'during the document steps, when the browser is idle (the selfie’s face check and liveness challenge)',
  },
  ...LIVENESS_FILES.map((file) => ({
    file,
    kind: 'worker data' as const,
    loaded: 'by the liveness worker, when it starts (the face model and TensorFlow.js’s WASM: one of the two .wasm files)',
  })),
  { file: CAPTURE_VIEW_FILE, kind: 'module', loaded: 'when the camera opens' },
  { file: PIPELINE_FILE, kind: 'module', loaded: 'on the first photo' },
  { file: IMAGE_WORKER_FILE, kind: 'worker', loaded: 'on the first photo, started by the pipeline' },
  { file: AFTER_SEND_FILE, kind: 'module', loaded: 'at the review, or when a reload resumes a wait' },
  { file: HANDOFF_FILE, kind: 'module', loaded: 'when the person hands off to a phone, or a reload finds a phone holding the session' },
];

export interface HostingManifest {
  about: string;
  /** The script a page includes: one of the two forms. */
  scripts: { module: string; classic: string };
  files: { file: string; kind: HostedKind; loaded: string; bytes: number; integrity: string }[];
}

const ABOUT =
  'Every file a page that loads <onboarding-flow> by script tag serves, all in the directory of the script ' +
  "(the element fetches the others from beside it). A page using one form may leave out the other form's script; " +
  "the .map files are optional. `integrity` is the file's Subresource Integrity hash (for <script integrity>).";

/** Reads the built files in `outDir` and writes the manifest beside them. */
export async function writeHostingManifest(outDir: string): Promise<HostingManifest> {
  const files = await Promise.all(
    HOSTED_FILES.map(async (entry) => {
      const bytes = await readFile(join(outDir, entry.file));
      return { ...entry, bytes: bytes.length, integrity: `sha384-${createHash('sha384').update(bytes).digest('base64')}` };
    }),
  );
  const manifest: HostingManifest = { about: ABOUT, scripts: { module: BUNDLE_FILE, classic: IIFE_FILE }, files };
  await writeFile(join(outDir, HOSTING_MANIFEST_FILE), `${JSON.stringify(manifest, null, 2)}\n`);
  return manifest;
}
