/**
 * The companion's transport: how its routes meet Node (or any other runtime) through Hono. Routes
 * and middleware import from here only: how a request's headers and body are read, when the
 * client has gone, how creations take turns, how an answer's headers and event streams are
 * written. On Node the work goes straight to Node's request and response (./node-bindings.ts,
 * ./node-listener.ts); elsewhere through the web Request and Response.
 */
export { Admission } from './admission.js';
export {
  appendAnswerHeader,
  defaultAnswerHeader,
  enforceAnswerHeaders,
  enforcedHeaders,
  overrideAnswerHeader,
  presetAnswerHeader,
} from './answer-header.js';
export { bodyArriving } from './body-arrival.js';
export { BodyBuffers } from './body-buffers.js';
export { type BodyPace } from './body-pace.js';
export { clientGone, isClientAbort } from './client-gone.js';
export { EventStream, KeepAliveTick, sendEventStream, type EventStreamDeps } from './event-stream.js';
export { parseJsonBytes, readBodyBytes, readJsonBody, type JsonBodyOptions } from './json-body.js';
export { socketAddress } from './node-bindings.js';
export { withNodeAdapter, type FetchHandler } from './node-listener.js';
export { requestHeader } from './request-header.js';
export { addressBucket, clientAddressFrom, clientAddressResolver, forwardedFor, parseAddress } from './client-address.js';
