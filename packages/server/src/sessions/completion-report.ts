/**
 * The upstream report behind a session's completion (docs/backend-api.md#the-reports-services):
 * the session keeps the report's `services` member. The report that brought the final status comes
 * with it through the status hook; a completion without it (the sweep catching up, an outcome faster
 * than the submission) reads the report once more.
 */
import type { Logger } from '../logger.js';
import type { OnboardingRecord, Store } from '../store/index.js';

/** What the report that brought a status said beyond the status. */
export interface ReportExtras {
  services?: unknown;
}

export type ReadReport = (tokenOnboarding: string) => Promise<ReportExtras>;

/** The report of a finished onboarding whose session still waits for it; none when it cannot be read (logged). */
export async function completionReport(
  record: OnboardingRecord,
  deps: { readReport?: ReadReport | undefined; store: Pick<Store, 'getSession'>; logger: Logger },
): Promise<ReportExtras | undefined> {
  const { readReport, store, logger } = deps;
  if (!readReport || !record.sessionId) return undefined;
  const session = await store.getSession(record.sessionId);
  if (session?.status !== 'submitted' || session.tokenOnboarding !== record.tokenOnboarding) return undefined;
  try {
    return await readReport(record.tokenOnboarding);
  } catch (error) {
    logger.warn('report not read at completion: the session keeps no services', { sessionId: record.sessionId, error });
    return undefined;
  }
}
