import type { Logger } from '../logger.js';

/** Hono environment of the companion app. */
export interface CompanionEnv {
  Variables: {
    requestId: string;
    /** Logger carrying this request's id. */
    log: Logger;
  };
}
