/** The checks that stop the companion at start on a bad option, every problem named at once. */
import { IMAGE_ROLES, isHttpUrl } from '@onboarding-kit/contract';
import type { CompanionOptions } from '../options.js';
import { CompanionConfigError } from './config-error.js';
import { keyOf, scopesProblem } from '../auth/key-scopes.js';
import { plainHttpRefused } from '../net/address-rules.js';
import { OPTION_LIMITS, sessionsMode } from './defaults.js';

const HTTPS_IN_PRODUCTION = (name: string) => `${name} must be https in production (plain http only on a loopback host)`;

export function checkOptions(o: CompanionOptions): void {
  const problems: string[] = [];
  try {
    const u = new URL(o.baseUrl);
    if (u.protocol !== 'http:' && u.protocol !== 'https:') problems.push('baseUrl must be an http(s) URL');
  } catch {
    problems.push('baseUrl must be an absolute URL');
  }
  for (const key of ['client', 'secret', 'webhookKey'] as const)
    if (typeof o[key] !== 'string' || !o[key]) problems.push(`${key} is required`);
  problems.push(...keyAndUrlProblems(o));
  if (o.environment !== undefined && o.environment !== 'test' && o.environment !== 'production')
    problems.push("environment must be 'test' or 'production'");
  problems.push(...limitProblems(o));
  for (const origin of o.allowedOrigins ?? []) {
    try {
      if (new URL(origin).origin !== origin.replace(/\/+$/, ''))
        problems.push(`allowed origin "${origin}" must be scheme://host[:port] only`);
    } catch {
      problems.push(`allowed origin "${origin}" is not a URL`);
    }
  }
  for (const role of Object.keys(o.documentFileTypes ?? {}))
    if (!(IMAGE_ROLES as readonly string[]).includes(role)) problems.push(`documentFileTypes has an unknown role "${role}"`);
  if (problems.length) throw new CompanionConfigError(`Invalid companion options: ${problems.join('; ')}.`);
}

/** The keys and the addresses the companion sends to or names: their lengths, scopes, and https in production. */
function keyAndUrlProblems(o: CompanionOptions): string[] {
  const problems: string[] = [];
  if (
    o.environment === 'production' &&
    typeof o.webhookKey === 'string' &&
    o.webhookKey &&
    o.webhookKey.length < OPTION_LIMITS.webhookKeyMinLength
  )
    problems.push(`webhookKey must have at least ${OPTION_LIMITS.webhookKeyMinLength} characters in production`);
  if (o.adminKey !== undefined && o.adminKey.length < OPTION_LIMITS.adminKeyMinLength)
    problems.push(`adminKey must have at least ${OPTION_LIMITS.adminKeyMinLength} characters`);
  (o.apiKeys ?? []).forEach((input, i) => {
    const key = keyOf(input);
    if (typeof key !== 'string' || key.length < OPTION_LIMITS.secretMinLength || /\s/.test(key))
      problems.push(`each API key must have at least ${OPTION_LIMITS.secretMinLength} characters and no spaces`);
    // The position, never the key: this message reaches logs.
    const scoped = typeof input === 'object' && input !== null ? scopesProblem(input.scopes) : null;
    if (scoped) problems.push(`API key #${i + 1}: ${scoped}`);
  });
  if (o.sessions !== undefined && o.sessions !== 'required' && o.sessions !== 'optional')
    problems.push("sessions must be 'required' or 'optional'");
  if (sessionsMode(o) === 'required' && !o.apiKeys?.length) {
    problems.push('sessions are required (the default in production) but no apiKeys are set to open them');
  }
  if (o.notify !== undefined) {
    if (!isHttpUrl(o.notify.url)) problems.push('notify.url must be an absolute http(s) URL');
    else if (plainHttpRefused(o.notify.url, o.environment)) problems.push(HTTPS_IN_PRODUCTION('notify.url'));
    const secrets = typeof o.notify.secret === 'string' ? [o.notify.secret] : [...(o.notify.secret ?? [])];
    if (secrets.length === 0 || secrets.some((s) => typeof s !== 'string' || s.length < OPTION_LIMITS.secretMinLength)) {
      problems.push(`notify.secret must have at least ${OPTION_LIMITS.secretMinLength} characters`);
    }
  }
  if (o.publicUrl !== undefined && !isHttpUrl(o.publicUrl)) problems.push('publicUrl must be an absolute http(s) URL');
  else if (o.publicUrl !== undefined && plainHttpRefused(o.publicUrl, o.environment)) problems.push(HTTPS_IN_PRODUCTION('publicUrl'));
  return problems;
}

/** The numeric limits: whole numbers within their bounds. */
function limitProblems(o: CompanionOptions): string[] {
  const problems: string[] = [];
  if (o.imageMaxBytes !== undefined && (!Number.isInteger(o.imageMaxBytes) || o.imageMaxBytes < OPTION_LIMITS.imageMaxBytesMin)) {
    problems.push(`imageMaxBytes must be an integer of at least ${OPTION_LIMITS.imageMaxBytesMin}`);
  }
  if (o.rateLimit !== undefined && (!Number.isInteger(o.rateLimit) || o.rateLimit < 0))
    problems.push('rateLimit must be a whole number, 0 for off');
  if (o.creations?.concurrent !== undefined && !(Number.isInteger(o.creations.concurrent) && o.creations.concurrent >= 1))
    problems.push('creations.concurrent must be a whole number of at least 1');
  if (o.creations?.waiting !== undefined && !(Number.isInteger(o.creations.waiting) && o.creations.waiting >= 0))
    problems.push('creations.waiting must be a whole number, 0 for none');
  for (const name of ['bodyTimeoutMs', 'minBytesPerS', 'graceMs'] as const) {
    const value = o.creations?.[name];
    if (value !== undefined && !(Number.isInteger(value) && value >= 1))
      problems.push(`creations.${name} must be a whole number of at least 1`);
  }
  if (o.creations?.perClient !== undefined && !(Number.isInteger(o.creations.perClient) && o.creations.perClient >= 0))
    problems.push('creations.perClient must be a whole number, 0 for off');
  // A lease that outlives its instance longer delays the takeover of its onboardings just as long.
  const lease = OPTION_LIMITS.pollLeaseMs;
  if (o.poll?.leaseMs !== undefined && !(o.poll.leaseMs >= lease.min && o.poll.leaseMs <= lease.max))
    problems.push(`poll.leaseMs must be from ${lease.min} to ${lease.max}`);
  for (const [name, value] of Object.entries(o.inspectionChecks ?? {}))
    if (value !== undefined && !(Number.isInteger(value) && value >= 1))
      problems.push(`inspectionChecks.${name} must be a whole number of ms, at least 1`);
  const ttl = OPTION_LIMITS.handoffTtlMs;
  if (o.handoff?.ttlMs !== undefined && !(Number.isInteger(o.handoff.ttlMs) && o.handoff.ttlMs >= ttl.min && o.handoff.ttlMs <= ttl.max))
    problems.push(`handoff.ttlMs must be a whole number from ${ttl.min} to ${ttl.max}`);
  if (
    o.handoff?.codeAttemptsPerMinute !== undefined &&
    !(Number.isInteger(o.handoff.codeAttemptsPerMinute) && o.handoff.codeAttemptsPerMinute >= 1)
  )
    problems.push('handoff.codeAttemptsPerMinute must be a whole number of at least 1');
  if (o.trustedProxies !== undefined && !(Number.isInteger(o.trustedProxies) && o.trustedProxies >= 0))
    problems.push('trustedProxies must be a whole number, 0 for none');
  if (o.shutdownGraceMs !== undefined && !(o.shutdownGraceMs >= 0)) problems.push('shutdownGraceMs must be 0 or more');
  return problems;
}
