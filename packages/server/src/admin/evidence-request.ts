/** Reads `POST .../evidence` bodies and gathers, from the store and the upstream, what the archive holds. */
import type { Context } from 'hono';
import { isTerminalStatus, parseOnboardingReport } from '@onboarding-kit/contract';
import type { EvidenceInput } from '../evidence/archive.js';
import { assertEvidencePassword, newEvidencePassword } from '../evidence/password.js';
import { peekPdf, pdfPeekReason } from '../evidence/pdf-stream.js';
import { DomainError } from '../errors/domain-error.js';
import { readJsonBody } from '../transport/index.js';
import type { AdminDeps, AdminOnboardingRecord } from './deps.js';
import { isUnknownUpstream, isUpstreamTimeout, upstreamFailure, upstreamGapReason, upstreamHttpStatus } from './upstream-failure.js';

/** A password body is tiny; anything larger is not one. */
const EVIDENCE_BODY_MAX_BYTES = 8 * 1024;

/**
 * How the archive is encrypted: with a passphrase generated here (no body, or `{}`: the default),
 * with the caller's own (`{"password": "..."}`, held to the rules of chosen passphrases), or not
 * at all (`{"encrypt": false}`). `generated` says the caller has not seen the passphrase yet.
 */
type EvidenceEncryption = { password: string; generated: boolean } | { password?: undefined; generated: false };

const BODY_SHAPE = 'The body must be a JSON object: {}, {"password": "..."} or {"encrypt": false}.';

export async function readEvidenceOptions(c: Context): Promise<EvidenceEncryption> {
  const body = await readJsonBody(c, EVIDENCE_BODY_MAX_BYTES, { optional: true });
  if (body === undefined) return { password: newEvidencePassword(), generated: true };
  if (!body || typeof body !== 'object' || Array.isArray(body)) throw new DomainError('invalid_request', BODY_SHAPE);
  const { password, encrypt } = body as { password?: unknown; encrypt?: unknown };
  if (encrypt !== undefined && typeof encrypt !== 'boolean') throw new DomainError('invalid_request', BODY_SHAPE, { field: 'encrypt' });
  if (encrypt === false) {
    if (password !== undefined)
      throw new DomainError('invalid_request', 'Send either a password or "encrypt": false, not both.', { field: 'encrypt' });
    return { generated: false };
  }
  if (password === undefined) return { password: newEvidencePassword(), generated: true };
  assertEvidencePassword(password);
  return { password, generated: false };
}

/**
 * Fetches the report and the PDF in parallel. Either may be missing (recorded as a gap); when
 * both are, there is no upstream evidence to archive and the operator gets 502/504 to retry.
 * For a token the store does not hold (`record` null) the report is what says the onboarding
 * exists and what its status is, so without it there is no archive; the status history, only
 * ever known to the companion, is then recorded as absent.
 */
export async function gatherEvidence(deps: AdminDeps, token: string, record: AdminOnboardingRecord | null): Promise<EvidenceInput> {
  const [report, pdf] = await Promise.all([
    deps.upstream.report(token).then(
      (value) => ({ ok: true as const, value }),
      (error: unknown) => ({ ok: false as const, error }),
    ),
    fetchPdf(deps, token),
  ]);

  if (!record && !report.ok) {
    await pdf.abandon?.();
    if (isUnknownUpstream(report.error)) throw new DomainError('not_found', 'No onboarding with this token.');
    throw upstreamFailure(report.error, 'report');
  }

  if (!report.ok && !pdf.ok) {
    const timeout = isUpstreamTimeout(report.error) && pdf.timeout;
    throw timeout
      ? new DomainError('upstream_timeout', 'Neither the report nor the PDF came from the upstream in time; nothing to archive.')
      : new DomainError('upstream_error', 'Neither the report nor the PDF is available upstream; nothing to archive.');
  }

  const read = report.ok ? parseOnboardingReport(report.value) : null;
  if (!record && !read) {
    await pdf.abandon?.();
    throw new DomainError('upstream_error', 'The upstream report names no onboarding status; nothing to archive.');
  }
  // The store may still say IN_PROCESS when the upstream has decided and no webhook came yet.
  const status = !record ? read!.status : !isTerminalStatus(record.status) && isTerminalStatus(read?.status) ? read.status : record.status;
  const externalId = record?.externalId ?? read?.externalId;

  return {
    tokenOnboarding: token,
    ...(externalId && { externalId }),
    environment: deps.environment,
    ...(record && { createdAt: record.createdAt }),
    kitVersion: deps.kitVersion,
    report: report.ok ? report.value : undefined,
    ...(!report.ok && { reportError: upstreamGapReason(report.error, 'report') }),
    pdf: pdf.ok ? pdf.stream : undefined,
    ...(!pdf.ok && { pdfError: pdf.reason }),
    history: record ? record.history : null,
    ...(record && { keptAnyway: record.keptAnyway ?? {} }),
    ...(record?.checks && { checks: record.checks }),
    ...(record?.documentReading && { documentReading: record.documentReading }),
    ...(record?.integrity && { integrity: record.integrity }),
    ...(record?.keyframes && { keyframes: record.keyframes }),
    status,
    // The onboarding flow is what the upstream's support is asked about.
    service: 'onboarding',
  };
}

type FetchedPdf =
  | { ok: true; stream: ReadableStream<Uint8Array>; abandon?: () => Promise<void> }
  | { ok: false; reason: string; timeout: boolean; httpStatus?: number; abandon?: undefined };

/** The upstream PDF, its first bytes already checked to be `%PDF`, still streaming. */
export async function fetchPdf(deps: AdminDeps, token: string): Promise<FetchedPdf> {
  let response: Response;
  try {
    response = await deps.upstream.reportPdf(token);
  } catch (error) {
    const httpStatus = upstreamHttpStatus(error);
    return {
      ok: false,
      reason: upstreamGapReason(error, 'PDF'),
      timeout: isUpstreamTimeout(error),
      ...(httpStatus !== undefined && { httpStatus }),
    };
  }
  if (!response.ok || !response.body) {
    await response.body?.cancel().catch(() => {});
    return {
      ok: false,
      reason: `PDF unavailable upstream: HTTP ${response.status}`,
      timeout: response.status === 504,
      httpStatus: response.status,
    };
  }
  const peek = await peekPdf(response.body);
  return peek.ok ? peek : { ok: false, reason: pdfPeekReason(peek.reason), timeout: false };
}
