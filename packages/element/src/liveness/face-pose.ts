/**
 * What the challenge reads from the 68 face landmarks (the iBUG 300-W layout the landmark model
 * gives): where the nose tip sits between the eyes, and the face's outline. Pure, so the rules' tests need no model.
 */

export interface Point {
  x: number;
  y: number;
}

/** Indexes in the 68-point layout. */
const NOSE_TIP = 30;
const LEFT_EYE = [36, 37, 38, 39, 40, 41] as const;
const RIGHT_EYE = [42, 43, 44, 45, 46, 47] as const;

function centre(points: readonly Point[], indexes: readonly number[]): Point {
  let x = 0;
  let y = 0;
  for (const i of indexes) {
    x += points[i]!.x;
    y += points[i]!.y;
  }
  return { x: x / indexes.length, y: y / indexes.length };
}

/**
 * The nose tip's offset from the eyes' midpoint, measured along the line through the eyes (so a
 * tilted head reads the same) over the distance between the eyes. A frontal face reads about 0;
 * the nose moves towards the side the head turns to. Null when the points are not 68 or the eyes
 * coincide.
 */
export function yawOf(points: readonly Point[]): number | null {
  if (points.length !== 68) return null;
  const a = centre(points, LEFT_EYE);
  const b = centre(points, RIGHT_EYE);
  const dx = b.x - a.x;
  const dy = b.y - a.y;
  const distance = Math.hypot(dx, dy);
  if (distance === 0) return null;
  const nose = points[NOSE_TIP]!;
  const along = (nose.x - (a.x + b.x) / 2) * dx + (nose.y - (a.y + b.y) / 2) * dy;
  // Projected on a unit vector that points to the frame's right whichever eye is listed first.
  return (Math.sign(dx) || 1) * (along / distance / distance);
}

/** The box around all the points: the face from the brows to the chin and from one side of the jaw to the other. */
export function outlineOf(points: readonly Point[]): { x: number; y: number; width: number; height: number } {
  let left = Infinity;
  let top = Infinity;
  let right = -Infinity;
  let bottom = -Infinity;
  for (const { x, y } of points) {
    left = Math.min(left, x);
    top = Math.min(top, y);
    right = Math.max(right, x);
    bottom = Math.max(bottom, y);
  }
  return { x: left, y: top, width: right - left, height: bottom - top };
}
