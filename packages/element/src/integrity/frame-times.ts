/**
 * Frame times of a live preview from `requestVideoFrameCallback`, where the engine has it: at most
 * `count` of them, then it stops by itself; `stop()` ends it sooner (the step closed). No callback
 * outlives either.
 */
/** The most faithful time of a frame: its capture, else its media time, else when it is shown. */
function frameTime(now: number, metadata: VideoFrameCallbackMetadata): number {
  if (metadata.captureTime !== undefined && metadata.captureTime > 0) return metadata.captureTime;
  if (metadata.mediaTime > 0) return metadata.mediaTime * 1000;
  return metadata.expectedDisplayTime || now;
}

export interface FrameTimes {
  stop(): void;
}

/** Samples `video`'s frame times, answering them once `count` are in (not when stopped sooner); null when the engine has no callback. */
export function sampleFrameTimes(video: HTMLVideoElement, count: number, done: (times: number[]) => void): FrameTimes | null {
  // Typed as always there; older engines have no such callback.
  if (typeof video.requestVideoFrameCallback !== 'function') return null;
  const times: number[] = [];
  let handle: number | null = null;
  const next = (): void => {
    handle = video.requestVideoFrameCallback((now, metadata) => {
      handle = null;
      times.push(frameTime(now, metadata));
      if (times.length >= count) done(times);
      else next();
    });
  };
  next();
  return {
    stop: () => {
      if (handle !== null) video.cancelVideoFrameCallback(handle);
      handle = null;
    },
  };
}
