/**
 * Onboarding endpoints: `POST /api/token-history-onboarding` (docs/upstream-api.md#onboarding-creation),
 * the JSON report `GET /api/onboarding/report/{token}` (docs/upstream-api.md#onboarding-report:
 * Bearer here) and the PDF report `GET /api/history-onboarding-report/{token}`
 * (docs/upstream-api.md#pdf-report). Errors are `{status:{code,message}}`.
 */
import { Hono } from 'hono';
import { bodyLimit } from 'hono/body-limit';
import { isPureBase64, maskTaxId, parseDataUri, parseTaxId, type TaxId } from '@onboarding-kit/contract';
import type { SandboxDeps, SandboxEnv } from '../context.js';
import { MSG, statusBody } from '../envelope.js';
import { ONBOARDING_IDENTITIES } from '../identities.js';
import { checkImage } from '../images.js';
import { counted, forced500, readJsonObject, requireBearer } from '../middleware/index.js';
import type { OnboardingRecord } from '../onboardings.js';
import { writePdf } from '../pdf.js';

const MAX_ONBOARDING_BODY_BYTES = 32 * 1024 * 1024;
const TEXT_FIELDS = ['document', 'cpf', 'cnpj', 'name'] as const;

type ParsedRequest = { taxId: TaxId; name?: string; documentFiles: number; unreadableFile: boolean };

/** Checks a creation body (docs/upstream-api.md#onboarding-creation); null when the upstream would answer `Failed to fetch information`. */
function parseCreation(body: Record<string, unknown>): ParsedRequest | null {
  for (const field of TEXT_FIELDS) if (body[field] !== undefined && body[field] !== null && typeof body[field] !== 'string') return null;
  // Which fields are required is not shown. The sandbox needs one valid tax id: `cpf` must hold a
  // CPF, `cnpj` a CNPJ, `document` either (and the same one as `cpf`/`cnpj` when they are sent too).
  // With a `cnpj` the onboarding is the company's; otherwise the person's.
  const filled = (v: unknown): v is string => typeof v === 'string' && v.trim() !== '';
  const cpf = filled(body.cpf) ? parseTaxId(body.cpf) : undefined;
  const cnpj = filled(body.cnpj) ? parseTaxId(body.cnpj) : undefined;
  const document = filled(body.document) ? parseTaxId(body.document) : undefined;
  if (cpf === null || (cpf && cpf.kind !== 'cpf') || cnpj === null || (cnpj && cnpj.kind !== 'cnpj') || document === null) return null;
  if (document && (cpf || cnpj) && document.value !== cpf?.value && document.value !== cnpj?.value) return null;
  const taxId = cnpj ?? cpf ?? document;
  if (!taxId) return null;

  let documentFiles = 0;
  let unreadableFile = false;
  if (body.documentFiles !== undefined && body.documentFiles !== null) {
    if (!Array.isArray(body.documentFiles)) return null;
    for (const file of body.documentFiles as unknown[]) {
      if (!file || typeof file !== 'object' || Array.isArray(file)) return null;
      const f = file as Record<string, unknown>;
      if (f.documentFileType !== undefined && typeof f.documentFileType !== 'string') return null;
      if (f.documentUrl !== undefined && typeof f.documentUrl !== 'string') return null;
      if (f.document === undefined && f.documentUrl === undefined) return null;
      if (f.document !== undefined) {
        // A base64 data URI (docs/upstream-api.md#onboarding-creation). Anything else cannot even be stored.
        const uri = typeof f.document === 'string' ? parseDataUri(f.document) : null;
        if (!uri || !isPureBase64(uri.base64) || uri.base64 === '') return null;
        // Stored fine, but the processing cannot read it: the onboarding will be refused.
        if (!checkImage(uri.base64).ok) unreadableFile = true;
      }
      documentFiles++;
    }
  }
  const name = typeof body.name === 'string' && body.name.trim() ? body.name.trim().slice(0, 200) : undefined;
  return { taxId, documentFiles, unreadableFile, ...(name && { name }) };
}

function pdfReport(record: OnboardingRecord): Uint8Array {
  const lines = [
    { text: 'Relatório de onboarding', size: 16 },
    { text: `Token: ${record.tokenOnboarding}` },
    { text: `Status: ${record.status}` },
    { text: `Documento: ${maskTaxId(record.taxId.value)}` },
    { text: `Início (UTC): ${record.dateHourProcess}` },
    { text: `Atualização (UTC): ${record.updatedAt}` },
    { text: `Arquivos anexados: ${record.documentFiles}` },
  ];
  if (record.message) lines.push({ text: `Motivo: ${record.message}` });
  if (record.externalId) lines.push({ text: `externalId: ${record.externalId}` });
  lines.push({ text: 'Ambiente de teste (sandbox)', size: 9 });
  return writePdf(lines);
}

export function onboardingRoutes(deps: SandboxDeps): Hono<SandboxEnv> {
  const app = new Hono<SandboxEnv>();
  const bearer = requireBearer(deps.tokens);

  app.post(
    '/token-history-onboarding',
    counted(deps.stats, 'POST /api/token-history-onboarding'),
    bearer,
    forced500(deps.faults, 'http'),
    bodyLimit({ maxSize: MAX_ONBOARDING_BODY_BYTES, onError: (c) => c.json(statusBody(413, 'Payload Too Large'), 413) }),
    async (c) => {
      const body = await readJsonObject(c.req);
      const parsed = body && parseCreation(body);
      if (!parsed) return c.json(statusBody(400, MSG.failedToFetch), 400);
      const identity = ONBOARDING_IDENTITIES[parsed.taxId.value];
      if (identity === 'CREATION_FAILS') return c.json(statusBody(400, MSG.failedToFetch), 400);
      if (identity === 'FORBIDDEN') return c.json(statusBody(403, MSG.forbidden), 403);
      const record = deps.onboardings.create(parsed);
      return c.json({ tokenOnboarding: record.tokenOnboarding, dateHourProcess: record.dateHourProcess }, 200);
    },
  );

  app.get(
    '/onboarding/report/:tokenOnboarding',
    counted(deps.stats, 'GET /api/onboarding/report'),
    bearer,
    forced500(deps.faults, 'in-body'),
    (c) => {
      const record = deps.onboardings.get(c.req.param('tokenOnboarding'));
      if (!record) return c.json(statusBody(400, MSG.failedToFetch), 400);
      return c.json(deps.onboardings.report(record), 200);
    },
  );

  app.get(
    '/history-onboarding-report/:tokenOnboarding',
    counted(deps.stats, 'GET /api/history-onboarding-report'),
    bearer,
    forced500(deps.faults, 'in-body'),
    (c) => {
      const record = deps.onboardings.get(c.req.param('tokenOnboarding'));
      if (!record) return c.json(statusBody(400, MSG.failedToFetch), 400);
      const pdf = pdfReport(record);
      return c.body(pdf.buffer as ArrayBuffer, 200, {
        'content-type': 'application/pdf',
        'content-disposition': `inline; filename="onboarding-${record.tokenOnboarding}.pdf"`,
        'cache-control': 'no-store',
      });
    },
  );

  return app;
}
