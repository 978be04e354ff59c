import { lazyOnce } from '../messages/lazy-once.js';

/**
 * The image pipeline (`onboarding-flow.pipeline.js` beside the script-tag bundles, a chunk of the
 * npm build), loaded on the first photo so that the compression library stays out of the
 * element's first load; a failed load is tried again on the next photo.
 */
export const loadPipeline: () => Promise<typeof import('../image/pipeline.js')> = lazyOnce(
  () => import('../image/pipeline.js'),
  'pipeline',
);
