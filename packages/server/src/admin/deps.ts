/** What the admin routes need from the companion: its settings, its upstream client and its store. */
import type { EvidenceHistoryEntry } from '../evidence/manifest.js';

export interface AdminOnboardingRecord {
  tokenOnboarding: string;
  status: string;
  createdAt: string;
  updatedAt: string;
  externalId?: string;
  history: EvidenceHistoryEntry[];
}

export interface AdminDeps {
  adminKey: string;
  environment: string;
  kitVersion: string;
  upstream: {
    report(token: string): Promise<unknown>;
    reportPdf(token: string): Promise<Response>;
    customers(documentKey: string): Promise<unknown>;
  };
  store: { get(token: string): Promise<AdminOnboardingRecord | null> };
}
