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
  for (const s of secrets) if (s && s.length >= 6 && out.includes(s)) out = out.split(s).join('[redacted]');
  // Both patterns need three digits in a row somewhere: most log text has none, and is left as it is.
  return hasThreeDigits(out) ? out.replace(CNPJ_IN_TEXT, (m) => maskTaxId(m)).replace(CPF_IN_TEXT, (m) => maskTaxId(m)) : out;
}

function hasThreeDigits(text: string): boolean {
  let run = 0;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c >= 48 && c <= 57) {
      if (++run === 3) return true;
    } else run = 0;
  }
  return false;
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
  return new JsonLogger(options.base ?? {}, sink, LEVELS[options.level ?? 'info'], options.secrets);
}

// Classes rather than objects of closures: a child logger per request is then one small object.
class JsonLogger implements Logger {
  constructor(
    private readonly base: LogFields,
    private readonly sink: (line: string) => void,
    private readonly min: number,
    private readonly secrets: (() => Iterable<string>) | undefined,
  ) {}

  debug(msg: string, fields?: LogFields): void {
    this.write('debug', msg, fields);
  }
  info(msg: string, fields?: LogFields): void {
    this.write('info', msg, fields);
  }
  warn(msg: string, fields?: LogFields): void {
    this.write('warn', msg, fields);
  }
  error(msg: string, fields?: LogFields): void {
    this.write('error', msg, fields);
  }
  child(fields: LogFields): Logger {
    return new JsonLogger({ ...this.base, ...fields }, this.sink, this.min, this.secrets);
  }

  private write(level: LogLevel, msg: string, fields?: LogFields): void {
    if (LEVELS[level] < this.min) return;
    const secrets = [...(this.secrets?.() ?? [])];
    const line = { time: new Date().toISOString(), level, msg: redactText(msg, secrets), ...(redact({ ...this.base, ...fields }, secrets) as LogFields) };
    try {
      this.sink(JSON.stringify(line));
    } catch {
      // A broken sink must never break a request.
    }
  }
}

/** Discards everything (for integrators who log elsewhere). */
export const silentLogger: Logger = {
  debug() {}, info() {}, warn() {}, error() {}, child() { return silentLogger; },
};

/** Wraps any logger so that fields and messages are redacted before they reach it. */
export function redactingLogger(inner: Logger, secrets: () => Iterable<string>): Logger {
  return new RedactingLogger(inner, secrets);
}

class RedactingLogger implements Logger {
  constructor(
    private readonly inner: Logger,
    private readonly secrets: () => Iterable<string>,
  ) {}

  debug(msg: string, fields?: LogFields): void {
    const s = [...this.secrets()];
    this.inner.debug(redactText(msg, s), clean(fields, s));
  }
  info(msg: string, fields?: LogFields): void {
    const s = [...this.secrets()];
    this.inner.info(redactText(msg, s), clean(fields, s));
  }
  warn(msg: string, fields?: LogFields): void {
    const s = [...this.secrets()];
    this.inner.warn(redactText(msg, s), clean(fields, s));
  }
  error(msg: string, fields?: LogFields): void {
    const s = [...this.secrets()];
    this.inner.error(redactText(msg, s), clean(fields, s));
  }
  child(fields: LogFields): Logger {
    return new RedactingLogger(this.inner.child(clean(fields, [...this.secrets()]) ?? {}), this.secrets);
  }
}

function clean(fields: LogFields | undefined, secrets: readonly string[]): LogFields | undefined {
  return fields ? (redact(fields, secrets) as LogFields) : undefined;
}
