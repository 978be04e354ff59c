/** `/v1/queries`: the upstream's standalone services for the integrator's backend (docs/backend-api.md#standalone-queries). */
import { errorResponses, refusal } from './error-responses.js';
import { jsonAnswer, jsonBody, pathParameter, ref, type PathItems } from './kit.js';

const security = [{ apiKey: ['queries'] }];
const tags = ['Queries'];
const keyRefusals = [refusal('unauthorized', 'no API key, or a wrong one'), refusal('forbidden', 'a key without the scope `queries`')];
const upstreamFailures = [
  refusal('upstream_refused', 'the upstream refused the request itself'),
  refusal('upstream_error', "an `ERROR`, an in-body 500, no envelope, or the upstream refusing the companion's credentials"),
  refusal('upstream_unavailable', 'the upstream could not be reached'),
  refusal('upstream_timeout', 'the upstream did not answer in time'),
];

export const QUERY_PATHS: PathItems = {
  '/v1/queries': {
    post: {
      operationId: 'runQuery',
      summary: "Run one service of the upstream's catalog with the companion's credentials",
      description:
        'Whenever the upstream answered, 200 with the classified outcome, refusals and "no data" included. Catalog services are checked before anything is sent. `SERVICE_DIGITAL_DOCUMENTOSCOPY` is asynchronous: the answer carries its `key`, and `query.completed` follows when the inspection finishes. A body member `notify: true` asks for `query.completed` for a synchronous answer too.',
      tags,
      security,
      requestBody: jsonBody(ref('QueryRequest')),
      responses: {
        '200': jsonAnswer("The classified outcome, with this query's `id`.", ref('QueryAnswer')),
        ...errorResponses(
          'invalid_json',
          refusal('invalid_request', 'the body is not a JSON object, or has more than 32 fields'),
          refusal('missing_field', '`service`, or a field the service requires (named in `field`)'),
          refusal('invalid_field', 'a field the service does not take, of the wrong form, or an image URL inside a network'),
          'invalid_cpf',
          'invalid_cnpj',
          refusal('invalid_image', 'an image that is not base64'),
          refusal('image_too_large'),
          refusal('payload_too_large'),
          refusal('unsupported_media_type'),
          ...keyRefusals,
          ...upstreamFailures,
        ),
      },
    },
  },
  '/v1/queries/{id}': {
    get: {
      operationId: 'retrieveQuery',
      summary: 'Read a query by its id, or consult an asynchronous inspection by its key',
      description:
        'A `qry_…` id answers the query as the companion keeps it (`pending` until an asynchronous inspection finishes). A UUID-shaped inspection key consults the inspection upstream (`SERVICE_DIGITAL_DOCUMENTOSCOPY_CONSULT`) and answers its outcome, `key` included; `result.status` tells whether it is done.',
      tags,
      security,
      parameters: [pathParameter('id', "A query's id (`qry_…`), or an asynchronous inspection's key (a UUID).")],
      responses: {
        '200': jsonAnswer("The query, or the inspection's consultation.", { anyOf: [ref('QueryRecord'), ref('InspectionConsult')] }),
        ...errorResponses(
          refusal('invalid_field', 'neither a query id nor a UUID-shaped key'),
          refusal('not_found', 'no query with this id'),
          ...keyRefusals,
          ...upstreamFailures,
        ),
      },
    },
  },
};
