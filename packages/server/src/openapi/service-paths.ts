/** Liveness, readiness and this document (docs/page-api.md#health): no authorisation. */
import { errorResponses } from './error-responses.js';
import { header, jsonAnswer, ref, REQUEST_ID_HEADER, type PathItems } from './kit.js';

const tags = ['Companion'];

export const SERVICE_PATHS: PathItems = {
  '/v1/health': {
    get: {
      operationId: 'checkHealth',
      summary: 'Liveness: the process answers',
      tags,
      security: [],
      responses: {
        '200': jsonAnswer('Alive: `{"status": "ok", "ok": true}`.', ref('Health')),
        '503': jsonAnswer('Stopping, or the store does not answer.', ref('Health')),
        ...errorResponses(),
      },
    },
  },
  '/v1/ready': {
    get: {
      operationId: 'checkReadiness',
      summary: 'Readiness: the store answers and an upstream token is obtainable',
      tags,
      security: [],
      responses: {
        '200': jsonAnswer('Ready: every check `ok`.', ref('Readiness')),
        '503': jsonAnswer('Not ready: the failing check is named.', ref('Readiness')),
        ...errorResponses(),
      },
    },
  },
  '/v1/openapi.json': {
    get: {
      operationId: 'retrieveOpenApiDocument',
      summary: 'This document',
      description: 'The same bytes as `docs/openapi.json` of the release. Cacheable; `If-None-Match` with its `ETag` answers 304.',
      tags,
      security: [],
      parameters: [
        { name: 'If-None-Match', in: 'header', required: false, description: 'An `ETag` answered before.', schema: { type: 'string' } },
      ],
      responses: {
        '200': jsonAnswer(
          'The OpenAPI 3.1 document of the companion.',
          { type: 'object', required: ['openapi', 'info', 'paths'], properties: { openapi: { type: 'string', pattern: '^3\\.1\\.' } } },
          { ETag: header("The document's hash."), 'Cache-Control': header('Public, for an hour.') },
        ),
        '304': {
          description: 'The document has not changed.',
          headers: { 'X-Request-Id': REQUEST_ID_HEADER, ETag: header("The document's hash.") },
        },
        ...errorResponses(),
      },
    },
  },
};
