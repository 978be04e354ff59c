/**
 * Following one face across the successive frames of one video: once the whole frame showed one
 * face, the next frames look for it only in a square around where it was, at the detector's
 * smaller input, which costs the worker about half. Every frame followed reads the face in its
 * square, so that its size and yaw are measured alike from frame to frame; every TRACK.wholeEvery
 * frames the whole frame's faces are counted too, so that a second face coming in is seen within
 * a few frames. The face lost in the square or at its edge (it moved faster than the square
 * allows), the whole frame is looked at again. Pure, so its rules are tested without a model.
 */

/** A rectangle in the analysed frame's pixels. */
export interface PixelBox {
  x: number;
  y: number;
  width: number;
  height: number;
}

export const TRACK = {
  /** The square's side over the outline's larger side (face-pose.ts, outlineOf): the detector's whole face and room for a frame's movement. */
  squareScale: 2.6,
  /** One frame in this many has the whole frame's faces counted as well as the square looked at. */
  wholeEvery: 4,
  /** A face this close to an edge of the square that is not the frame's (a share of the side) may run past it. */
  edgeMargin: 0.04,
} as const;

/** What the worker remembers of one video: its id, the face's last box, and frames looked at in the square since the whole frame was last counted. */
export interface FaceTrack {
  video: number;
  box: PixelBox;
  squareFrames: number;
}

/**
 * The square to look in for the face of `track` in a frame of `width` x `height` from `video`;
 * null when the frame is to be looked at whole (another video, or none followed yet).
 */
export function trackSquare(track: FaceTrack | null, video: number | undefined, width: number, height: number): PixelBox | null {
  if (!track || video === undefined || track.video !== video) return null;
  const { box } = track;
  const side = Math.min(Math.round(Math.max(box.width, box.height) * TRACK.squareScale), width, height);
  const clamp = (start: number, room: number) => Math.round(Math.min(Math.max(start, 0), room - side));
  return {
    x: clamp(box.x + box.width / 2 - side / 2, width),
    y: clamp(box.y + box.height / 2 - side / 2, height),
    width: side,
    height: side,
  };
}

/** Whether this frame of the face followed has the whole frame's faces counted too (one in TRACK.wholeEvery). */
export function countsWhole(track: FaceTrack): boolean {
  return track.squareFrames >= TRACK.wholeEvery - 1;
}

/** Whether a face found in `square` lies inside it, clear of every edge of the square that is not the frame's own. */
export function keptInSquare(face: PixelBox, square: PixelBox, width: number, height: number): boolean {
  const margin = square.width * TRACK.edgeMargin;
  // `room`: from the face to the square's edge, inwards; an edge on the frame's own edge needs none.
  const clear = (room: number, edge: number, frameEdge: number) => edge === frameEdge || room > margin;
  return (
    clear(face.x - square.x, square.x, 0) &&
    clear(face.y - square.y, square.y, 0) &&
    clear(square.x + square.width - (face.x + face.width), square.x + square.width, width) &&
    clear(square.y + square.height - (face.y + face.height), square.y + square.height, height)
  );
}

/**
 * What the worker remembers after a frame of `video`: the one face found (whole, or in a square
 * with the whole frame `counted` or not), or nothing.
 */
export function nextTrack(
  track: FaceTrack | null,
  video: number | undefined,
  found: { faces: number; box?: PixelBox; inSquare: boolean; counted?: boolean },
): FaceTrack | null {
  if (video === undefined || found.faces !== 1 || !found.box) return null;
  const squareFrames = found.inSquare && !found.counted && track?.video === video ? track.squareFrames + 1 : 0;
  return { video, box: found.box, squareFrames };
}
