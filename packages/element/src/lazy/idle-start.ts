/** Starting a worker ahead of the step that needs it, without taking the page's time from the person. */

/** The longest a step waits for an idle moment before the worker is started anyway. */
const IDLE_WAIT_MS = 2_000;

/** `start` at the browser's next idle moment (at the latest after 2 s), once per page; never where the page has no workers. */
export function idleStartOnce(start: () => void): () => void {
  let scheduled = false;
  return () => {
    if (scheduled || typeof Worker !== 'function') return;
    scheduled = true;
    if (typeof requestIdleCallback === 'function') requestIdleCallback(start, { timeout: IDLE_WAIT_MS });
    else setTimeout(start, IDLE_WAIT_MS);
  };
}
