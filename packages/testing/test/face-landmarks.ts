/**
 * @vladmandic/face-api in Node, with no native code: its Node build for tfjs's WebAssembly
 * backend, and the weights the package ships, read from disk. Reads one face per frame: the
 * yaw (the nose tip's horizontal offset from the eyes' midpoint over the interocular distance)
 * and the face box's width.
 */
import { readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import * as faceapi from '@vladmandic/face-api/dist/face-api.node-wasm.js';

export interface FaceReading {
  yaw: number;
  width: number;
}

type Net = { loadFromWeightMap(map: ReturnType<typeof faceapi.tf.io.decodeWeights>): void };
type Point = { x: number; y: number };

const centre = (points: Point[]): Point => ({
  x: points.reduce((s, p) => s + p.x, 0) / points.length,
  y: points.reduce((s, p) => s + p.y, 0) / points.length,
});

/** Loads the tiny detector and both 68-point landmark models from the directory of `anyModelFile`. */
export async function landmarkModels(anyModelFile: string) {
  const { nets } = faceapi;
  // The typings the package ships leave out tfjs's backend functions.
  const tf = faceapi.tf as typeof faceapi.tf & { setBackend(name: string): Promise<boolean>; ready(): Promise<void> };
  await tf.setBackend('wasm');
  await tf.ready();
  const dir = dirname(anyModelFile);
  const load = (net: Net, name: string) => {
    const manifest = JSON.parse(readFileSync(join(dir, `${name}-weights_manifest.json`), 'utf8')) as {
      weights: Parameters<typeof tf.io.decodeWeights>[1];
    }[];
    const bin = readFileSync(join(dir, `${name}.bin`));
    net.loadFromWeightMap(
      tf.io.decodeWeights(
        bin.buffer.slice(bin.byteOffset, bin.byteOffset + bin.length),
        manifest.flatMap((group) => group.weights),
      ),
    );
  };
  load(nets.tinyFaceDetector, 'tiny_face_detector_model');
  load(nets.faceLandmark68TinyNet, 'face_landmark_68_tiny_model');
  load(nets.faceLandmark68Net, 'face_landmark_68_model');
  return {
    /** One RGB frame's face; fails when there is none. */
    async read(rgb: Uint8Array, width: number, height: number, model: 'tiny' | 'full'): Promise<FaceReading> {
      const input = tf.tensor3d(rgb, [height, width, 3], 'int32');
      try {
        const face = await faceapi
          .detectSingleFace(input, new faceapi.TinyFaceDetectorOptions({ inputSize: 416 }))
          .withFaceLandmarks(model === 'tiny');
        if (!face) throw new Error('no face found in the frame');
        const left = centre(face.landmarks.getLeftEye());
        const right = centre(face.landmarks.getRightEye());
        const nose = face.landmarks.positions[30]!;
        const interocular = Math.hypot(right.x - left.x, right.y - left.y);
        return { yaw: (nose.x - (left.x + right.x) / 2) / interocular, width: face.detection.box.width };
      } finally {
        input.dispose();
      }
    },
  };
}
