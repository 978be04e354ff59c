/** What the admin routes need from the companion: its settings, its upstream client and its store. */
import type { DocumentReading, KeptAnyway, SessionChecks, SessionIntegrity } from '@onboarding-kit/contract';
import type { EvidenceHistoryEntry } from '../evidence/manifest.js';
import type { ApiKeyring } from '../auth/api-keys.js';

export interface AdminOnboardingRecord {
  tokenOnboarding: string;
  status: string;
  createdAt: string;
  updatedAt: string;
  externalId?: string;
  history: EvidenceHistoryEntry[];
  keptAnyway?: KeptAnyway;
  /** The instant checks of the onboarding's session, when it asked for some. */
  checks?: SessionChecks;
  /** What the page read from the document photos, when it read something. */
  documentReading?: DocumentReading;
  /** The capture integrity of the onboarding's session, and its keyframes (JPEG, base64). */
  integrity?: SessionIntegrity;
  keyframes?: string[];
}

export interface AdminDeps {
  /** The operator's key. With `apiKeys`, one more key the routes accept; at least one of the two is needed. */
  adminKey?: string;
  /** The integrator's backend API keys (docs/backend-api.md#api-keys), accepted on every admin route. */
  apiKeys?: ApiKeyring;
  environment: string;
  kitVersion: string;
  upstream: {
    report(token: string): Promise<unknown>;
    reportPdf(token: string): Promise<Response>;
    customers(documentKey: string): Promise<unknown>;
  };
  /** What this companion remembers; a token it does not know is still served from the upstream, without a status history. */
  store: { get(token: string): Promise<AdminOnboardingRecord | null> };
}
