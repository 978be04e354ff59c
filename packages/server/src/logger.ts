/**
 * Structured JSON logs, one object per line, with redaction as a safety net: the code logs only
 * what it means to, and this layer still masks tax ids and removes anything secret-looking, so a
 * careless field never puts a credential, access token, key, image or full CPF in a log line.
 */
import { maskTaxId } from '@onboarding-kit/contract';

export type LogLevel = 'debug' | 'info' | 'warn' | 'error';
export type LogFields = Record<string, unknown>;

export interface Logger {
  debug(msg: string, fields?: LogFields): void;
  info(msg: string, fields?: LogFields): void;
  warn(msg: string, fields?: LogFields): void;
  error(msg: string, fields?: LogFields): void;
  /** A logger that adds `fields` to every line (for example the request id). */
  child(fields: LogFields): Logger;
}

export interface JsonLoggerOptions {
  /** Where lines go (default: stdout). Receives one JSON text per call, without newline. */
  sink?: (line: string) => void;
  level?: LogLevel;
  /** Added to every line. */
  base?: LogFields;
  /** Exact values that must never appear (client secret, webhook key...), replaced wherever seen. */
  secrets?: () => Iterable<string>;
}

const LEVELS: Record<LogLevel, number> = { debug: 10, info: 20, warn: 30, error: 40 };

/** Keys whose values are secrets or personal data whatever they hold. */
const SECRET_KEY = /secret|password|authorization|cookie|access_?token|access_?key|webhook_?key|admin_?key|id-service-token|^token$|^image|selfie|^images$|documentFront|documentBack|documentFiles|^document$/i;
/** Keys holding a tax id: kept masked (`529.***.***-25`), which is enough for support. */
const TAX_ID_KEY = /^(cpf|cnpj|taxId|documentKey)$/i;
/** A CPF written anywhere in free text, with or without punctuation. */
const CPF_IN_TEXT = /(?<![0-9A-Za-z])\d{3}\.?\d{3}\.?\d{3}-?\d{2}(?![0-9A-Za-z])/g;
/** A numeric CNPJ written anywhere in free text. */
const CNPJ_IN_TEXT = /(?<![0-9A-Za-z])\d{2}\.?\d{3}\.?\d{3}\/?\d{4}-?\d{2}(?![0-9A-Za-z])/g;

export function redactText(text: string, secrets: Iterable<string> = []): string {
  let out = text;
  for (const s of secrets) if (s && s.length >= 6) out = out.split(s).join('[redacted]');
  return out.replace(CNPJ_IN_TEXT, (m) => maskTaxId(m)).replace(CPF_IN_TEXT, (m) => maskTaxId(m));
}

export function redact(value: unknown, secrets: readonly string[] = [], depth = 0): unknown {
  if (depth > 8) return '[deep]';
  if (typeof value === 'string') return redactText(value.length > 2000 ? `${value.slice(0, 2000)}...` : value, secrets);
  if (value instanceof Error) return redactText(`${value.name}: ${value.message}`, secrets);
  if (Array.isArray(value)) return value.slice(0, 50).map((v) => redact(v, secrets, depth + 1));
  if (value && typeof value === 'object') {
    const out: Record<string, unknown> = {};
    for (const [k, v] of Object.entries(value)) {
      if (SECRET_KEY.test(k)) out[k] = '[redacted]';
      else if (TAX_ID_KEY.test(k) && typeof v === 'string') out[k] = v.includes('*') ? v : maskTaxId(v);
      else out[k] = redact(v, secrets, depth + 1);
    }
    return out;
  }
  return value;
}

export function createJsonLogger(options: JsonLoggerOptions = {}): Logger {
  const sink = options.sink ?? ((line: string) => process.stdout.write(`${line}\n`));
  const min = LEVELS[options.level ?? 'info'];
  const make = (base: LogFields): Logger => {
    const write = (level: LogLevel, msg: string, fields?: LogFields) => {
      if (LEVELS[level] < min) return;
      const secrets = [...(options.secrets?.() ?? [])];
      const line = { time: new Date().toISOString(), level, msg: redactText(msg, secrets), ...(redact({ ...base, ...fields }, secrets) as LogFields) };
      try {
        sink(JSON.stringify(line));
      } catch {
        // A broken sink must never break a request.
      }
    };
    return {
      debug: (m, f) => write('debug', m, f),
      info: (m, f) => write('info', m, f),
      warn: (m, f) => write('warn', m, f),
      error: (m, f) => write('error', m, f),
      child: (fields) => make({ ...base, ...fields }),
    };
  };
  return make(options.base ?? {});
}

/** Discards everything (for integrators who log elsewhere). */
export const silentLogger: Logger = {
  debug() {}, info() {}, warn() {}, error() {}, child() { return silentLogger; },
};

/** Wraps any logger so that fields and messages are redacted before they reach it. */
export function redactingLogger(inner: Logger, secrets: () => Iterable<string>): Logger {
  const clean = (fields?: LogFields) => {
    const s = [...secrets()];
    return fields ? (redact(fields, s) as LogFields) : undefined;
  };
  const text = (msg: string) => redactText(msg, [...secrets()]);
  return {
    debug: (m, f) => inner.debug(text(m), clean(f)),
    info: (m, f) => inner.info(text(m), clean(f)),
    warn: (m, f) => inner.warn(text(m), clean(f)),
    error: (m, f) => inner.error(text(m), clean(f)),
    child: (fields) => redactingLogger(inner.child(clean(fields) ?? {}), secrets),
  };
}
