/**
 * `/onboardings/:token`: the upstream report, its PDF and the evidence archive of one onboarding,
 * whether or not this companion created it or still remembers it: the upstream decides what
 * exists (docs/backend-api.md#reports-for-any-token). What only the companion knew (the status
 * history, the creation time) is then marked absent, never made up.
 */
import { Hono } from 'hono';
import { stripReport } from '@onboarding-kit/contract';
import { buildEvidenceArchive } from '../evidence/archive.js';
import { DomainError } from '../errors/domain-error.js';
import type { CompanionEnv } from '../http/env.js';
import type { AdminDeps, AdminOnboardingRecord } from './deps.js';
import { fetchPdf, gatherEvidence, readEvidenceOptions } from './evidence-request.js';
import { isUnknownUpstream, upstreamFailure } from './upstream-failure.js';

/** Tokens come from the URL: keep only what is safe inside a quoted header value. */
const fileSafe = (token: string): string => token.replace(/[^A-Za-z0-9._-]/g, '_').slice(0, 100);

/** Upstream tokens are UUIDs; anything far from one is not worth an upstream call. */
const TOKEN = /^[A-Za-z0-9._~-]{1,128}$/;

const noSuchOnboarding = () => new DomainError('not_found', 'No onboarding with this token.');

export function createOnboardingRoutes(deps: AdminDeps): Hono<CompanionEnv> {
  const app = new Hono<CompanionEnv>();

  /** What the store remembers, or null; a token that cannot be one is 404 before anything goes upstream. */
  const lookup = async (token: string): Promise<AdminOnboardingRecord | null> => {
    if (!TOKEN.test(token)) throw noSuchOnboarding();
    return deps.store.get(token);
  };

  app.get('/:token', async (c) => {
    const token = c.req.param('token');
    const record = await lookup(token);
    const report = await deps.upstream.report(token).catch((error: unknown) => {
      // A token this companion never saw and the upstream does not know either: nothing to serve.
      throw !record && isUnknownUpstream(error) ? noSuchOnboarding() : upstreamFailure(error, 'report');
    });
    if (!report || typeof report !== 'object') throw new DomainError('upstream_error', 'The upstream report is not a JSON object.');
    c.header('Cache-Control', 'no-store');
    return c.json(stripReport(report));
  });

  app.get('/:token/report.pdf', async (c) => {
    const token = c.req.param('token');
    const record = await lookup(token);
    const pdf = await fetchPdf(deps, token);
    if (!pdf.ok) {
      throw !record && isUnknownUpstream({ httpStatus: pdf.httpStatus })
        ? noSuchOnboarding()
        : pdf.timeout
          ? new DomainError('upstream_timeout', 'The upstream PDF did not come in time.')
          : new DomainError('upstream_error', `The upstream PDF is not available (${pdf.reason}).`);
    }
    return new Response(pdf.stream, {
      headers: {
        'Content-Type': 'application/pdf',
        'Content-Disposition': `attachment; filename="report-${fileSafe(token)}.pdf"`,
        'Cache-Control': 'no-store',
        'X-Content-Type-Options': 'nosniff',
      },
    });
  });

  app.post('/:token/evidence', async (c) => {
    // Bad bodies are refused before the store or the upstream is asked anything.
    const { password, generated } = await readEvidenceOptions(c);
    const token = c.req.param('token');
    const input = await gatherEvidence(deps, token, await lookup(token));
    const archive = buildEvidenceArchive(input, { signal: c.req.raw.signal, ...(password !== undefined && { password }) });
    return new Response(archive, {
      headers: {
        'Content-Type': 'application/zip',
        'Content-Disposition': `attachment; filename="evidence-${fileSafe(token)}.zip"`,
        'Cache-Control': 'no-store',
        'X-Content-Type-Options': 'nosniff',
        // The one time the caller learns a generated passphrase: the companion keeps no copy.
        ...(generated && { 'Evidence-Password': password }),
      },
    });
  });

  return app;
}
