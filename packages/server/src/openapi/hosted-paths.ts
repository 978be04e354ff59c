/**
 * The hosted capture page and the hand-off pages (docs/hosted-page.md), outside `/v1`: HTML
 * pages, whose errors are pages too, and their files, immutable.
 */
import { errorResponses } from './error-responses.js';
import { header, pathParameter, REQUEST_ID_HEADER, string, type Json, type Operation, type PathItems } from './kit.js';

const tags = ['Hosted pages'];

const pageHeaders = {
  'X-Request-Id': REQUEST_ID_HEADER,
  'Content-Security-Policy': header("The hosted pages' strict policy (`HOSTED_CSP`)."),
  'Referrer-Policy': header('`no-referrer`: a token is in the path.'),
};

const html = (description: string): Json => ({ description, headers: pageHeaders, content: { 'text/html': { schema: string() } } });

const unavailable = html("The element or the page's script is not built on this companion (`page_unavailable`); `Retry-After: 60`.");
const failed = html('A bug (`internal_error`), as a page that quotes the request id.');

/** A page of the hand-off, the same for every visitor: it claims nothing on its GET. */
function devicePage(operationId: string, summary: string, parameters: Json[] = []): Operation {
  return {
    operationId,
    summary,
    tags,
    security: [],
    parameters,
    responses: { '200': html('The page.'), '500': failed, '503': unavailable },
  };
}

const version = pathParameter('version', "The files' version: a hash of their content.", string({ pattern: '^[0-9a-f]+$' }));
const file = pathParameter('file', "The file's name.");
const immutable = { 'X-Request-Id': REQUEST_ID_HEADER, 'Cache-Control': header('`public, max-age=31536000, immutable`.') };

export const HOSTED_PATHS: PathItems = {
  '/capture/{token}': {
    get: {
      operationId: 'openCapturePage',
      summary: "A session's `url`: the capture flow, with the integrator's brand, in the session's locale",
      tags,
      security: [],
      parameters: [pathParameter('token', "The session's capture token.")],
      responses: {
        '200': html('The capture page.'),
        '404': html('No session has this token.'),
        '410': html('The session was used, expired or cancelled, or this link was opened already.'),
        '500': failed,
        '503': unavailable,
      },
    },
  },
  '/capture': { get: devicePage('openDeviceCapturePage', 'The capture page of a device after its hand-off claim') },
  '/h': { get: devicePage('openHandoffCodePage', "Where a hand-off's short code is typed") },
  '/h/{token}': {
    get: devicePage('openHandoffLinkPage', 'The hand-off link a phone opens from the QR code', [
      pathParameter('token', "The hand-off link's token."),
    ]),
  },
  '/capture/assets/{version}/{file}': {
    get: {
      operationId: 'retrievePageAsset',
      summary: "A file of the hosted pages: their script, stylesheet, or the brand's logo",
      tags,
      security: [],
      parameters: [version, file],
      responses: {
        '200': {
          description: 'The file.',
          headers: immutable,
          content: { 'text/javascript': {}, 'text/css': {}, 'image/png': {}, 'image/jpeg': {}, 'image/webp': {}, 'image/svg+xml': {} },
        },
        ...errorResponses('not_found'),
      },
    },
  },
  '/capture/element/{version}/{file}': {
    get: {
      operationId: 'retrieveElementAsset',
      summary: "A file of the element's build, for the hosted pages",
      tags,
      security: [],
      parameters: [version, file],
      responses: {
        '200': { description: 'The file.', headers: immutable, content: { 'text/javascript': {} } },
        '404': html('No such file, or another version.'),
        '500': failed,
        '503': unavailable,
      },
    },
  },
};
