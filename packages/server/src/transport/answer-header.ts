/**
 * Headers the app adds to the answers its handlers make: the request id, the security headers,
 * CORS and a default `Cache-Control`.
 *
 * On Node, for a request `listen()` serves, they are written once to Node's response, and Node
 * merges them with the answer's own as it writes the head (on a clash the answer's own win, so
 * where the app's must win, the answer's of that name are dropped). Set on the answer instead,
 * they would go into a web `Headers` that node-server converts once more for Node; even asking
 * the answer for its headers makes node-server build that `Headers`, so the answer's own names
 * are read where node-server keeps them.
 *
 * Elsewhere (another adapter, `app.request()`) they are set on the answer's own headers in place,
 * as Hono's secure-headers middleware does: Hono's `c.header()` after `next()` copies the
 * finished answer into a new one whose body is a stream, so a small JSON answer would then go out
 * through web streams instead of in one write. An answer whose headers cannot change (one made by
 * `fetch`) still goes through `c.header()`.
 */
import type { ServerResponse } from 'node:http';
import type { Context } from 'hono';
import { nodeOutgoing } from './node-bindings.js';
import { isNodeRequest } from './request-header.js';

/** Node's response to a request `listen()` handed over, while its head is not written yet. */
function openHead(c: Context): ServerResponse | undefined {
  if (!isNodeRequest(c)) return undefined;
  const outgoing = nodeOutgoing(c);
  return outgoing && !outgoing.headersSent ? outgoing : undefined;
}

/** node-server's own key of a lightweight Response's status, body and headers as given (looked for once found). */
let cacheKey: symbol | undefined;

/** The names (lower case) of the answer's own headers, without making node-server build a `Headers`. */
function ownHeaderNames(res: Response): Iterable<string> {
  cacheKey ??= Object.getOwnPropertySymbols(res).find((s) => s.description === 'cache');
  const cached: unknown = cacheKey ? (res as unknown as Record<symbol, unknown>)[cacheKey] : undefined;
  if (!Array.isArray(cached)) return res.headers.keys();
  const given: unknown = cached[2];
  if (given === undefined || given === null) return [];
  if (given instanceof Headers) return given.keys();
  if (Array.isArray(given)) return (given as [string, string][]).map(([name]) => name.toLowerCase());
  return Object.keys(given).map((name) => name.toLowerCase());
}

function answerHas(c: Context, lowerName: string): boolean {
  for (const name of ownHeaderNames(c.res)) if (name === lowerName) return true;
  return false;
}

/** Sets a header on the answer itself (in place; through Hono's copy when its headers cannot change). */
function setAnswerHeader(c: Context, name: string, value: string, options?: { append?: boolean }): void {
  try {
    if (options?.append) c.res.headers.append(name, value);
    else c.res.headers.set(name, value);
  } catch {
    c.header(name, value, options);
  }
}

function deleteAnswerHeader(c: Context, name: string): void {
  try {
    c.res.headers.delete(name);
  } catch {
    c.header(name, undefined);
  }
}

/** Before the handler: `value`, unless the answer the handler makes sets its own. */
export function presetAnswerHeader(c: Context, name: string, value: string): void {
  const head = openHead(c);
  if (head) head.setHeader(name, value);
  else c.header(name, value);
}

/** After the handler: `value`, unless the answer has its own. */
export function defaultAnswerHeader(c: Context, name: string, value: string): void {
  const head = openHead(c);
  if (head) head.setHeader(name, value);
  else if (!c.res.headers.has(name)) setAnswerHeader(c, name, value);
}

/** After the handler: `value` added to the answer's own (`Vary`, say), or alone. */
export function appendAnswerHeader(c: Context, name: string, value: string): void {
  const head = openHead(c);
  if (head && !answerHas(c, name.toLowerCase())) head.setHeader(name, value);
  else setAnswerHeader(c, name, value, { append: true });
}

/** Headers that win over the answer's own, and headers an answer never carries: made once, used on every answer. */
export interface EnforcedHeaders {
  readonly set: readonly (readonly [string, string])[];
  readonly removed: readonly string[];
  /** Both, in lower case. */
  readonly names: ReadonlySet<string>;
}

export function enforcedHeaders(set: readonly (readonly [string, string])[], removed: readonly string[]): EnforcedHeaders {
  return { set, removed, names: new Set([...set.map(([name]) => name), ...removed].map((name) => name.toLowerCase())) };
}

/** After the handler: `headers.set` whatever the answer says, and none of `headers.removed`. */
export function enforceAnswerHeaders(c: Context, headers: EnforcedHeaders): void {
  const head = openHead(c);
  if (head) {
    for (const [name, value] of headers.set) head.setHeader(name, value);
    let clashing: string[] | undefined;
    for (const name of ownHeaderNames(c.res)) if (headers.names.has(name)) (clashing ??= []).push(name);
    if (clashing) for (const name of clashing) deleteAnswerHeader(c, name);
    return;
  }
  const own = c.res.headers;
  try {
    for (const [name, value] of headers.set) own.set(name, value);
    for (const name of headers.removed) own.delete(name);
  } catch {
    // An answer whose headers cannot change (one made by `fetch`): through Hono's copy.
    for (const [name, value] of headers.set) setAnswerHeader(c, name, value);
    for (const name of headers.removed) c.res.headers.delete(name);
  }
}

/** After the handler: `value` whatever the answer says. */
export function overrideAnswerHeader(c: Context, name: string, value: string): void {
  const head = openHead(c);
  if (!head) return setAnswerHeader(c, name, value);
  head.setHeader(name, value);
  const lower = name.toLowerCase();
  if (answerHas(c, lower)) deleteAnswerHeader(c, lower);
}
