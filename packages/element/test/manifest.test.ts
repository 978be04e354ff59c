/**
 * custom-elements.json, generated fresh from the source (as the build does), describes
 * `<onboarding-flow>` fully: its attributes and properties, events, CSS parts, CSS custom
 * properties and slots, as the element's JSDoc and Lit properties declare them.
 */
import test, { after, before } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { generateManifest, PACKAGE_DIR, MANIFEST_FILE } from '../scripts/manifest.js';
import { ONBOARDING_EVENTS } from '../src/event-names.js';

interface Named {
  name: string;
  description?: string;
  type?: { text: string };
  fieldName?: string;
  kind?: string;
  privacy?: string;
  static?: boolean;
}
interface Declaration extends Named {
  customElement?: boolean;
  tagName?: string;
  attributes?: Named[];
  members?: Named[];
  events?: Named[];
  cssParts?: Named[];
  cssProperties?: Named[];
  slots?: Named[];
}
interface Manifest {
  schemaVersion: string;
  modules: { path: string; declarations?: Declaration[]; exports?: { kind: string; name: string }[] }[];
}

let dir: string;
let manifest: Manifest;
let element: Declaration;
before(async () => {
  dir = await mkdtemp(join(tmpdir(), 'onboarding-cem-'));
  manifest = JSON.parse(await readFile(await generateManifest(dir), 'utf8')) as Manifest;
  const found = manifest.modules.flatMap((m) => m.declarations ?? []).filter((d) => d.customElement);
  assert.equal(found.length, 1, 'exactly one custom element');
  element = found[0]!;
});
after(() => rm(dir, { recursive: true, force: true }));

const names = (list: Named[] | undefined) => (list ?? []).map((x) => x.name).sort();

test('the manifest declares onboarding-flow, defined by its module', () => {
  assert.equal(element.tagName, 'onboarding-flow');
  assert.equal(element.name, 'OnboardingFlow');
  const module = manifest.modules.find((m) => m.declarations?.includes(element))!;
  assert.ok(module.exports?.some((e) => e.kind === 'custom-element-definition' && e.name === 'onboarding-flow'));
});

test('attributes map to their properties', () => {
  const attributes = Object.fromEntries((element.attributes ?? []).map((a) => [a.name, a.fieldName]));
  assert.deepEqual(attributes, {
    endpoint: 'endpoint',
    locale: 'locale',
    'document-types': 'documentTypes',
    cpf: 'cpf',
    name: 'name',
    'max-image-bytes': 'maxImageBytes',
    'max-long-edge': 'maxLongEdge',
    'manual-capture': 'manualCapture',
    session: 'session',
    handoff: 'handoff',
    'controller-name': 'controllerName',
    'privacy-url': 'privacyUrl',
  });
  const publicMembers = (element.members ?? []).filter((m) => (m.privacy ?? 'public') === 'public' && !m.name.startsWith('#') && !m.static);
  for (const name of ['endpoint', 'locale', 'documentTypes', 'cpf', 'name', 'maxImageBytes', 'maxLongEdge', 'session', 'start', 'reset']) {
    assert.ok(
      publicMembers.some((m) => m.name === name),
      `member ${name}`,
    );
  }
  // Private state and the access key never appear as public API.
  assert.ok(!publicMembers.some((m) => /accessKey|captures|step$/.test(m.name)), names(publicMembers).join());
});

test('events: every onboarding-* event with its class and details, nothing nameless', () => {
  assert.deepEqual(names(element.events), [...ONBOARDING_EVENTS].sort());
  const complete = element.events!.find((e) => e.name === 'onboarding-complete')!;
  assert.equal(complete.type?.text, 'OnboardingCompleteEvent');
  assert.match(complete.description ?? '', /tokenOnboarding, status/);
});

test('CSS parts, CSS custom properties and slots, each described', () => {
  assert.deepEqual(names(element.cssParts), [
    'actions',
    'back',
    'base',
    'body',
    'button',
    'button-link',
    'button-primary',
    'camera-app',
    'capture-back',
    'capture-close',
    'capture-hint',
    'capture-picture',
    'capture-switch',
    'capture-tips',
    'capture-view',
    'continue',
    'document-hints',
    'document-prefill',
    'error',
    'face-tips',
    'guide',
    'handoff',
    'handoff-code',
    'handoff-qr',
    'handoff-start',
    'handoff-status',
    'header',
    'heading',
    'help-link',
    'intro-needs',
    'intro-photos',
    'keep-anyway',
    'liveness-prompt',
    'offline',
    'outcome',
    'preview',
    'progress',
    'proof-file',
    'retake',
    'shutter',
    'stage',
    'stage-current',
    'stages',
    'step',
    'support-code',
    'thumbnail',
    'video',
  ]);
  const properties = names(element.cssProperties);
  assert.equal(properties.length, 15);
  assert.ok(
    properties.every((p) => p.startsWith('--onboarding-')),
    properties.join(),
  );
  for (const p of ['--onboarding-color-primary', '--onboarding-radius', '--onboarding-font-family', '--onboarding-max-width'])
    assert.ok(properties.includes(p), p);
  assert.deepEqual(names(element.slots), [
    'consent-extra',
    'continue',
    'logo',
    'outcome-approved',
    'outcome-error',
    'outcome-refused',
    'refused-help',
  ]);
  for (const item of [...element.cssParts!, ...element.cssProperties!, ...element.slots!])
    assert.ok(item.description, `${item.name} has a description`);
});

test('package.json points tools at the manifest, which the build writes beside it', async () => {
  const pkg = JSON.parse(await readFile(join(PACKAGE_DIR, 'package.json'), 'utf8')) as { customElements: string; files: string[] };
  assert.equal(pkg.customElements, MANIFEST_FILE);
  assert.ok(pkg.files.includes(MANIFEST_FILE));
});
