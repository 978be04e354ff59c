/** Middleware factories shared by the sub-apps. */
import { createMiddleware } from 'hono/factory';
import type { TokenIssuer } from '../auth/tokens.js';
import type { SandboxEnv } from '../context.js';
import { MSG, statusBody, technicalFailure } from '../envelope.js';
import type { FaultState } from '../faults.js';
import type { StatsCounter } from '../stats.js';

/** Counts a request under a stable endpoint name for `stats()`. */
export const counted = (stats: StatsCounter, endpoint: string) =>
  createMiddleware<SandboxEnv>(async (_c, next) => {
    stats.count(endpoint);
    await next();
  });

/** A missing, expired, revoked or forged token is a real HTTP 401 (docs/upstream-api.md#authentication-and-token-lifetime). */
export const requireBearer = (tokens: TokenIssuer) =>
  createMiddleware<SandboxEnv>(async (c, next) => {
    const header = c.req.header('authorization') ?? '';
    const match = /^Bearer\s+(\S+)\s*$/i.exec(header);
    const client = match ? tokens.verify(match[1]!) : null;
    if (!client) return c.json(statusBody(401, MSG.unauthorized), 401);
    c.set('client', client);
    await next();
  });

/**
 * Fault `force500`: a protected call answers the technical failure. The standalone-query style
 * is in-body with HTTP 200; `http` answers a real HTTP 500 (onboarding creation).
 */
export const forced500 = (faults: FaultState, style: 'in-body' | 'http') =>
  createMiddleware<SandboxEnv>(async (c, next) => {
    if (!faults.current.force500) return next();
    if (style === 'http') return c.json(statusBody(500, MSG.failure), 500);
    return c.json(technicalFailure(), 200);
  });

/** Fault `latencyMs`: every answer waits this long first. */
export const latency = (faults: FaultState) =>
  createMiddleware(async (_c, next) => {
    const ms = faults.current.latencyMs;
    if (ms > 0) await new Promise((resolve) => setTimeout(resolve, ms));
    await next();
  });

/** Reads a JSON object body; null for anything else (malformed JSON, arrays, scalars). */
export async function readJsonObject(req: { text(): Promise<string> }): Promise<Record<string, unknown> | null> {
  let parsed: unknown;
  try {
    parsed = JSON.parse(await req.text());
  } catch {
    return null;
  }
  return parsed && typeof parsed === 'object' && !Array.isArray(parsed) ? (parsed as Record<string, unknown>) : null;
}
