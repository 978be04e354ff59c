/** `/customers?documentKey=...`: the upstream customer lookup (docs/upstream-api.md#customer-lookup), by a checked CPF or CNPJ. */
import { Hono } from 'hono';
import { parseTaxId, stripNonContract } from '@onboarding-kit/contract';
import { DomainError } from '../errors/domain-error.js';
import type { CompanionEnv } from '../http/env.js';
import type { AdminDeps } from './deps.js';
import { upstreamFailure } from './upstream-failure.js';

export function createCustomerRoutes(deps: AdminDeps): Hono<CompanionEnv> {
  const app = new Hono<CompanionEnv>();

  app.get('/', async (c) => {
    const documentKey = c.req.query('documentKey');
    if (!documentKey) throw new DomainError('missing_tax_id', 'documentKey (a CPF or CNPJ) is required.', { field: 'documentKey' });
    // Checked before anything goes upstream: a lookup by a wrong key costs a call and finds nothing.
    const taxId = parseTaxId(documentKey);
    if (!taxId)
      throw new DomainError('invalid_field', 'documentKey is not a valid CPF or CNPJ: check its digits.', { field: 'documentKey' });
    const customers = await deps.upstream.customers(taxId.value).catch((error: unknown) => {
      throw upstreamFailure(error, 'customer lookup');
    });
    if (!Array.isArray(customers)) throw new DomainError('upstream_error', 'The upstream customer lookup did not answer a JSON array.');
    c.header('Cache-Control', 'no-store');
    return c.json(stripNonContract(customers));
  });

  return app;
}
