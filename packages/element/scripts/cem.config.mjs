// @custom-elements-manifest/analyzer settings (scripts/manifest.ts runs it with --config).
// packagejson: false, because package.json names the manifest itself ("customElements").

/**
 * The analyzer also records each `dispatchEvent(new SomeEvent(...))` it sees, without a name
 * (the name lives in the event class). The JSDoc `@event` tags already list every event with
 * its name, type and detail, so the nameless duplicates are dropped.
 */
const dropNamelessEvents = {
  name: 'onboarding-kit:drop-nameless-events',
  packageLinkPhase({ customElementsManifest }) {
    for (const module of customElementsManifest.modules) {
      for (const declaration of module.declarations ?? []) {
        if (declaration.events) declaration.events = declaration.events.filter((event) => event.name);
      }
    }
  },
};

export default {
  globs: ['src/**/*.ts'],
  // The camera view and the hand-off panel are the flow's internal parts (their parts are
  // exported through the flow and documented there): one public custom element in the manifest.
  exclude: ['src/**/*.test.ts', 'src/**/*.spec.ts', 'src/**/test-helpers.ts', 'src/capture-view/**', 'src/handoff/handoff-panel.ts'],
  litelement: true,
  packagejson: false,
  plugins: [dropNamelessEvents],
};
