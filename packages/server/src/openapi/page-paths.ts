/**
 * `/v1/session` and `/v1/handoff`: what a page does with its session (docs/page-api.md#hand-off,
 * docs/page-api.md#page-secrets), behind one of the session's page secrets.
 */
import { errorResponses, refusal, type Refusal } from './error-responses.js';
import { eventStream, jsonAnswer, jsonBody, ref, REQUEST_ID_HEADER, type PathItems } from './kit.js';

const security = [{ pageSecret: [] }];
const tags = ['Page session'];
const unknownSecret = refusal('unauthorized', 'no page secret, or one that opens no session (realm `onboarding-session`)');
const handedOff = refusal('session_handed_off', 'another device holds the session');
const notOrigin = refusal('unauthorized', "a page that is not the session's origin", 403);
const cancelled = refusal('session_cancelled', 'the session was cancelled');
const pageRefusals: Refusal[] = [unknownSecret, handedOff];
const STORE = refusal('store_unavailable');

export const PAGE_PATHS: PathItems = {
  '/v1/session': {
    get: {
      operationId: 'retrievePageSession',
      summary: 'The page reads its session, and where the hand-off stands',
      tags,
      security,
      responses: {
        '200': jsonAnswer('The session as this page may see it.', ref('PageSession')),
        ...errorResponses(...pageRefusals, cancelled, STORE),
      },
    },
  },
  '/v1/session/document-prefill': {
    post: {
      operationId: 'prefillFromDocument',
      summary: "The upstream's OCR reads the document, for the person to confirm its CPF and name",
      description:
        "Only on a session opened with `prefillFromDocument`; at most 3 per session. The creation's `ocr` check reuses the reading when its front photo is the same bytes (docs/page-api.md#document-prefill).",
      tags,
      security,
      requestBody: jsonBody(ref('DocumentPrefillRequest')),
      responses: {
        '200': jsonAnswer('What the OCR read that holds.', ref('DocumentPrefill')),
        ...errorResponses(
          ...pageRefusals,
          cancelled,
          refusal('prefill_unavailable', 'the session did not ask for the prefill'),
          refusal('session_used', 'the onboarding was sent already'),
          'invalid_json',
          refusal('invalid_request', 'not a JSON object'),
          refusal('invalid_field', 'no `documentType`, or an unknown member'),
          refusal('missing_image', 'no `images.documentFront`'),
          refusal('invalid_image', 'a photo that is not a JPEG or PNG in pure base64'),
          refusal('image_too_large'),
          refusal('payload_too_large'),
          refusal('unsupported_media_type'),
          refusal('rate_limited', 'the session used its 3 prefills'),
          refusal('document_unreadable', 'the upstream could not read the document'),
          'upstream_error',
          'upstream_unavailable',
          'upstream_timeout',
          STORE,
        ),
      },
    },
  },
  '/v1/session/capture-nonce': {
    post: {
      operationId: 'issueCaptureNonce',
      summary: 'A nonce for a capture step, which the attestation of its photo names',
      description: 'At most 30 per session, each good for an hour and for one creation (docs/page-api.md#attestation).',
      tags,
      security,
      requestBody: jsonBody(ref('CaptureNonceRequest')),
      responses: {
        '201': jsonAnswer('The nonce, its step and when it lapses.', ref('CaptureNonce')),
        ...errorResponses(
          ...pageRefusals,
          cancelled,
          refusal('session_expired', 'the session expired'),
          refusal('session_used', 'the onboarding is sent or under way (409), or the session completed (410)'),
          'invalid_json',
          refusal('invalid_request', 'not a JSON object'),
          refusal('invalid_field', 'no image role in `role`, or an unknown member'),
          refusal('payload_too_large'),
          refusal('unsupported_media_type'),
          refusal('rate_limited', 'the session was issued its 30 nonces'),
          STORE,
        ),
      },
    },
  },
  '/v1/session/exchange': {
    post: {
      operationId: 'exchangeCaptureToken',
      summary: 'The hosted page trades its capture token for a page secret, once',
      tags,
      security: [],
      requestBody: jsonBody(ref('CaptureExchangeRequest')),
      responses: {
        '201': jsonAnswer("The hosted page's own secret for the session.", ref('CaptureExchange')),
        ...errorResponses(
          'invalid_json',
          refusal('invalid_request', 'not `{"captureToken": ...}`'),
          refusal('invalid_field', 'a capture token of the wrong length'),
          refusal('not_found', 'no session has this capture token'),
          refusal('session_used', 'the token was exchanged already, or the session was used', 410),
          refusal('session_expired'),
          cancelled,
          refusal('payload_too_large'),
          refusal('unsupported_media_type'),
          STORE,
        ),
      },
    },
  },
  '/v1/session/handoff': {
    post: {
      operationId: 'offerHandoff',
      summary: 'The origin asks for a hand-off link and short code',
      description:
        'A new offer replaces the pending one. The optional body carries what the person answered on this page to the phone (never in the link).',
      tags: ['Hand-off'],
      security,
      requestBody: jsonBody(ref('HandoffOfferRequest'), 'Optional.', false),
      responses: {
        '201': jsonAnswer('The link (for a QR code) and the short code, single use, 10 minutes.', ref('HandoffOffer')),
        ...errorResponses(
          ...pageRefusals,
          notOrigin,
          refusal('session_used', 'the onboarding was sent, or its creation is under way'),
          refusal('session_expired'),
          cancelled,
          refusal('rate_limited', 'more than 5 offers of one session within 10 minutes'),
          STORE,
        ),
      },
    },
  },
  '/v1/session/handoff/reclaim': {
    post: {
      operationId: 'reclaimHandoff',
      summary: 'The origin takes the session back, or withdraws a pending link',
      description: 'No body.',
      tags: ['Hand-off'],
      security,
      responses: {
        '200': jsonAnswer('The session as `GET /v1/session` shows it to the origin.', ref('PageSession')),
        ...errorResponses(...pageRefusals, notOrigin, refusal('session_used', 'the onboarding was sent or is being created'), STORE),
      },
    },
  },
  '/v1/session/progress': {
    post: {
      operationId: 'reportProgress',
      summary: 'The holder reports its step and the photos taken',
      tags: ['Hand-off'],
      security,
      requestBody: jsonBody(ref('SessionProgressReport')),
      responses: {
        '204': {
          description: 'Kept (the latest report only) and streamed as `capture.progress`.',
          headers: { 'X-Request-Id': REQUEST_ID_HEADER },
        },
        ...errorResponses(
          ...pageRefusals,
          'invalid_json',
          refusal('invalid_request', 'the body is not a JSON object'),
          refusal('invalid_field', 'the member at fault is named in `field`'),
          refusal('payload_too_large'),
          refusal('unsupported_media_type'),
          STORE,
        ),
      },
    },
  },
  '/v1/session/events': {
    get: {
      operationId: 'followSession',
      summary: 'Server-Sent Events of the session: hand-off, progress, outcome',
      description:
        'A reload resumes: the stream first replays the events kept (with `Last-Event-ID`, only the later ones). Ends after `session.completed`, `session.expired` or, for a device, `handoff.reclaimed`.',
      tags: ['Hand-off'],
      security,
      parameters: [
        {
          name: 'Last-Event-ID',
          in: 'header',
          required: false,
          description: 'Replay only the events after this id.',
          schema: { type: 'string', pattern: '^[0-9]+$' },
        },
      ],
      responses: {
        '200': eventStream("The session's events; `id:` is a per-session sequence number.", { '*': ref('SessionEvent') }),
        ...errorResponses(...pageRefusals, STORE),
      },
    },
  },
  '/v1/handoff/claim': {
    post: {
      operationId: 'claimHandoff',
      summary: "A device claims a hand-off with the link's token or the short code",
      tags: ['Hand-off'],
      security: [],
      requestBody: jsonBody(ref('HandoffClaimRequest')),
      responses: {
        '200': jsonAnswer("This device's own page secret for the session.", ref('HandoffClaim')),
        ...errorResponses(
          'invalid_json',
          refusal('invalid_request', 'the body is not a JSON object'),
          refusal('invalid_field', 'not exactly one of `token` and `code`, as a string of sane length'),
          refusal('handoff_invalid', 'an unknown, replaced or withdrawn token or code'),
          refusal('handoff_expired', 'the link lapsed, or the session expired'),
          refusal('handoff_used', 'the link was used already, or the session was sent'),
          refusal('rate_limited', 'too many code attempts from this address, or from all of them'),
          refusal('payload_too_large'),
          refusal('unsupported_media_type'),
          STORE,
        ),
      },
    },
  },
};
