/**
 * The companion's OpenAPI 3.1 document, composed from one module per resource. The companion
 * serves it at `GET /v1/openapi.json`; `npm run openapi` writes the same bytes to
 * `docs/openapi.json`, and a test fails when the committed file differs.
 */
import { createHash } from 'node:crypto';
import { KIT_VERSION } from '../version.js';
import { ADMIN_PATHS } from './admin-paths.js';
import { SCHEMAS } from './components.js';
import { SECURITY_SCHEMES } from './security-schemes.js';
import { ERROR_HEADERS, internalErrorResponse } from './error-responses.js';
import { HOSTED_PATHS } from './hosted-paths.js';
import type { Json, PathItems } from './kit.js';
import { notificationWebhooks } from './notification-webhooks.js';
import { ONBOARDING_PATHS } from './onboarding-paths.js';
import { PAGE_PATHS } from './page-paths.js';
import { QUERY_PATHS } from './query-paths.js';
import { SERVICE_PATHS } from './service-paths.js';
import { SESSION_PATHS } from './session-paths.js';
import { WEBHOOK_PATHS } from './webhook-paths.js';

const DESCRIPTION = `The companion of onboarding-kit: the page API (the \`<onboarding-flow>\` element or any page), the integrator's backend API, the upstream's webhooks, and the hosted pages.

- Paths carry the prefix \`/v1\` (the hosted pages none); mounted under another base (\`app.route('/kyc', companion)\`), every path moves with it.
- Every failure is a real HTTP status with the body \`{"error": {"code", "message", "field"?, "externalId"?, "upstream"?}}\` (\`ErrorBody\`); \`code\` is one of the error catalogue (\`ErrorCode\`), and each operation lists the codes it answers, by status. The HTTP layer may also answer any request \`408\` or \`431 invalid_request\` (a request too slow, headers too large).
- Every answer carries \`X-Request-Id\`; answers under \`/v1\` carry \`Cache-Control: no-store\` unless said otherwise.
- Browsers: origins on \`ONBOARDING_ALLOWED_ORIGINS\` get CORS headers; credentials are never allowed.
- Some routes exist only when configured: the backend routes, the hand-off and the hosted pages with \`ONBOARDING_API_KEYS\`; the admin routes with API keys or \`ONBOARDING_ADMIN_KEY\`; the outbox routes with \`ONBOARDING_NOTIFY_URL\`; the page's PDF with \`reportPdf\`. Elsewhere they are \`404 not_found\`.
- \`webhooks\` are the signed notifications the companion POSTs to \`ONBOARDING_NOTIFY_URL\`.

Guides: docs/page-api.md, docs/backend-api.md, docs/hosted-page.md.`;

const TAGS: Json[] = [
  { name: 'Sessions', description: "The integrator's backend opens and follows sessions (API key, scope `sessions`)." },
  { name: 'Page session', description: 'A page reads its session (page secret).' },
  { name: 'Hand-off', description: 'A session handed from one device to another.' },
  { name: 'Onboardings', description: 'The page creates the onboarding and follows its status.' },
  { name: 'Queries', description: "The upstream's standalone services (API key, scope `queries`)." },
  { name: 'Reports', description: 'Reports, PDFs, evidence and customers for any token (scopes `reports`, `admin`).' },
  { name: 'Notifications', description: 'The signed notifications, and their outbox (scope `admin`).' },
  { name: 'Upstream', description: 'Called by the upstream.' },
  { name: 'Hosted pages', description: 'The capture and hand-off pages the companion serves.' },
  { name: 'Companion', description: 'Health, readiness and this document.' },
];

function paths(): PathItems {
  const all: PathItems = {};
  for (const group of [SERVICE_PATHS, SESSION_PATHS, PAGE_PATHS, ONBOARDING_PATHS, QUERY_PATHS, ADMIN_PATHS, WEBHOOK_PATHS, HOSTED_PATHS]) {
    for (const [path, item] of Object.entries(group)) {
      if (all[path]) throw new Error(`The OpenAPI document describes ${path} twice.`);
      all[path] = item;
    }
  }
  return all;
}

/** The document, as a fresh JSON value. */
export function openApiDocument(): Json {
  return {
    openapi: '3.1.1',
    jsonSchemaDialect: 'https://spec.openapis.org/oas/3.1/dialect/base',
    info: {
      title: 'onboarding-kit companion',
      version: KIT_VERSION,
      description: DESCRIPTION,
      license: { name: 'MIT', identifier: 'MIT' },
    },
    servers: [{ url: '/', description: 'The companion itself.' }],
    tags: TAGS,
    paths: paths(),
    webhooks: notificationWebhooks(),
    components: {
      schemas: SCHEMAS,
      responses: { InternalError: internalErrorResponse() },
      headers: ERROR_HEADERS,
      securitySchemes: SECURITY_SCHEMES,
    },
  };
}

let text: string | undefined;
let etag: string | undefined;

/** The document as `docs/openapi.json` holds it: two-space JSON and a final newline. */
export function openApiText(): string {
  text ??= `${JSON.stringify(openApiDocument(), null, 2)}\n`;
  return text;
}

/** A strong `ETag` of the document's bytes, hashed once like the text is built once (280 KB a request otherwise). */
export function openApiEtag(): string {
  etag ??= `"${createHash('sha256').update(openApiText()).digest('base64url').slice(0, 27)}"`;
  return etag;
}
