/**
 * The liveness worker's face model: `@vladmandic/face-api`'s tiny face detector and tiny 68-point
 * landmarks, on TensorFlow.js's WASM backend, its weights and the backend's `.wasm` fetched from
 * beside the worker script. WASM because it runs in a worker in all three engines and was about ten
 * times faster than the CPU backend in each; WebGL did not start in a worker in Firefox and WebKit
 * here (docs/page-api.md#liveness-challenge has the figures). The `.wasm` matches the TensorFlow.js
 * face-api bundles (4.22.0, pinned). Frames go in as tensors, so face-api never needs a DOM canvas.
 */
import * as faceapi from '@vladmandic/face-api';
import type { FaceAnalysis, FaceLook } from './liveness-protocol.js';
import { outlineOf, yawOf } from './face-pose.js';
import { countsWhole, keptInSquare, nextTrack, trackSquare, type FaceTrack, type PixelBox } from './face-track.js';
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
/** The detector's input in the square around a followed face (face-track.ts), px: the face is about half its side there, and a miss only means a look at the whole frame. */
const SQUARE_INPUT_SIZE = 96;
/** The detector's input when the whole frame's faces are counted beside a followed face, px: a second person as near as the first. */
const COUNT_INPUT_SIZE = 160;
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

/** What one look found: the faces, the largest's outline in the frame's pixels, and its yaw. */
interface Look {
  faces: number;
  box?: PixelBox;
  yaw?: number;
}

/** Looks for faces in `region` of `input` (the whole frame when absent), the detector at `inputSize`. */
async function look(input: faceapi.tf.Tensor3D, inputSize: number, region?: PixelBox): Promise<Look> {
  const part = region ? tf.slice(input, [region.y, region.x, 0], [region.height, region.width, 3]) : input;
  try {
    const options = new faceapi.TinyFaceDetectorOptions({ inputSize, scoreThreshold: SCORE_THRESHOLD });
    const found = await faceapi.detectAllFaces(part, options).withFaceLandmarks(true);
    if (found.length === 0) return { faces: 0 };
    const largest = found.reduce((a, b) => (b.detection.box.width > a.detection.box.width ? b : a));
    // The face by its landmarks, not the detector's box: the box's size moves with the detector's
    // input (a look at the whole frame and one in the square differed by a third), the landmarks' did not.
    const { x, y, width, height } = outlineOf(largest.landmarks.positions);
    // The yaw is a ratio of distances between landmarks: the same in the region as in the frame.
    const yaw = yawOf(largest.landmarks.positions);
    return {
      faces: found.length,
      box: { x: x + (region?.x ?? 0), y: y + (region?.y ?? 0), width, height },
      ...(yaw !== null && { yaw }),
    };
  } finally {
    if (part !== input) part.dispose();
  }
}

/** The faces the detector finds in the whole frame, counted without their landmarks. */
async function countFaces(input: faceapi.tf.Tensor3D): Promise<number> {
  const options = new faceapi.TinyFaceDetectorOptions({ inputSize: COUNT_INPUT_SIZE, scoreThreshold: SCORE_THRESHOLD });
  return (await faceapi.detectAllFaces(input, options)).length;
}

/** The face followed across the frames of one video (face-track.ts). */
let followed: FaceTrack | null = null;

/**
 * Faces in one frame, and for the largest its outline and yaw (face-pose.ts). `video` names the
 * video the frame comes from: successive frames of one video follow its face in a square around
 * where it was (face-track.ts); a frame without it is looked at whole.
 */
export async function analyseFrame(frame: ImageBitmap, video?: number): Promise<{ analysis: FaceAnalysis; look: FaceLook }> {
  const input = frameTensor(frame);
  try {
    const [height, width] = input.shape;
    const square = trackSquare(followed, video, width, height);
    let found = square ? await look(input, SQUARE_INPUT_SIZE, square) : null;
    if (found && (found.faces === 0 || !keptInSquare(found.box!, square!, width, height))) found = null;
    const counted = found !== null && countsWhole(followed!);
    if (found && counted) found = { ...found, faces: Math.max(found.faces, await countFaces(input)) };
    const inSquare = found !== null;
    found ??= await look(input, INPUT_SIZE);
    followed = nextTrack(followed, video, { ...found, inSquare, counted });
    const { faces, box, yaw } = found;
    const where: FaceLook = !inSquare ? 'whole' : counted ? 'square+count' : 'square';
    if (!box) return { analysis: { faces }, look: where };
    const analysis = {
      faces,
      box: { x: box.x / width, y: box.y / height, width: box.width / width, height: box.height / height },
      ...(yaw !== undefined && { yaw }),
    };
    return { analysis, look: where };
  } finally {
    input.dispose();
  }
}
