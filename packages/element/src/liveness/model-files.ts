/**
 * The files the liveness worker fetches from beside itself. The face model's files, as `@vladmandic/face-api` ships them in its `model/` folder: the tiny
 * face detector and the tiny 68-point landmark model, each a weights manifest and its weights.
 * The build copies them beside the liveness worker, and the worker fetches them from there.
 */
export const FACE_DETECTOR_MANIFEST = 'tiny_face_detector_model-weights_manifest.json';
export const FACE_LANDMARKS_MANIFEST = 'face_landmark_68_tiny_model-weights_manifest.json';

export const FACE_MODEL_FILES = [
  FACE_DETECTOR_MANIFEST,
  'tiny_face_detector_model.bin',
  FACE_LANDMARKS_MANIFEST,
  'face_landmark_68_tiny_model.bin',
] as const;

/** TensorFlow.js's WASM backend (`@tensorflow/tfjs-backend-wasm`'s dist): SIMD where the engine has it, plain elsewhere. */
export const TFJS_WASM_FILES = ['tfjs-backend-wasm-simd.wasm', 'tfjs-backend-wasm.wasm'] as const;
