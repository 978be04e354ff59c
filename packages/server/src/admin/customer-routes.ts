/** `/customers?documentKey=...`: the upstream customer lookup (docs/upstream-api.md#customer-lookup), by a checked CPF or CNPJ. */
import { Hono } from 'hono';
import { parseTaxId, stripNonContract } from '@onboarding-kit/contract';
import type { AdminDeps } from './deps.js';
import { AdminHttpError, upstreamFailure } from './errors.js';

export function createCustomerRoutes(deps: AdminDeps): Hono {
  const app = new Hono();

  app.get('/', async (c) => {
    const documentKey = c.req.query('documentKey');
    if (!documentKey) throw new AdminHttpError(400, 'missing_tax_id', 'documentKey (a CPF or CNPJ) is required.', 'documentKey');
    // Checked before anything goes upstream: a lookup by a wrong key costs a call and finds nothing.
    const taxId = parseTaxId(documentKey);
    if (!taxId) throw new AdminHttpError(400, 'invalid_field', 'documentKey is not a valid CPF or CNPJ: check its digits.', 'documentKey');
    const customers = await deps.upstream.customers(taxId.value).catch((error: unknown) => {
      throw upstreamFailure(error, 'customer lookup');
    });
    if (!Array.isArray(customers)) throw new AdminHttpError(502, 'upstream_error', 'The upstream customer lookup did not answer a JSON array.');
    c.header('Cache-Control', 'no-store');
    return c.json(stripNonContract(customers) as unknown[]);
  });

  return app;
}
