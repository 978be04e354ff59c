/**
 * The small vocabulary the OpenAPI document is written in: JSON Schema 2020-12 objects, media
 * types and the headers several answers share. Plain data, so the document is a JSON value that
 * the companion serves and `npm run openapi` writes as is.
 */

/** A JSON Schema (2020-12, the dialect of OpenAPI 3.1) or any other member of the document. */
export type Json = { [member: string]: unknown };

/** An OpenAPI Operation Object, the members this document uses. */
export interface Operation extends Json {
  operationId: string;
  summary: string;
  tags: string[];
  responses: Record<string, Json>;
}

/** Path templates to their operations, by lower-case method. */
export type PathItems = Record<string, Partial<Record<'get' | 'post', Operation>> & Json>;

export const ref = (name: string): Json => ({ $ref: `#/components/schemas/${name}` });

/** An object whose members are exactly `properties`; `required` names the ones always present. */
export function object(properties: Record<string, Json>, required: readonly string[] = [], extra: Json = {}): Json {
  return { type: 'object', properties, ...(required.length > 0 && { required: [...required] }), additionalProperties: false, ...extra };
}

export const string = (extra: Json = {}): Json => ({ type: 'string', ...extra });
export const dateTime = (description?: string): Json => ({ type: 'string', format: 'date-time', ...(description && { description }) });

/** A JSON answer or body. */
export const jsonContent = (schema: Json): Json => ({ 'application/json': { schema } });

export const header = (description: string, schema: Json = string()): Json => ({ description, schema });

/** A header of `components.headers`. */
export const headerRef = (name: string): Json => ({ $ref: `#/components/headers/${name}` });

/** On every answer of the companion. */
export const REQUEST_ID_HEADER = headerRef('RequestId');

/** The answer to a JSON request of `schema`, with the request id header. */
export function jsonAnswer(description: string, schema: Json, headers: Record<string, Json> = {}): Json {
  return { description, headers: { 'X-Request-Id': REQUEST_ID_HEADER, ...headers }, content: jsonContent(schema) };
}

export function jsonBody(schema: Json, description?: string, required = true): Json {
  return { required, ...(description && { description }), content: jsonContent(schema) };
}

/** A Server-Sent Events answer; `x-sse-events` maps each `event:` name to the schema of its `data:` JSON. */
export function eventStream(description: string, events: Record<string, Json>): Json {
  return {
    description,
    headers: { 'X-Request-Id': REQUEST_ID_HEADER },
    content: {
      'text/event-stream': {
        schema: string({ description: 'Server-Sent Events: `retry:` hints, `: keep-alive` comments and `event:`/`data:` (JSON) records.' }),
        'x-sse-events': events,
      },
    },
  };
}

/** A path parameter, always required. */
export function pathParameter(name: string, description: string, schema: Json = string()): Json {
  return { name, in: 'path', required: true, description, schema };
}

export function queryParameter(name: string, description: string, schema: Json = string(), required = false): Json {
  return { name, in: 'query', required, description, schema };
}
