/**
 * The liveness worker's face model: `@vladmandic/face-api`'s tiny face detector and tiny 68-point
 * landmarks, on TensorFlow.js's WASM backend, its weights and the backend's `.wasm` fetched from
 * beside the worker script. WASM because it runs in a worker in all three engines and was about ten
 * times faster than the CPU backend in each; WebGL did not start in a worker in Firefox and WebKit
 * here (docs/page-api.md#liveness-challenge has the figures). The `.wasm` matches the TensorFlow.js
 * face-api bundles (4.22.0, pinned). Frames go in as tensors, so face-api never needs a DOM canvas.
 */
import * as faceapi from '@vladmandic/face-api';
import type { FaceAnalysis } from './liveness-protocol.js';
import { yawOf } from './face-pose.js';
import { FACE_DETECTOR_FILES, FACE_LANDMARKS_FILES, TFJS_WASM_FILES } from './model-files.js';

/** The bundled TensorFlow.js, with the members face-api's declarations leave out. */
const tf = faceapi.tf as typeof faceapi.tf & {
  env(): { set(flag: string, value: unknown): void };
  setWasmPaths(files: Record<string, string>): void;
  setBackend(name: string): Promise<boolean>;
  ready(): Promise<void>;
};

/** The detector's input square, px (a multiple of 32): 224 finds a selfie's face in a 320 px frame. */
const INPUT_SIZE = 224;
/** Below this score a detection is not a face. */
const SCORE_THRESHOLD = 0.5;
/** The long edge frames are analysed at, px: enough for the detector's input, cheap to read back. */
const ANALYSIS_LONG_EDGE = 320;

interface WeightsManifest {
  paths: string[];
  weights: unknown[];
}

/** Loads a net from its weights manifest and the one weights file it names, both beside `base`. */
async function loadNet(
  net: { loadFromWeightMap(map: unknown): void },
  files: { manifest: string; weights: string },
  base: string,
): Promise<void> {
  const manifestUrl = new URL(files.manifest, base);
  const response = await fetch(manifestUrl);
  if (!response.ok) throw new Error(`${manifestUrl.pathname} answered ${response.status}`);
  const groups = (await response.json()) as WeightsManifest[];
  if (groups.length !== 1) throw new Error(`${manifestUrl.pathname} has ${groups.length} weight groups, not 1`);
  // The weights file by the name hosted (the manifest's own path names the same file), beside the manifest.
  const manifest = [{ ...groups[0]!, paths: [files.weights.replace(/^\.\//, '')] }];
  const map = await tf.io.loadWeights(manifest as Parameters<typeof tf.io.loadWeights>[0], new URL('./', manifestUrl).href);
  net.loadFromWeightMap(map);
}

/** What nothing here is an instance of: frames reach face-api as tensors, never as media elements. */
class NoMedia {}
const refuse = () => {
  throw new Error('the liveness worker has no DOM media elements');
};

/**
 * face-api asks for its environment even for a tensor, and finds none in a worker (no window, no
 * Node): it gets the worker's canvas and fetch, and media classes nothing is an instance of.
 */
function setWorkerEnvironment(): void {
  faceapi.env.setEnv({
    Canvas: OffscreenCanvas,
    CanvasRenderingContext2D: OffscreenCanvasRenderingContext2D,
    Image: NoMedia,
    ImageData,
    Video: NoMedia,
    createCanvasElement: () => new OffscreenCanvas(1, 1),
    createImageElement: refuse,
    createVideoElement: refuse,
    fetch: (url: string, init?: RequestInit) => fetch(url, init),
    readFile: refuse,
  } as unknown as faceapi.Environment);
}

let loading: Promise<void> | null = null;

/** Loads the backend and both nets once; a failed load is tried again on the next call. */
export function loadFaceModel(backend = 'wasm', base: string = self.location.href): Promise<void> {
  loading ??= (async () => {
    setWorkerEnvironment();
    if (backend === 'wasm') {
      // The threaded build needs a cross-origin isolated page and one more file: never asked for.
      tf.env().set('WASM_HAS_MULTITHREAD_SUPPORT', false);
      const hosted = Object.fromEntries(Object.entries(TFJS_WASM_FILES).map(([name, file]) => [name, new URL(file, base).href]));
      // The map must name the threaded build too; it is never asked for (above).
      tf.setWasmPaths({ ...hosted, 'tfjs-backend-wasm-threaded-simd.wasm': hosted['tfjs-backend-wasm-simd.wasm']! });
    }
    if (!(await tf.setBackend(backend))) throw new Error(`the ${backend} backend did not start`);
    await tf.ready();
    await Promise.all([
      loadNet(faceapi.nets.tinyFaceDetector, FACE_DETECTOR_FILES, base),
      loadNet(faceapi.nets.faceLandmark68TinyNet, FACE_LANDMARKS_FILES, base),
    ]);
  })().catch((error: unknown) => {
    loading = null;
    throw error;
  });
  return loading;
}

/** The frame's pixels at ANALYSIS_LONG_EDGE at most, as an RGB tensor. */
function frameTensor(frame: ImageBitmap): faceapi.tf.Tensor3D {
  const scale = Math.min(1, ANALYSIS_LONG_EDGE / Math.max(frame.width, frame.height));
  const width = Math.max(1, Math.round(frame.width * scale));
  const height = Math.max(1, Math.round(frame.height * scale));
  const context = new OffscreenCanvas(width, height).getContext('2d', { willReadFrequently: true });
  if (!context) throw new Error('no 2d context in the liveness worker');
  context.drawImage(frame, 0, 0, width, height);
  const { data } = context.getImageData(0, 0, width, height);
  const rgb = new Uint8Array(width * height * 3);
  for (let i = 0, p = 0; p < data.length; p += 4) {
    rgb[i++] = data[p]!;
    rgb[i++] = data[p + 1]!;
    rgb[i++] = data[p + 2]!;
  }
  return tf.tensor3d(rgb, [height, width, 3], 'int32');
}

/** Faces in one frame, and for the largest its box and yaw (face-pose.ts). */
export async function analyseFrame(frame: ImageBitmap): Promise<FaceAnalysis> {
  const input = frameTensor(frame);
  try {
    const options = new faceapi.TinyFaceDetectorOptions({ inputSize: INPUT_SIZE, scoreThreshold: SCORE_THRESHOLD });
    const found = await faceapi.detectAllFaces(input, options).withFaceLandmarks(true);
    if (found.length === 0) return { faces: 0 };
    const largest = found.reduce((a, b) => (b.detection.box.width > a.detection.box.width ? b : a));
    const { box, imageWidth, imageHeight } = largest.detection;
    const yaw = yawOf(largest.landmarks.positions);
    return {
      faces: found.length,
      box: { x: box.x / imageWidth, y: box.y / imageHeight, width: box.width / imageWidth, height: box.height / imageHeight },
      ...(yaw !== null && { yaw }),
    };
  } finally {
    input.dispose();
  }
}
