/** Who may call what: the credentials the document's operations name in their `security`. */
import type { Json } from './kit.js';

const bearer = (description: string): Json => ({ type: 'http', scheme: 'bearer', description });

export const SECURITY_SCHEMES: Record<string, Json> = {
  apiKey: bearer(
    "An API key of the integrator's backend (`ONBOARDING_API_KEYS`), server to server only. Each key carries scopes; the scope an operation needs is named in its security requirement: `sessions`, `queries`, `reports` or `admin` (docs/backend-api.md#scopes). A missing or wrong key is `401 unauthorized`; a valid key without the scope is `403 forbidden`. A key written without scopes has every scope in `test` and `sessions` only in `production`.",
  ),
  adminKey: bearer('The admin key (`ONBOARDING_ADMIN_KEY`): the scopes `admin` and `reports`.'),
  pageSecret: bearer(
    "A page secret of a session: its `clientSecret`, the capture token of its `url` (until exchanged), the hosted page's page secret, or a device's secret from a hand-off claim (docs/page-api.md#page-secrets). Never an API key.",
  ),
  accessKey: bearer(
    'The `accessKey` answered by the creation of this onboarding, held by that page only. A missing or wrong key is the same `404` as an unknown onboarding.',
  ),
  webhookToken: {
    type: 'apiKey',
    in: 'header',
    name: 'id-service-token',
    description: "The key agreed with the upstream's operator (`ONBOARDING_WEBHOOK_KEY`), compared in constant time.",
  },
};
