/** Reads `POST .../evidence` bodies and gathers, from the store and the upstream, what the archive holds. */
import type { Context } from 'hono';
import { isTerminalStatus, parseOnboardingReport } from '@onboarding-kit/contract';
import type { EvidenceInput } from '../evidence/archive.js';
import { assertEvidencePassword } from '../evidence/password.js';
import { peekPdf, pdfPeekReason } from '../evidence/pdf-stream.js';
import { CompanionError } from '../http/companion-error.js';
import { readJsonBody } from '../http/json-body.js';
import type { AdminDeps, AdminOnboardingRecord } from './deps.js';
import { isUpstreamTimeout, upstreamGapReason } from './upstream-failure.js';

/** A password body is tiny; anything larger is not one. */
export const EVIDENCE_BODY_MAX_BYTES = 8 * 1024;

/** `{}`, `{"password": "..."}` or no body at all. */
export async function readEvidenceOptions(c: Context): Promise<{ password?: string }> {
  const body = await readJsonBody(c, EVIDENCE_BODY_MAX_BYTES, { optional: true });
  if (body === undefined) return {};
  if (!body || typeof body !== 'object' || Array.isArray(body)) {
    throw new CompanionError(400, 'invalid_request', 'The body must be a JSON object: {} or {"password": "..."}.');
  }
  if (!('password' in body) || body.password === undefined) return {};
  const { password } = body;
  assertEvidencePassword(password);
  return { password };
}

/**
 * Fetches the report and the PDF in parallel. Either may be missing (recorded as a gap); when
 * both are, there is no upstream evidence to archive and the operator gets 502/504 to retry.
 */
export async function gatherEvidence(deps: AdminDeps, record: AdminOnboardingRecord): Promise<EvidenceInput> {
  const token = record.tokenOnboarding;
  const [report, pdf] = await Promise.all([
    deps.upstream.report(token).then(
      (value) => ({ ok: true as const, value }),
      (error: unknown) => ({ ok: false as const, error }),
    ),
    fetchPdf(deps, token),
  ]);

  if (!report.ok && !pdf.ok) {
    const timeout = isUpstreamTimeout(report.error) && pdf.timeout;
    throw timeout
      ? new CompanionError(504, 'upstream_timeout', 'Neither the report nor the PDF came from the upstream in time; nothing to archive.')
      : new CompanionError(502, 'upstream_error', 'Neither the report nor the PDF is available upstream; nothing to archive.');
  }

  const read = report.ok ? parseOnboardingReport(report.value) : null;
  // The store may still say IN_PROCESS when the upstream has decided and no webhook came yet.
  const status = !isTerminalStatus(record.status) && isTerminalStatus(read?.status) ? read.status : record.status;
  const externalId = record.externalId ?? read?.externalId;

  return {
    tokenOnboarding: token,
    ...(externalId && { externalId }),
    environment: deps.environment,
    createdAt: record.createdAt,
    kitVersion: deps.kitVersion,
    report: report.ok ? report.value : undefined,
    ...(!report.ok && { reportError: upstreamGapReason(report.error, 'report') }),
    pdf: pdf.ok ? pdf.stream : undefined,
    ...(!pdf.ok && { pdfError: pdf.reason }),
    history: record.history,
    status,
    // The onboarding flow is what the upstream's support is asked about.
    service: 'onboarding',
  };
}

type FetchedPdf = { ok: true; stream: ReadableStream<Uint8Array> } | { ok: false; reason: string; timeout: boolean };

/** The upstream PDF, its first bytes already checked to be `%PDF`, still streaming. */
export async function fetchPdf(deps: AdminDeps, token: string): Promise<FetchedPdf> {
  let response: Response;
  try {
    response = await deps.upstream.reportPdf(token);
  } catch (error) {
    return { ok: false, reason: upstreamGapReason(error, 'PDF'), timeout: isUpstreamTimeout(error) };
  }
  if (!response.ok || !response.body) {
    await response.body?.cancel().catch(() => {});
    return { ok: false, reason: `PDF unavailable upstream: HTTP ${response.status}`, timeout: response.status === 504 };
  }
  const peek = await peekPdf(response.body);
  return peek.ok ? peek : { ok: false, reason: pdfPeekReason(peek.reason), timeout: false };
}
