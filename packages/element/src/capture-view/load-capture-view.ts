import { LitElement, css, html, nothing, svg } from 'lit';
import { cssProperty } from '../directives/css-property.js';
import { lazyOnce } from '../messages/lazy-once.js';

import type { cameraErrorTexts } from './camera-error-texts.js';

/**
 * Loads and defines `<onboarding-capture-view>` once (a failed load is tried again next time),
 * handing it the element's own Lit so the lazy file carries no copy of it. Resolves with the
 * camera's error texts, which come with it.
 */
export const loadCaptureView: () => Promise<typeof cameraErrorTexts> = lazyOnce(
  () =>
    import('./capture-view.js').then((module) => {
      module.defineCaptureView({ LitElement, html, svg, css, nothing, cssProperty });
      return module.cameraErrorTexts;
    }),
  'capture-view',
);
