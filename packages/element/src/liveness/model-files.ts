/**
 * The files the liveness worker fetches from beside itself, each named as a relative URL (so the
 * hosting manifest's check finds them in the built worker). The face model's, as
 * `@vladmandic/face-api` ships them in its `model/` folder: the tiny face detector and the tiny
 * 68-point landmark model, each a weights manifest and the one weights file it names.
 */
export const FACE_DETECTOR_FILES = {
  manifest: './tiny_face_detector_model-weights_manifest.json',
  weights: './tiny_face_detector_model.bin',
} as const;
export const FACE_LANDMARKS_FILES = {
  manifest: './face_landmark_68_tiny_model-weights_manifest.json',
  weights: './face_landmark_68_tiny_model.bin',
} as const;

/** TensorFlow.js's WASM backend (`@tensorflow/tfjs-backend-wasm`'s dist), by the name the backend asks for. */
export const TFJS_WASM_FILES = {
  'tfjs-backend-wasm-simd.wasm': './tfjs-backend-wasm-simd.wasm',
  'tfjs-backend-wasm.wasm': './tfjs-backend-wasm.wasm',
} as const;

/** Every file above, without its `./`. */
export const LIVENESS_FILES: readonly string[] = [
  ...Object.values(FACE_DETECTOR_FILES),
  ...Object.values(FACE_LANDMARKS_FILES),
  ...Object.values(TFJS_WASM_FILES),
].map((file) => file.slice(2));
