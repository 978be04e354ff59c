import type { LogFields, Logger } from '../logger.js';
import type { CompanionError } from './companion-error.js';

/** Hono environment of the companion app. */
export interface CompanionEnv {
  Variables: {
    requestId: string;
    /** Logger carrying this request's id. */
    log: Logger;
    /** Fields a route adds to its request's log line (middleware/request-log.ts). */
    requestLine?: LogFields;
    /** Set by the hosted pages' routes: how the one `onError` renders their errors (as a page, not JSON). */
    errorPage?: (error: CompanionError) => Response | Promise<Response>;
  };
}
