/** `/onboardings/:token`: the upstream report, its PDF and the evidence archive of one onboarding. */
import { Hono } from 'hono';
import { stripNonContract } from '@onboarding-kit/contract';
import { buildEvidenceArchive } from '../evidence/archive.js';
import { CompanionError } from '../http/companion-error.js';
import type { CompanionEnv } from '../http/env.js';
import type { AdminDeps, AdminOnboardingRecord } from './deps.js';
import { fetchPdf, gatherEvidence, readEvidenceOptions } from './evidence-request.js';
import { upstreamFailure } from './upstream-failure.js';

/** Tokens come from the URL: keep only what is safe inside a quoted header value. */
const fileSafe = (token: string): string => token.replace(/[^A-Za-z0-9._-]/g, '_').slice(0, 100);

export function createOnboardingRoutes(deps: AdminDeps): Hono<CompanionEnv> {
  const app = new Hono<CompanionEnv>();

  /** The store decides what exists: a token it does not know is 404 whatever the upstream says. */
  const known = async (token: string): Promise<AdminOnboardingRecord> => {
    const record = await deps.store.get(token);
    if (!record) throw new CompanionError(404, 'not_found', 'No onboarding with this token.');
    return record;
  };

  app.get('/:token', async (c) => {
    const record = await known(c.req.param('token'));
    const report = await deps.upstream.report(record.tokenOnboarding).catch((error: unknown) => {
      throw upstreamFailure(error, 'report');
    });
    if (!report || typeof report !== 'object') throw new CompanionError(502, 'upstream_error', 'The upstream report is not a JSON object.');
    c.header('Cache-Control', 'no-store');
    return c.json(stripNonContract(report));
  });

  app.get('/:token/report.pdf', async (c) => {
    const record = await known(c.req.param('token'));
    const pdf = await fetchPdf(deps, record.tokenOnboarding);
    if (!pdf.ok) {
      throw pdf.timeout
        ? new CompanionError(504, 'upstream_timeout', 'The upstream PDF did not come in time.')
        : new CompanionError(502, 'upstream_error', `The upstream PDF is not available (${pdf.reason}).`);
    }
    return new Response(pdf.stream, {
      headers: {
        'Content-Type': 'application/pdf',
        'Content-Disposition': `attachment; filename="report-${fileSafe(record.tokenOnboarding)}.pdf"`,
        'Cache-Control': 'no-store',
        'X-Content-Type-Options': 'nosniff',
      },
    });
  });

  app.post('/:token/evidence', async (c) => {
    // Bad bodies are refused before the store or the upstream is asked anything.
    const { password } = await readEvidenceOptions(c);
    const record = await known(c.req.param('token'));
    const input = await gatherEvidence(deps, record);
    const archive = buildEvidenceArchive(input, { signal: c.req.raw.signal, ...(password !== undefined && { password }) });
    return new Response(archive, {
      headers: {
        'Content-Type': 'application/zip',
        'Content-Disposition': `attachment; filename="evidence-${fileSafe(record.tokenOnboarding)}.zip"`,
        'Cache-Control': 'no-store',
        'X-Content-Type-Options': 'nosniff',
      },
    });
  });

  return app;
}
