/**
 * `GET /api/customer?documentKey=` (docs/upstream-api.md#customer-lookup): the customers of one tax id. A document is a
 * customer once it has been onboarded here, or when it is one of the pre-existing customers of
 * the README; otherwise the answer is `[]`.
 */
import { createHash } from 'node:crypto';
import { Hono } from 'hono';
import { parseTaxId, type CustomerRecord, type TaxId } from '@onboarding-kit/contract';
import type { SandboxDeps, SandboxEnv } from '../context.js';
import { companyProfile, personProfile } from '../data/profiles.js';
import { MSG, statusBody } from '../envelope.js';
import { ONBOARDING_IDENTITIES, PREEXISTING_CUSTOMERS } from '../identities.js';
import { counted, forced500, requireBearer } from '../middleware/index.js';

/** A stable UUID-shaped customer token: the same document is always the same customer. */
function customerToken(documentKey: string): string {
  const h = createHash('sha256').update(`customer:${documentKey}`).digest('hex');
  return `${h.slice(0, 8)}-${h.slice(8, 12)}-4${h.slice(13, 16)}-${((parseInt(h[16]!, 16) & 3) | 8).toString(16)}${h.slice(17, 20)}-${h.slice(20, 32)}`;
}

function customerRecords(deps: SandboxDeps, taxId: TaxId): CustomerRecord[] {
  const onboardings = deps.onboardings.byTaxId(taxId.value);
  if (onboardings.length === 0 && !PREEXISTING_CUSTOMERS.includes(taxId.value)) return [];
  const latest = onboardings.at(-1);
  const name = latest?.name ?? (taxId.kind === 'cpf' ? personProfile(taxId.value).name : companyProfile(taxId.value).officialName);
  return [
    {
      tokenCustomer: customerToken(taxId.value),
      // `PF` is the one type the upstream shows; for companies the type is "when available", and is left out.
      ...(taxId.kind === 'cpf' && { type: 'PF' }),
      documentKey: taxId.value,
      name,
      addInformation: latest ? `Último onboarding: ${latest.status}` : 'Cliente pré-cadastrado',
      // Active once approved (or pre-existing and never onboarded here).
      active: latest ? latest.status === 'APPROVED' : true,
    },
  ];
}

export function customerRoutes(deps: SandboxDeps): Hono<SandboxEnv> {
  const app = new Hono<SandboxEnv>();
  app.get('/customer', counted(deps.stats, 'GET /api/customer'), requireBearer(deps.tokens), forced500(deps.faults, 'in-body'), (c) => {
    const documentKey = c.req.query('documentKey') ?? '';
    const taxId = parseTaxId(documentKey);
    if (!taxId) return c.json(statusBody(400, MSG.failedToFetch), 400);
    if (ONBOARDING_IDENTITIES[taxId.value] === 'FORBIDDEN') return c.json(statusBody(403, MSG.forbidden), 403);
    return c.json(customerRecords(deps, taxId), 200);
  });
  return app;
}
