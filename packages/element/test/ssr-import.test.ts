/**
 * The element module must import under plain Node (SSR, build tools): no DOM access at module
 * level. Lit's Node build brings @lit-labs/ssr-dom-shim, which gives HTMLElement and a
 * customElements registry, so the element is even defined.
 */
import test from 'node:test';
import assert from 'node:assert/strict';

test('src/index.ts imports under Node without a DOM', async () => {
  assert.equal(typeof (globalThis as { document?: unknown }).document, 'undefined');
  const mod = await import('@onboarding-kit/element');
  assert.equal(typeof mod.OnboardingFlow, 'function');
  assert.equal(typeof mod.OnboardingStepChangeEvent, 'function');
  assert.equal(mod.resolveLocale('es-AR'), 'es');
  // Lit's Node build brings a customElements registry (@lit-labs/ssr-dom-shim), and the module
  // registers its tag there as in a browser.
  assert.equal(typeof customElements, 'object', 'the SSR shim provides a customElements registry');
  assert.equal(customElements.get('onboarding-flow'), mod.OnboardingFlow);
});

test('events are typed CustomEvents that bubble and cross shadow roots', async () => {
  const { OnboardingCompleteEvent } = await import('@onboarding-kit/element');
  const event = new OnboardingCompleteEvent({ tokenOnboarding: 't', status: 'APPROVED' });
  assert.equal(event.type, 'onboarding-complete');
  assert.equal(event.bubbles, true);
  assert.equal(event.composed, true);
  assert.deepEqual(event.detail, { tokenOnboarding: 't', status: 'APPROVED' });
});
