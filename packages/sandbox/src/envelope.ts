/**
 * Bodies the upstream answers. Standalone-query envelopes carry, like the real service, members
 * outside the contract (`fieldsOutput`, `required`, `enabled`, `valid`, `callService`,
 * `nextStep`, `services`) and null members, so clients must strip them
 * (docs/upstream-api.md#response-envelope).
 */
import { createHash, randomUUID } from 'node:crypto';

export const MSG = {
  noAccess: "Don't have access to the service",
  missingImage: 'Imagem obrigatória não encontrada',
  faceNotFound: 'Face nao encontrada na base',
  failure: 'Falha ao realizar consulta',
  unauthorized: 'Unauthorized',
  forbidden: 'Forbidden',
  failedToFetch: 'Failed to fetch information',
  noBalance: 'Saldo insuficiente para realizar a consulta',
  inactiveProduct: 'Produto inativo ou não encontrado',
} as const;

export type Envelope = Record<string, unknown>;

/** `{status:{code,message}}`: the error body of the dedicated endpoints and of the real HTTP 401. */
export function statusBody(code: number, message: string): { status: { code: number; message: string } } {
  return { status: { code, message } };
}

/** Success message: both forms the upstream is seen to send, chosen by the query's seed, so the same query always reads the same. */
export function successMessage(seed: string): string {
  return createHash('sha256').update(seed).digest()[0]! & 1 ? 'Consulta realizada com sucesso' : 'Success';
}

export function successEnvelope(
  result: Record<string, unknown>,
  message: string,
  callService: string,
  required: readonly string[],
): Envelope {
  return {
    result,
    status: { code: 200, message },
    onboardingStatus: null,
    externalId: randomUUID(),
    fieldsOutput: Object.keys(result),
    required: [...required],
    enabled: true,
    valid: true,
    callService,
    nextStep: null,
    services: null,
  };
}

/** `result: {}` with code 200: processed without useful data; the message says why (docs/upstream-api.md, rule 1). */
export function noDataEnvelope(message: string, callService: string): Envelope {
  return {
    result: {},
    status: { code: 200, message },
    onboardingStatus: null,
    externalId: randomUUID(),
    fieldsOutput: [],
    enabled: true,
    valid: true,
    callService,
    nextStep: null,
  };
}

/** A business refusal: the call worked, the input did not pass (never a fabricated success). */
export function refusedEnvelope(message: string, callService: string): Envelope {
  return {
    result: {},
    status: { code: 200, message },
    onboardingStatus: 'REFUSED',
    externalId: randomUUID(),
    enabled: true,
    valid: false,
    callService,
    nextStep: null,
  };
}

/** In-body failure with HTTP 200 (400 access/input errors, 401 product errors). */
export function failureEnvelope(code: number, message: string, callService: string | null): Envelope {
  return {
    result: null,
    status: { code, message },
    externalId: randomUUID(),
    enabled: code !== 400 || message !== MSG.noAccess,
    valid: false,
    callService,
    nextStep: null,
  };
}

/** The technical failure (docs/upstream-api.md#errors-and-classification): in-body 500, `onboardingStatus: ERROR`, with an externalId for support. */
export function technicalFailure(): Envelope {
  return { status: { code: 500, message: MSG.failure }, onboardingStatus: 'ERROR', externalId: randomUUID() };
}
