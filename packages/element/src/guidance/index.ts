/**
 * The live guidance the capture view runs over its preview: frame checks, steadiness, the
 * auto-capture decision and the sampler that ties them to a `<video>`. Loaded with the capture
 * view only, never by the element's first load.
 */
export {
  analyzeFrame,
  cardFit,
  ANALYSIS_LONG_EDGE,
  LIVE_THRESHOLDS,
  type AnalyzeOptions,
  type CardFit,
  type FrameAnalysis,
  type GuidanceHint,
} from './frame-analysis.js';
export { frameDifference, isSteady, STEADY_DIFFERENCE } from './steadiness.js';
export { AutoCaptureMachine, type AutoCaptureInput, type AutoCaptureOptions, type AutoCaptureState } from './auto-capture.js';
export { RegionReader, type PixelRect } from './region-reader.js';
export {
  startFrameSampler,
  DEFAULT_MARGIN,
  type FrameFractions,
  type FrameSampler,
  type FrameSamplerOptions,
  type GuidanceUpdate,
  type RemoteSample,
  type SampleTiming,
} from './frame-sampler.js';
