/**
 * The page side of the page <-> companion contract (docs/page-api.md). The access key and a
 * session's client secret are passed in by the caller for each request and only ever travel in
 * the `Authorization` header: never in a URL, an error or a log line.
 */
import {
  SESSION_STATUSES,
  isApiErrorBody,
  isOnboardingStatus,
  type CreateOnboardingRequest,
  type CreateOnboardingResponse,
  type DocumentPrefill,
  type OnboardingState,
  type ApiError,
  type CaptureNonce,
  type ImageRoleName,
  type PageSession,
} from '@onboarding-kit/contract';
import { CompanionError, type CompanionErrorCode } from './errors.js';
import { SseParser } from './sse.js';

export interface UploadProgress {
  loaded: number;
  total: number;
}

export interface CreateOptions {
  onProgress?: (progress: UploadProgress) => void;
  signal?: AbortSignal;
  /** Whole-request limit in ms (0: none). */
  timeoutMs?: number;
  /** A session's client secret: the creation is bound to that session (`Authorization: Bearer`). */
  clientSecret?: string;
  /**
   * Sent as `Idempotency-Key`: the same key with the same body answers the onboarding already
   * created instead of creating another, so a retry after a lost answer is safe.
   */
  idempotencyKey?: string;
}

function abortError(): CompanionError {
  return new CompanionError({ code: 'aborted', message: 'The request was cancelled.', status: 0 });
}

/**
 * The error a companion's error body (or the contract's own check of a request) describes. A
 * code from a newer companion passes through unchanged: the page reacts to the codes it knows
 * and falls back on the HTTP status for the others.
 */
export function errorFromApi(status: number, error: ApiError): CompanionError {
  const { code, message, field, externalId } = error;
  return new CompanionError({
    code: code as CompanionErrorCode,
    message,
    status,
    ...(field && { field }),
    ...(externalId && { externalId }),
  });
}

function errorFromBody(status: number, body: unknown): CompanionError {
  if (isApiErrorBody(body)) return errorFromApi(status, body.error);
  return new CompanionError({ code: 'http_error', message: `The companion answered HTTP ${status}.`, status });
}

function isCreateResponse(value: unknown): value is CreateOnboardingResponse {
  const v = value as CreateOnboardingResponse | null;
  return (
    !!v &&
    typeof v.tokenOnboarding === 'string' &&
    typeof v.accessKey === 'string' &&
    v.accessKey.length > 0 &&
    isOnboardingStatus(v.status)
  );
}

function isOnboardingState(value: unknown): value is OnboardingState {
  const v = value as OnboardingState | null;
  return !!v && typeof v.tokenOnboarding === 'string' && isOnboardingStatus(v.status);
}

function parseJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}

/**
 * `POST {base}/onboardings` through XMLHttpRequest, the only browser API that reports upload
 * progress. Resolves with the 201 body; rejects with a {@link CompanionError}.
 */
export function createOnboarding(
  base: string,
  body: CreateOnboardingRequest,
  options: CreateOptions = {},
): Promise<CreateOnboardingResponse> {
  const { onProgress, signal, timeoutMs = 120_000, clientSecret, idempotencyKey } = options;
  return new Promise((resolve, reject) => {
    if (signal?.aborted) return reject(abortError());
    const xhr = new XMLHttpRequest();
    const onAbortSignal = () => xhr.abort();
    const settle = (fn: () => void) => {
      signal?.removeEventListener('abort', onAbortSignal);
      fn();
    };
    xhr.open('POST', `${base}/onboardings`);
    const sent = headers(clientSecret, 'application/json', {
      'Content-Type': 'application/json',
      ...(idempotencyKey && { 'Idempotency-Key': idempotencyKey }),
    });
    for (const [name, value] of Object.entries(sent)) xhr.setRequestHeader(name, value);
    xhr.timeout = timeoutMs;
    // Listeners on xhr.upload must exist before send() or Chromium never fires progress.
    if (onProgress) {
      xhr.upload.addEventListener('progress', (e) => onProgress({ loaded: e.loaded, total: e.lengthComputable ? e.total : 0 }));
    }
    xhr.addEventListener('load', () =>
      settle(() => {
        const parsed = parseJson(xhr.responseText);
        if (xhr.status === 201 || xhr.status === 200) {
          if (isCreateResponse(parsed)) resolve(parsed);
          else
            reject(
              new CompanionError({ code: 'invalid_response', message: 'The companion answered an unexpected body.', status: xhr.status }),
            );
        } else {
          reject(errorFromBody(xhr.status, parsed));
        }
      }),
    );
    xhr.addEventListener('error', () =>
      settle(() => reject(new CompanionError({ code: 'network', message: 'The companion could not be reached.', status: 0 }))),
    );
    xhr.addEventListener('timeout', () =>
      settle(() => reject(new CompanionError({ code: 'timeout', message: 'The upload timed out.', status: 0 }))),
    );
    xhr.addEventListener('abort', () => settle(() => reject(abortError())));
    signal?.addEventListener('abort', onAbortSignal, { once: true });
    xhr.send(JSON.stringify(body));
  });
}

/**
 * The headers of every request to the companion: `key` (an onboarding's access key or a
 * session's client secret) travels here and nowhere else.
 */
function headers(key: string | null | undefined, accept: string, extra?: Record<string, string>): Record<string, string> {
  return { ...(key && { Authorization: `Bearer ${key}` }), Accept: accept, ...extra };
}

function onboardingUrl(base: string, token: string): string {
  return `${base}/onboardings/${encodeURIComponent(token)}`;
}

async function request(url: string, init: RequestInit): Promise<Response> {
  try {
    return await fetch(url, { ...init, cache: 'no-store', credentials: 'omit' });
  } catch (error) {
    if (init.signal?.aborted) throw abortError();
    throw new CompanionError({ code: 'network', message: 'The companion could not be reached.', status: 0 });
  }
}

function isPageSession(value: unknown): value is PageSession {
  const v = value as PageSession | null;
  return (
    !!v &&
    typeof v.id === 'string' &&
    (SESSION_STATUSES as readonly string[]).includes(v.status) &&
    typeof v.expiresAt === 'string' &&
    !!v.prefill &&
    typeof v.prefill === 'object' &&
    Array.isArray(v.documentTypes) &&
    v.documentTypes.every((t) => typeof t === 'string') &&
    typeof v.locale === 'string'
  );
}

/** `GET {base}/session`: the session a client secret opens (401 when it opens none). */
export async function getSession(base: string, clientSecret: string, signal?: AbortSignal): Promise<PageSession> {
  const res = await request(`${base}/session`, { headers: headers(clientSecret, 'application/json'), ...(signal && { signal }) });
  const body = parseJson(await res.text().catch(() => ''));
  if (!res.ok) throw errorFromBody(res.status, body);
  if (!isPageSession(body))
    throw new CompanionError({ code: 'invalid_response', message: 'The companion answered an unexpected body.', status: res.status });
  return body;
}

/**
 * `POST {base}/session/{path}` with a page secret (the hand-off's routes, docs/page-api.md#hand-off):
 * the JSON answered, or null for a 204. Rejects with a {@link CompanionError}.
 */
export async function postSession(
  base: string,
  path: string,
  clientSecret: string,
  body?: unknown,
  signal?: AbortSignal,
): Promise<unknown> {
  const json = body !== undefined;
  const init: RequestInit = {
    method: 'POST',
    headers: headers(clientSecret, 'application/json', json ? { 'Content-Type': 'application/json' } : undefined),
  };
  const res = await request(`${base}/session/${path}`, { ...init, ...(json && { body: JSON.stringify(body) }), ...(signal && { signal }) });
  const parsed = parseJson(await res.text().catch(() => ''));
  if (!res.ok) throw errorFromBody(res.status, parsed);
  return parsed ?? null;
}

/** Body of `POST /v1/session/document-prefill`: the document's photos, as the creation will send them. */
export interface DocumentPrefillRequest {
  documentType: string;
  images: { documentFront: string; documentBack?: string };
}

function isDocumentPrefill(value: unknown): value is DocumentPrefill {
  const v = value as Record<string, unknown> | null;
  return (
    !!v &&
    typeof v === 'object' &&
    (v.cpf === undefined || typeof v.cpf === 'string') &&
    (v.name === undefined || typeof v.name === 'string')
  );
}

/**
 * `POST {base}/session/document-prefill` with a page secret: the CPF and name the upstream's OCR
 * read from the document photos, for the person to confirm. Rejects with a {@link CompanionError}
 * (422 `document_unreadable`, 429 after the session's tries, or any other code of the catalogue).
 */
export async function documentPrefill(
  base: string,
  clientSecret: string,
  body: DocumentPrefillRequest,
  signal?: AbortSignal,
): Promise<DocumentPrefill> {
  const answer = await postSession(base, 'document-prefill', clientSecret, body, signal);
  if (!isDocumentPrefill(answer))
    throw new CompanionError({ code: 'invalid_response', message: 'The companion answered an unexpected body.', status: 200 });
  return answer;
}

function isCaptureNonce(value: unknown, role: ImageRoleName): value is CaptureNonce {
  const v = value as Record<string, unknown> | null;
  return !!v && typeof v.nonce === 'string' && v.nonce.length > 0 && v.role === role && typeof v.expiresAt === 'string';
}

/**
 * `POST {base}/session/capture-nonce` with a page secret: the nonce the companion issues for a
 * capture step of `role` (docs/page-api.md#attestation). Rejects with a {@link CompanionError}.
 */
export async function captureNonce(base: string, clientSecret: string, role: ImageRoleName, signal?: AbortSignal): Promise<CaptureNonce> {
  const answer = await postSession(base, 'capture-nonce', clientSecret, { role }, signal);
  if (!isCaptureNonce(answer, role))
    throw new CompanionError({ code: 'invalid_response', message: 'The companion answered an unexpected body.', status: 201 });
  return answer;
}

/** `GET {base}/onboardings/{token}`. */
export async function getOnboarding(base: string, token: string, accessKey: string, signal?: AbortSignal): Promise<OnboardingState> {
  const res = await request(onboardingUrl(base, token), { headers: headers(accessKey, 'application/json'), ...(signal && { signal }) });
  const body = parseJson(await res.text().catch(() => ''));
  if (!res.ok) throw errorFromBody(res.status, body);
  if (!isOnboardingState(body))
    throw new CompanionError({ code: 'invalid_response', message: 'The companion answered an unexpected body.', status: res.status });
  return body;
}

/**
 * Opens an event stream of the companion (`Last-Event-ID` to pick up after `lastId`): the
 * response as it came, for the caller to judge; rejects only when no response arrived.
 */
function openEventStream(url: string, key: string, signal: AbortSignal | undefined, lastId?: string | null): Promise<Response> {
  return request(url, {
    headers: headers(key, 'text/event-stream', lastId ? { 'Last-Event-ID': lastId } : undefined),
    ...(signal && { signal }),
  });
}

/** `GET {base}/session/events` with a page secret (docs/page-api.md#hand-off), picked up after `lastId`. */
export function openSessionEvents(base: string, clientSecret: string, lastId: string | null, signal: AbortSignal): Promise<Response> {
  return openEventStream(`${base}/session/events`, clientSecret, signal, lastId);
}

/**
 * Reads `GET {base}/onboardings/{token}/events` with fetch streaming (EventSource cannot send
 * the Authorization header) and calls `onStatus` for each `event: status`. Resolves with the
 * last state seen (or `null`) when the stream ends; rejects when it cannot be opened or breaks.
 */
export async function streamStatus(
  base: string,
  token: string,
  accessKey: string,
  onStatus: (state: OnboardingState) => void,
  signal?: AbortSignal,
): Promise<OnboardingState | null> {
  const res = await openEventStream(`${onboardingUrl(base, token)}/events`, accessKey, signal);
  if (!res.ok) throw errorFromBody(res.status, parseJson(await res.text().catch(() => '')));
  if (!res.body) throw new CompanionError({ code: 'invalid_response', message: 'The status stream has no body.', status: res.status });
  const reader = res.body.pipeThrough(new TextDecoderStream()).getReader();
  const parser = new SseParser();
  let last: OnboardingState | null = null;
  try {
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      for (const message of parser.push(value)) {
        if (message.event !== 'status') continue;
        const state = parseJson(message.data);
        if (!isOnboardingState(state)) continue;
        last = state;
        onStatus(state);
      }
    }
  } catch {
    if (signal?.aborted) throw abortError();
    throw new CompanionError({ code: 'network', message: 'The status stream broke.', status: 0 });
  } finally {
    reader.releaseLock();
  }
  return last;
}
