/** The retry schedule: waits that double from the first, up to a longest one. */

type ScheduleConfig = { firstDelayMs: number; maxDelayMs: number };

/** The wait after the `attempts`-th failed try. */
export function retryDelay(attempts: number, cfg: ScheduleConfig): number {
  const doubled = cfg.firstDelayMs * 2 ** Math.min(Math.max(0, attempts - 1), 40);
  return Math.min(doubled, cfg.maxDelayMs);
}

/** The waits the schedule has spent after `failedTries` failed tries. */
export function scheduledWait(failedTries: number, cfg: ScheduleConfig): number {
  let total = 0;
  for (let i = 1; i <= failedTries; i++) total += retryDelay(i, cfg);
  return total;
}
