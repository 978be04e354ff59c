/**
 * Runs in a bench page: watches the main thread until the returned `stop` — long tasks where the
 * engine reports them (Chromium), and in every engine the longest gap in a chain of zero-delay
 * timers and between animation frames (each an upper bound on any task; the frame gap also counts
 * the engine's own frame scheduling).
 */
export interface MainThreadWatch {
  /** Longest `longtask` entry; null where the engine has none. */
  longestTask: number | null;
  longestTimerGap: number;
  longestFrameGap: number;
  /** Animation frames seen. */
  frames: number;
}

export function watchMainThread(): () => Promise<MainThreadWatch> {
  const supported = (PerformanceObserver.supportedEntryTypes ?? []).includes('longtask');
  let longestTask = 0;
  const observer = supported
    ? new PerformanceObserver((list) => {
        for (const entry of list.getEntries()) longestTask = Math.max(longestTask, entry.duration);
      })
    : null;
  observer?.observe({ type: 'longtask' });
  let watching = true;
  let longestTimerGap = 0;
  let last = performance.now();
  const timer = () => {
    const t = performance.now();
    longestTimerGap = Math.max(longestTimerGap, t - last);
    last = t;
    if (watching) setTimeout(timer, 0);
  };
  setTimeout(timer, 0);
  let longestFrameGap = 0;
  let frames = 0;
  let lastFrame: number | null = null;
  const frame = (t: number) => {
    if (lastFrame !== null) longestFrameGap = Math.max(longestFrameGap, t - lastFrame);
    lastFrame = t;
    frames++;
    if (watching) requestAnimationFrame(frame);
  };
  requestAnimationFrame(frame);
  return async () => {
    watching = false;
    // Long-task entries are delivered after the task: give them a moment, then collect the rest.
    await new Promise((resolve) => setTimeout(resolve, 100));
    for (const entry of observer?.takeRecords() ?? []) longestTask = Math.max(longestTask, entry.duration);
    observer?.disconnect();
    return { longestTask: supported ? longestTask : null, longestTimerGap, longestFrameGap, frames };
  };
}
