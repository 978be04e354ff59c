/**
 * Webcam-like frame sequences made from the astronaut portrait
 * (packages/element/test/fixtures/faces/astronaut.jpg) for the selfie's liveness challenge: a
 * still photo, head turns, coming closer, and a loop of all three. Pure and isomorphic: Node
 * writes them as Y4M for Chromium's fake camera (y4m.mjs), browsers paint them into a canvas
 * stream (liveness-camera.ts), from the same poses and the same warp.
 *
 * A turn is a smooth sideways warp of the face's centre: the nose, mouth and chin move, the eyes
 * much less and their outer corners hardly at all, so the nose leaves the eyes' midline as it
 * does when a head turns. Directions are the person's: `turn-left` is the person turning to
 * their own left, which in the camera's frame (unmirrored, as getUserMedia delivers it) moves
 * the nose towards the frame's right, so yaw = (nose x - eyes' midpoint x) / interocular
 * distance grows positive.
 */

export const LIVENESS_SEQUENCES = ['still', 'turn-left', 'turn-right', 'come-closer', 'challenge'];
export const SEQUENCE_FPS = 15;
export const FRAME_WIDTH = 640;
export const FRAME_HEIGHT = 480;

/**
 * Where the face is in the 512 x 512 portrait, measured once with @vladmandic/face-api's
 * 68-point landmarks: the nose tip, the eyes' midpoint and their distance, the face box's centre.
 */
const FACE = { noseX: 224, eyeY: 102, noseY: 129, chinY: 192, interocular: 43, centreX: 220, centreY: 132 };
/**
 * The portrait's scale in a 480 px high frame (the detector's face box about 200 px wide), and how far
 * down the face's centre sits (in the selfie oval); taller frames scale both.
 */
const FRAMING = { scale: 1.6, y: 232 / 480 };
/** A full turn moves the nose this far (portrait pixels), and a full "come closer" scales by this. */
const TURN_SHIFT = 0.65 * FACE.interocular;
const TURN_SPREAD = 0.52 * FACE.interocular;
const CLOSER_ZOOM = 1.4;

const smoothstep = (a, b, v) => {
  const t = Math.min(1, Math.max(0, (v - a) / (b - a)));
  return t * t * (3 - 2 * t);
};
const ease = (t) => (1 - Math.cos(Math.PI * t)) / 2;

/** How much of the turn a row of the portrait takes: the eyes a third, nose to chin all, none above the brows. */
function rowWeight(y) {
  return (
    (0.35 + 0.65 * smoothstep(FACE.eyeY + 4, FACE.noseY - 8, y)) *
    smoothstep(FACE.eyeY - 30, FACE.eyeY - 12, y) *
    (1 - smoothstep(FACE.chinY - 5, FACE.chinY + 30, y))
  );
}

/** One motion, in frames: out to the pose, held, back, then a rest at the baseline. */
function motion(pose, { out, hold, back, pause }) {
  const frames = [];
  for (let i = 1; i <= out; i++) frames.push(scalePose(pose, ease(i / out)));
  for (let i = 0; i < hold; i++) frames.push(scalePose(pose, 1));
  for (let i = 1; i <= back; i++) frames.push(scalePose(pose, 1 - ease(i / back)));
  for (let i = 0; i < pause; i++) frames.push(BASELINE);
  return frames;
}
const BASELINE = Object.freeze({ turn: 0, zoom: 1 });
const scalePose = (pose, k) => ({ turn: pose.turn * k, zoom: 1 + (pose.zoom - 1) * k });
const rest = (n) => Array.from({ length: n }, () => BASELINE);

const LEFT = { turn: 1, zoom: 1 };
const RIGHT = { turn: -1, zoom: 1 };
const CLOSER = { turn: 0, zoom: CLOSER_ZOOM };
/** A 4 s loop at 15 fps: 0.5 s still, 1.2 s out, 0.8 s held, 1.2 s back, 0.3 s still. */
const SINGLE = { out: 18, hold: 12, back: 18, pause: 5 };
/** The challenge's motions are quicker (2 s each) so that the loop of three stays under 7 s. */
const QUICK = { out: 9, hold: 9, back: 9, pause: 3 };

/**
 * Each frame's pose: `turn` from -1 (a full turn to the person's right) to 1 (to their left),
 * `zoom` from 1 to 1.4. `still` has `frames` frames (30 by default: 2 s).
 */
export function sequencePoses(name, { frames = 30 } = {}) {
  switch (name) {
    case 'still':
      return rest(frames);
    case 'turn-left':
      return [...rest(7), ...motion(LEFT, SINGLE)];
    case 'turn-right':
      return [...rest(7), ...motion(RIGHT, SINGLE)];
    case 'come-closer':
      return [...rest(7), ...motion(CLOSER, SINGLE)];
    case 'challenge':
      // Every prompt once, so that a loop meets any two of them in either order.
      return [...rest(9), ...motion(LEFT, QUICK), ...motion(CLOSER, QUICK), ...motion(RIGHT, QUICK)];
    default:
      throw new RangeError(`no liveness sequence named "${name}" (there are: ${LIVENESS_SEQUENCES.join(', ')})`);
  }
}

/** The horizontal shift a turn gives a portrait point; the warp is its inverse at each output pixel. */
function turnShift(turn, x, y, weight) {
  const dx = (x - FACE.noseX) / TURN_SPREAD;
  return dx > 4 || dx < -4 ? 0 : turn * TURN_SHIFT * weight * Math.exp(-0.5 * dx * dx);
}

/**
 * One RGBA frame of the portrait (`{ width, height, rgba }`, 4 bytes a pixel, 640 x 480 unless
 * `size` says otherwise) in a pose. Bilinear sampling; beyond the portrait's edges its edge
 * pixels repeat.
 */
export function renderLivenessFrame(portrait, pose, { width = FRAME_WIDTH, height = FRAME_HEIGHT } = {}) {
  if (width % 2 || height % 2 || width < 2 || height < 2)
    throw new RangeError(`a frame needs an even width and height, not ${width}x${height}`);
  const { width: pw, height: ph, rgba: src } = portrait;
  const out = new Uint8ClampedArray(width * height * 4);
  const k = ((FRAMING.scale * height) / 480) * pose.zoom;
  for (let oy = 0; oy < height; oy++) {
    const y = (oy + 0.5 - FRAMING.y * height) / k + FACE.centreY;
    const weight = pose.turn === 0 ? 0 : rowWeight(y);
    for (let ox = 0; ox < width; ox++) {
      const px = (ox + 0.5 - width / 2) / k + FACE.centreX;
      // The source point q with q + shift(q) = p, by Newton's method (the shift's slope stays above -0.8).
      let x = px;
      if (weight > 0) {
        for (let i = 0; i < 4; i++) {
          const shift = turnShift(pose.turn, x, y, weight);
          x -= (x + shift - px) / (1 - (shift * (x - FACE.noseX)) / (TURN_SPREAD * TURN_SPREAD));
        }
      }
      sample(src, pw, ph, x - 0.5, y - 0.5, out, (oy * width + ox) * 4);
    }
  }
  return { width, height, rgba: out };
}

function sample(src, w, h, x, y, out, o) {
  const cx = Math.min(w - 1, Math.max(0, x));
  const cy = Math.min(h - 1, Math.max(0, y));
  const x0 = Math.min(w - 2, Math.floor(cx));
  const y0 = Math.min(h - 2, Math.floor(cy));
  const fx = cx - x0;
  const fy = cy - y0;
  const a = (y0 * w + x0) * 4;
  const b = a + 4;
  const c = a + w * 4;
  const d = c + 4;
  for (let ch = 0; ch < 3; ch++) {
    out[o + ch] = (src[a + ch] * (1 - fx) + src[b + ch] * fx) * (1 - fy) + (src[c + ch] * (1 - fx) + src[d + ch] * fx) * fy;
  }
  out[o + 3] = 255;
}

/**
 * A sequence's frames, rendered lazily: `frame(i)` renders each distinct pose once (a loop out
 * and back repeats its poses) and keeps it.
 */
export function livenessSequence(portrait, name, options = {}) {
  const poses = sequencePoses(name, options);
  const size = { width: options.width ?? FRAME_WIDTH, height: options.height ?? FRAME_HEIGHT };
  const rendered = new Map();
  return {
    name,
    poses,
    length: poses.length,
    ...size,
    frame(i) {
      const pose = poses[i];
      const key = `${pose.turn.toFixed(4)}/${pose.zoom.toFixed(4)}`;
      if (!rendered.has(key)) rendered.set(key, renderLivenessFrame(portrait, pose, size));
      return rendered.get(key);
    },
  };
}
