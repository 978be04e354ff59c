/** Reads `POST .../evidence` bodies and gathers, from the store and the upstream, what the archive holds. */
import type { Context } from 'hono';
import { isTerminalStatus } from '@onboarding-kit/contract';
import { assertEvidencePassword } from '../evidence/errors.js';
import type { EvidenceInput } from '../evidence/archive.js';
import { peekPdf, pdfPeekReason } from '../evidence/pdf-stream.js';
import type { AdminDeps, AdminOnboardingRecord } from './deps.js';
import { AdminHttpError, isUpstreamTimeout, upstreamGapReason } from './errors.js';

/** `{}`, `{"password": "..."}` or no body at all. */
export async function readEvidenceOptions(c: Context): Promise<{ password?: string }> {
  const text = await c.req.text();
  if (text.trim() === '') return {};
  let body: unknown;
  try {
    body = JSON.parse(text);
  } catch {
    throw new AdminHttpError(400, 'invalid_json', 'The body must be JSON: {} or {"password": "..."}.');
  }
  if (!body || typeof body !== 'object' || Array.isArray(body)) {
    throw new AdminHttpError(400, 'invalid_request', 'The body must be a JSON object: {} or {"password": "..."}.');
  }
  const { password } = body as { password?: unknown };
  if (password === undefined) return {};
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
      ? new AdminHttpError(504, 'upstream_timeout', 'Neither the report nor the PDF came from the upstream in time; nothing to archive.')
      : new AdminHttpError(502, 'upstream_error', 'Neither the report nor the PDF is available upstream; nothing to archive.');
  }

  const reportStatus = report.ok ? (report.value as { status?: unknown } | null)?.status : undefined;
  const reportExternalId = report.ok ? (report.value as { externalId?: unknown } | null)?.externalId : undefined;
  // The store may still say IN_PROCESS when the upstream has decided and no webhook came yet.
  const status = !isTerminalStatus(record.status) && isTerminalStatus(reportStatus) ? reportStatus : record.status;
  const externalId = record.externalId ?? (typeof reportExternalId === 'string' ? reportExternalId : undefined);

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
