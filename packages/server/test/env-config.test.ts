/**
 * The `ONBOARDING_*` variables read in one place for both runners (`onboarding-companion` and
 * `npm start`): every problem collected into one list, the upstream named explicitly for the
 * companion alone, the embedded sandbox never in production, the log format, `--check`'s
 * redaction, and docs/deploy.md's table listing every variable the reader knows.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { createJsonLogger, readEnvConfig, type EnvConfig } from '@onboarding-kit/server';
import { describeEnvConfig } from '../src/cli/describe-config.js';

const REAL = {
  ONBOARDING_BASE_URL: 'https://api.example.com',
  ONBOARDING_CLIENT: 'client-id',
  ONBOARDING_SECRET: 'upstream-secret',
  ONBOARDING_WEBHOOK_KEY: 'w'.repeat(32),
};
const KEY = 'k'.repeat(40);

function ok(result: ReturnType<typeof readEnvConfig>): EnvConfig {
  assert.ok(result.ok, result.ok ? '' : result.errors.join('\n'));
  return result.config;
}

test('the companion alone needs its upstream named: ONBOARDING_BASE_URL, or ONBOARDING_UPSTREAM=sandbox; npm start defaults to the sandbox', () => {
  const none = readEnvConfig({}, { runner: 'companion' });
  assert.ok(!none.ok);
  assert.match(none.errors.join('\n'), /ONBOARDING_BASE_URL is required/);
  assert.equal(ok(readEnvConfig({}, { runner: 'demo' })).baseUrl, undefined);
  assert.equal(ok(readEnvConfig({ ONBOARDING_UPSTREAM: 'sandbox' }, { runner: 'companion' })).baseUrl, undefined);
  assert.equal(ok(readEnvConfig(REAL, { runner: 'companion' })).baseUrl, 'https://api.example.com');

  for (const runner of ['companion', 'demo'] as const) {
    const both = readEnvConfig({ ...REAL, ONBOARDING_UPSTREAM: 'sandbox' }, { runner });
    assert.ok(!both.ok);
    assert.match(both.errors.join('\n'), /ONBOARDING_UPSTREAM=sandbox and ONBOARDING_BASE_URL are both set/);
    const other = readEnvConfig({ ONBOARDING_UPSTREAM: 'https://api.example.com' }, { runner });
    assert.ok(!other.ok);
    assert.match(other.errors.join('\n'), /ONBOARDING_UPSTREAM must be "sandbox" or unset/);
    const production = readEnvConfig(
      { ONBOARDING_UPSTREAM: 'sandbox', ONBOARDING_ENVIRONMENT: 'production', ONBOARDING_API_KEYS: KEY },
      { runner },
    );
    assert.ok(!production.ok);
    assert.match(production.errors.join('\n'), /production needs ONBOARDING_BASE_URL: the embedded sandbox is for development only/);
  }
});

test('every problem is listed at once, none of them quoting a secret', () => {
  const result = readEnvConfig(
    {
      ONBOARDING_ENVIRONMENT: 'production',
      ONBOARDING_BASE_URL: 'http://api.example.com',
      ONBOARDING_WEBHOOK_KEY: 'short-webhook-key',
      ONBOARDING_NOTIFY_SECRET: 'notify-secret-too-short',
      ONBOARDING_IMAGE_MAX_BYTES: '12',
      ONBOARDING_LOG_LEVEL: 'loud',
      ONBOARDING_LOG_FORMAT: 'yaml',
      HOST: '0.0.0.0',
    },
    { runner: 'companion' },
  );
  assert.ok(!result.ok);
  const text = result.errors.join('\n');
  for (const expected of [
    /ONBOARDING_BASE_URL must be https in production/,
    /ONBOARDING_CLIENT is required/,
    /ONBOARDING_SECRET is required/,
    /ONBOARDING_WEBHOOK_KEY must have at least 32 characters/,
    /ONBOARDING_NOTIFY_SECRET is set but ONBOARDING_NOTIFY_URL is not: set both, or neither to send no notifications/,
    /ONBOARDING_IMAGE_MAX_BYTES must be a whole number/,
    /ONBOARDING_LOG_LEVEL must be "debug", "info", "warn", "error"/,
    /ONBOARDING_LOG_FORMAT must be "json", "text"/,
    /ONBOARDING_PUBLIC_URL is required in production/,
    /ONBOARDING_API_KEYS is required when sessions are required \(ONBOARDING_SESSIONS=required, the default in production\)/,
  ])
    assert.match(text, expected);
  for (const secret of ['short-webhook-key', 'notify-secret-too-short']) assert.ok(!text.includes(secret));
  // npm start adds an API key of its own: no such requirement there.
  const demo = readEnvConfig({ ...REAL, ONBOARDING_ENVIRONMENT: 'production' }, { runner: 'demo' });
  assert.ok(demo.ok, demo.ok ? '' : demo.errors.join('\n'));
});

test('log format and level: json and info by default, text on request', () => {
  const config = ok(readEnvConfig(REAL, { runner: 'companion' }));
  assert.deepEqual([config.logFormat, config.logLevel], ['json', 'info']);
  const text = ok(readEnvConfig({ ...REAL, ONBOARDING_LOG_FORMAT: 'text', ONBOARDING_LOG_LEVEL: 'warn' }, { runner: 'companion' }));
  assert.deepEqual([text.logFormat, text.logLevel], ['text', 'warn']);
});

test('the text format writes the JSON line as time LEVEL msg key=value, redacted the same way', () => {
  const lines: string[] = [];
  const logger = createJsonLogger({ sink: (l) => lines.push(l), format: 'text', secrets: () => ['upstream-secret'] });
  logger.info('upstream answered', { status: 502, reason: 'bad gateway', token: 'abc', cpf: '52998224725', note: 'upstream-secret here' });
  assert.equal(lines.length, 1);
  assert.match(
    lines[0]!,
    /^\d{4}-\d\d-\d\dT[\d:.]+Z INFO {2}upstream answered status=502 reason="bad gateway" token=\[redacted\] cpf=529\.\*\*\*\.\*\*\*-25 note="\[redacted\] here"$/,
  );
  const json: string[] = [];
  createJsonLogger({ sink: (l) => json.push(l) }).warn('plain', { a: 1 });
  assert.deepEqual(Object.keys(JSON.parse(json[0]!) as object), ['time', 'level', 'msg', 'a']);
});

test('--check: secrets redacted, URLs without credentials or query, scopes and key ids shown', () => {
  const env = {
    ...REAL,
    ONBOARDING_API_KEYS: `${KEY}:sessions,${'m'.repeat(40)}`,
    ONBOARDING_NOTIFY_URL: 'https://user:pw-in-url@hooks.example.com/n?sig=query-secret',
    ONBOARDING_NOTIFY_SECRET: `${'n'.repeat(32)},${'o'.repeat(32)}`,
    ONBOARDING_STORE: 'redis://:redis-pass@redis.internal:6379/2',
    ONBOARDING_DATA_KEY: `new:${Buffer.alloc(32, 1).toString('base64')},old:${Buffer.alloc(32, 2).toString('base64')}`,
    ONBOARDING_ADMIN_KEY: 'admin-key-0123456789',
  };
  const lines = describeEnvConfig(ok(readEnvConfig(env, { runner: 'companion' })), env);
  const text = lines.join('\n');
  for (const secret of [
    'upstream-secret',
    'client-id',
    'w'.repeat(32),
    KEY,
    'm'.repeat(40),
    'n'.repeat(32),
    'o'.repeat(32),
    'pw-in-url',
    'query-secret',
    'redis-pass',
    Buffer.alloc(32, 1).toString('base64'),
    Buffer.alloc(32, 2).toString('base64'),
    'admin-key-0123456789',
  ])
    assert.ok(!text.includes(secret), `${secret} printed:\n${text}`);
  for (const line of [
    'ONBOARDING_API_KEYS=[redacted]:sessions, [redacted] (scopes of the environment)',
    'ONBOARDING_NOTIFY_URL=https://[redacted]@hooks.example.com/n (query [redacted])',
    'ONBOARDING_NOTIFY_SECRET=[redacted], [redacted]',
    'ONBOARDING_STORE=redis://[redacted]@redis.internal:6379/2',
    'ONBOARDING_REDIS_PREFIX=okit:  (default)',
    'ONBOARDING_DATA_KEY=new:[redacted] (encrypts), old:[redacted]',
    'ONBOARDING_ADMIN_KEY=[redacted]',
  ])
    assert.ok(lines.includes(line), `${line}\n--- in ---\n${text}`);
});

test("docs/deploy.md's table lists every variable the reader and the check know", () => {
  const read = (path: string) => readFileSync(new URL(path, import.meta.url), 'utf8');
  const sources = read('../src/config/env-config.ts') + read('../src/cli/describe-config.ts');
  const names = new Set([...sources.matchAll(/'((?:ONBOARDING|SANDBOX)_[A-Z_]+|PORT|HOST)'/g)].map((m) => m[1]!));
  assert.ok(names.size > 25, [...names].join(' '));
  const doc = read('../../../docs/deploy.md');
  const table = doc.slice(doc.indexOf('## Environment variables'));
  for (const name of names) assert.ok(table.includes(`\`${name}\``), `${name} is missing from docs/deploy.md#environment-variables`);
});
