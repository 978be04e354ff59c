/**
 * Typed client for the upstream API (docs/upstream-api.md): the token lifecycle, timeouts on
 * every call, bounded retries only where repeating is safe (token generation and GETs; never a
 * creation POST, never a business refusal), and classification of every answer, since success is
 * never decided from the HTTP status alone.
 */
import {
  callAlias,
  classify,
  isServiceId,
  parseOnboardingReport,
  serviceSpec,
  stripNonContract,
  toPureBase64,
  type AliasMap,
  type CustomerRecord,
  type OnboardingReport,
  type OnboardingTokenRequest,
  type OnboardingTokenResponse,
  type Outcome,
  type ServiceEnvelope,
  type ServiceId,
} from '@onboarding-kit/contract';
import type { EncodedJson } from './encoded-json.js';
import type { ServiceFields } from './service-fields.js';
import { envelopeFailure, envelopeOf, httpError, readJson } from './upstream-answers.js';
import { createUpstreamCalls, type Operation, type UpstreamCalls } from './upstream-calls.js';
import { UpstreamError } from './upstream-error.js';
import type { UpstreamClientOptions } from './upstream-options.js';

export type { UpstreamClientOptions } from './upstream-options.js';

export { EncodedJson } from './encoded-json.js';

export interface UpstreamClient {
  /**
   * Runs a standalone query and returns its classified outcome, non-contract fields removed; an
   * `UpstreamError` when the upstream did not answer, or refused a fresh access token.
   */
  query<S extends ServiceId>(service: S, fields: ServiceFields<S>): Promise<Outcome>;
  /**
   * A service the catalog does not list (the catalog is not complete; a product alias such as
   * `SERVICE_EMAIL_VALIDATION1`): sent exactly as given, its fields unchecked.
   */
  query<T extends string>(service: T & NotInCatalog<T>, fields: Readonly<Record<string, string>>): Promise<Outcome>;
  /** `POST /api/token-history-onboarding`. Never repeated automatically (it creates). */
  createOnboarding(request: OnboardingTokenRequest | EncodedJson): Promise<OnboardingTokenResponse>;
  /** `GET /api/onboarding/report/{token}`: the report JSON as the upstream sent it, `externalId` only when usable. */
  report(tokenOnboarding: string): Promise<OnboardingReport>;
  /** `GET /api/history-onboarding-report/{token}`: the successful answer, body not yet read (streamable). */
  reportPdf(tokenOnboarding: string): Promise<Response>;
  /** `GET /api/customer?documentKey=...`. */
  customers(documentKey: string): Promise<CustomerRecord[]>;
  /** Values that must never be logged (the secret and the access token held now). */
  secrets(): string[];
  /**
   * A valid access token: the one held, or a new one (`POST /api/token-generate`). The readiness
   * check calls it; a client without it is reported `unchecked` there.
   */
  accessToken?(): Promise<string>;
}

export function createUpstreamClient(options: UpstreamClientOptions): UpstreamClient {
  const calls = createUpstreamCalls(options);
  const pdfTimeoutMs = options.pdfTimeoutMs ?? 60_000;
  const aliases = options.aliases ?? {};
  // The upstream may echo what it was sent: its messages never carry the credentials or the token on.
  const masked = <T>(call: Promise<T>): Promise<T> =>
    call.catch((e: unknown) => {
      const token = calls.tokens.peek();
      throw e instanceof UpstreamError ? e.maskCredentials([options.client, options.secret, ...(token ? [token] : [])]) : e;
    });
  return {
    query: (service: string, fields: Readonly<Record<string, string | undefined>>) => masked(query(calls, aliases, service, fields)),
    createOnboarding: (request) => masked(createOnboarding(calls, request)),
    report: (tokenOnboarding) => masked(report(calls, tokenOnboarding)),
    reportPdf: (tokenOnboarding) => masked(reportPdf(calls, pdfTimeoutMs, tokenOnboarding)),
    customers: (documentKey) => masked(customers(calls, documentKey)),
    secrets() {
      const t = calls.tokens.peek();
      return t ? [options.secret, t] : [options.secret];
    },
    accessToken: () => calls.tokens.get(),
  };
}

/** A standalone query, its outcome classified. */
async function query(
  calls: UpstreamCalls,
  aliases: AliasMap,
  service: string,
  fields: Readonly<Record<string, string | undefined>>,
): Promise<Outcome> {
  const values = fields;
  // Only the catalog's services have known required fields; any other id goes as given.
  if (isServiceId(service)) {
    const missing = serviceSpec(service).required.filter((f) => !isFilled(values, f));
    if (missing.length) throw new TypeError(`${service} needs ${missing.join(', ')}.`);
  }
  const body: Record<string, string> = { service: isServiceId(service) ? callAlias(service, aliases) : service };
  for (const [k, v] of Object.entries(values)) {
    if (typeof v !== 'string') continue;
    // image1/image2/selfie1 carry pure base64, whatever the caller passed (docs/upstream-api.md, rule 4).
    body[k] = k === 'image1' || k === 'image2' || k === 'selfie1' ? toPureBase64(v) : v;
  }
  const op = calls.json({ method: 'POST', path: '/api/service-api', name: `POST /api/service-api ${service}`, body, retrySafe: false });
  const res = await calls.authorised(op);
  const envelope = await readJson(op.name, res, { tolerateNonJson: true });
  // A real 401 that a fresh token did not cure is the credentials (a token of another environment), not this query's answer.
  if (res.status === 401) {
    throw new UpstreamError('unauthorized', op.name, 'The upstream refused a fresh access token.', {
      httpStatus: 401,
      ...envelopeOf(envelope),
      type: 'credentials',
    });
  }
  return classify(envelope as ServiceEnvelope | null, res.status);
}

/** `POST /api/token-history-onboarding`, never repeated. */
async function createOnboarding(calls: UpstreamCalls, request: OnboardingTokenRequest | EncodedJson): Promise<OnboardingTokenResponse> {
  const op = calls.json({
    method: 'POST',
    path: '/api/token-history-onboarding',
    name: 'POST /api/token-history-onboarding',
    body: request,
    retrySafe: false,
  });
  const res = await calls.authorised(op);
  const body = await readJson(op.name, res, { tolerateNonJson: !res.ok });
  if (!res.ok) throw httpError(op.name, res.status, body);
  envelopeFailure(op.name, body, res.status);
  const b = body as Partial<OnboardingTokenResponse> | null;
  if (typeof b?.tokenOnboarding !== 'string' || !b.tokenOnboarding) {
    throw new UpstreamError('invalid_response', op.name, 'The creation answer carries no tokenOnboarding.', { httpStatus: res.status });
  }
  return {
    tokenOnboarding: b.tokenOnboarding,
    // Absent when the upstream sent none: a time of our own would pass for the upstream's (docs/upstream-api.md, rule 8).
    ...(typeof b.dateHourProcess === 'string' && b.dateHourProcess && { dateHourProcess: b.dateHourProcess }),
  };
}

/** `GET /api/onboarding/report/{token}`. */
async function report(calls: UpstreamCalls, tokenOnboarding: string): Promise<OnboardingReport> {
  const op = calls.json({
    method: 'GET',
    path: `/api/onboarding/report/${encodeURIComponent(tokenOnboarding)}`,
    name: 'GET /api/onboarding/report/{token}',
    retrySafe: true,
  });
  const res = await calls.authorised(op);
  const body = await readJson(op.name, res, { tolerateNonJson: !res.ok });
  if (!res.ok) throw httpError(op.name, res.status, body);
  envelopeFailure(op.name, body, res.status);
  const report = parseOnboardingReport(body);
  if (!report)
    throw new UpstreamError('invalid_response', op.name, 'The report answer carries no tokenOnboarding/status.', {
      httpStatus: res.status,
    });
  return report;
}

/** `GET /api/history-onboarding-report/{token}`, the body left to stream. */
async function reportPdf(calls: UpstreamCalls, pdfTimeoutMs: number, tokenOnboarding: string): Promise<Response> {
  const op: Operation = {
    method: 'GET',
    path: `/api/history-onboarding-report/${encodeURIComponent(tokenOnboarding)}`,
    name: 'GET /api/history-onboarding-report/{token}',
    timeoutMs: pdfTimeoutMs,
    retrySafe: true,
    stream: true,
  };
  const res = await calls.authorised(op);
  if (!res.ok) throw httpError(op.name, res.status, await readJson(op.name, res, { tolerateNonJson: true }));
  return res;
}

/** `GET /api/customer?documentKey=...`. */
async function customers(calls: UpstreamCalls, documentKey: string): Promise<CustomerRecord[]> {
  const op = calls.json({
    method: 'GET',
    path: `/api/customer?documentKey=${encodeURIComponent(documentKey)}`,
    name: 'GET /api/customer',
    retrySafe: true,
  });
  const res = await calls.authorised(op);
  const body = await readJson(op.name, res, { tolerateNonJson: !res.ok });
  if (!res.ok) throw httpError(op.name, res.status, body);
  if (!Array.isArray(body)) {
    envelopeFailure(op.name, body, res.status);
    throw new UpstreamError('invalid_response', op.name, 'The customer answer is not an array.', { httpStatus: res.status });
  }
  return stripNonContract(body) as CustomerRecord[];
}

/** Rejects, at compile time, a catalog id given to the unchecked form of `query`. */
type NotInCatalog<T extends string> = T extends ServiceId ? never : unknown;

/** The URL form the upstream accepts in place of an image (docs/upstream-api.md#request-fields). */
const URL_FOR: Readonly<Record<string, string>> = { image1: 'image1Url', image2: 'image2Url' };

/** A required field is there when it, or the URL standing in for its image, is non-empty text. */
function isFilled(values: Readonly<Record<string, string | undefined>>, field: string): boolean {
  const filled = (name: string | undefined) => name !== undefined && typeof values[name] === 'string' && values[name] !== '';
  return filled(field) || filled(URL_FOR[field]);
}
