/**
 * Structured JSON logs, one object per line, with redaction as a safety net: the code logs only
 * what it means to, and this layer still masks tax ids and removes anything secret-looking, so a
 * careless field never puts a credential, access token, key, image or full CPF in a log line.
 */
import { maskTaxId } from '@onboarding-kit/contract';
import { writeSync } from 'node:fs';

export type LogLevel = 'debug' | 'info' | 'warn' | 'error';
/** `json`: one JSON object per line (time, level, msg, fields); `text`: the same, as `time LEVEL msg key=value...` for a terminal. */
export type LogFormat = 'json' | 'text';
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
  /** How a line is written (default `json`); redaction is the same either way. */
  format?: LogFormat;
}

const LEVELS: Record<LogLevel, number> = { debug: 10, info: 20, warn: 30, error: 40 };

/** Keys whose values are secrets or personal data whatever they hold. */
const SECRET_KEY =
  /secret|password|authorization|cookie|access_?token|access_?key|webhook_?key|admin_?key|id-service-token|^token$|^image|selfie|^images$|documentFront|documentBack|documentFiles|^document$/i;
/** Keys holding a tax id: kept masked (`529.***.***-25`), which is enough for support. */
const TAX_ID_KEY = /^(cpf|cnpj|taxId|documentKey)$/i;
/** A CPF written anywhere in free text, with or without punctuation. */
const CPF_IN_TEXT = /(?<![0-9A-Za-z])\d{3}\.?\d{3}\.?\d{3}-?\d{2}(?![0-9A-Za-z])/g;
/** A numeric CNPJ written anywhere in free text. */
const CNPJ_IN_TEXT = /(?<![0-9A-Za-z])\d{2}\.?\d{3}\.?\d{3}\/?\d{4}-?\d{2}(?![0-9A-Za-z])/g;

function redactText(text: string, secrets: Iterable<string> = []): string {
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

const PLAIN_FIELD = 0;
const REDACTED_FIELD = 1;
const TAX_ID_FIELD = 2;
/** What each field name seen is (the names come from the code: a few dozen), so the patterns run once per name. */
const keyKinds = new Map<string, number>();

function keyKind(key: string): number {
  let kind = keyKinds.get(key);
  if (kind === undefined) {
    kind = SECRET_KEY.test(key) ? REDACTED_FIELD : TAX_ID_KEY.test(key) ? TAX_ID_FIELD : PLAIN_FIELD;
    // Bounded, should a caller ever log objects keyed by data.
    if (keyKinds.size < 1_000) keyKinds.set(key, kind);
  }
  return kind;
}

function redact(value: unknown, secrets: readonly string[] = [], depth = 0): unknown {
  if (depth > 8) return '[deep]';
  if (typeof value === 'string') return redactText(value.length > 2000 ? `${value.slice(0, 2000)}...` : value, secrets);
  if (value instanceof Error) return redactText(`${value.name}: ${value.message}`, secrets);
  if (Array.isArray(value)) return value.slice(0, 50).map((v) => redact(v, secrets, depth + 1));
  if (value && typeof value === 'object') {
    const out: Record<string, unknown> = {};
    for (const k in value) {
      if (!Object.hasOwn(value, k)) continue;
      const v = (value as Record<string, unknown>)[k];
      const kind = keyKind(k);
      if (kind === REDACTED_FIELD) out[k] = '[redacted]';
      else if (kind === TAX_ID_FIELD && typeof v === 'string') out[k] = v.includes('*') ? v : maskTaxId(v);
      else out[k] = redact(v, secrets, depth + 1);
    }
    return out;
  }
  return value;
}

export function createJsonLogger(options: JsonLoggerOptions = {}): Logger {
  const sink = options.sink ?? writeToStdout;
  return new JsonLogger(
    options.base ?? {},
    options.format === 'text' ? (line) => sink(textLine(line)) : sink,
    LEVELS[options.level ?? 'info'],
    options.secrets,
  );
}

/** A redacted JSON line as `time LEVEL msg key=value ...`: strings bare when they hold no space or quote, anything else as JSON. */
function textLine(json: string): string {
  const { time, level, msg, ...fields } = JSON.parse(json) as { time: string; level: string; msg: string } & LogFields;
  let out = `${time} ${level.toUpperCase().padEnd(5)} ${msg}`;
  for (const [key, value] of Object.entries(fields)) {
    out += ` ${key}=${typeof value === 'string' && /^[^\s"=]+$/.test(value) ? value : JSON.stringify(value)}`;
  }
  return out;
}

/**
 * The default sink: lines are joined and written to stdout once per turn of the event loop (one
 * write for all the lines of the requests answered in that turn, not one per line), at once past
 * 64 KiB, and synchronously when the process exits (`process.exit()`, an uncaught exception, the
 * end of the event loop), so no line is lost on shutdown.
 */
class StdoutBatch {
  private lines: string[] = [];
  private bytes = 0;
  private scheduled = false;
  private hooked = false;
  private readonly flushSoon = () => {
    this.scheduled = false;
    this.flush();
  };

  add(line: string): void {
    if (!this.hooked) {
      this.hooked = true;
      process.once('exit', () => this.flush(true));
    }
    this.lines.push(line);
    this.bytes += line.length + 1;
    if (this.bytes >= 65_536) this.flush();
    else if (!this.scheduled) {
      this.scheduled = true;
      setImmediate(this.flushSoon).unref();
    }
  }

  /** Writes what is held; `sync` (on exit): straight to the file descriptor. */
  flush(sync = false): void {
    if (this.lines.length === 0) return;
    const text = `${this.lines.join('\n')}\n`;
    this.lines = [];
    this.bytes = 0;
    if (sync && typeof process.stdout.fd === 'number') {
      try {
        writeSync(process.stdout.fd, text);
        return;
      } catch {
        // Fall back to the stream below.
      }
    }
    try {
      process.stdout.write(text);
    } catch {
      // A broken stdout must never break the process.
    }
  }
}

const stdoutBatch = new StdoutBatch();
const writeToStdout = (line: string) => stdoutBatch.add(line);

let lastMs = Number.NaN;
let lastIso = '';

/** Now as ISO 8601, formatted once per millisecond: a busy companion writes several lines in each. */
function isoNow(): string {
  const now = Date.now();
  if (now !== lastMs) {
    lastMs = now;
    lastIso = new Date(now).toISOString();
  }
  return lastIso;
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

  /** This logger redacting `more` secrets too: one redaction pass per line where two loggers made two. */
  withSecrets(more: () => Iterable<string>): JsonLogger {
    const own = this.secrets;
    return new JsonLogger(this.base, this.sink, this.min, own ? () => [...own(), ...more()] : more);
  }

  private write(level: LogLevel, msg: string, fields?: LogFields): void {
    if (LEVELS[level] < this.min) return;
    const secrets = [...(this.secrets?.() ?? [])];
    const line = { time: isoNow(), level, msg: redactText(msg, secrets), ...(redact({ ...this.base, ...fields }, secrets) as LogFields) };
    try {
      this.sink(JSON.stringify(line));
    } catch {
      // A broken sink must never break a request.
    }
  }
}

/** Discards everything (for integrators who log elsewhere). */
export const silentLogger: Logger = {
  debug() {},
  info() {},
  warn() {},
  error() {},
  child() {
    return silentLogger;
  },
};

/** Wraps any logger so that fields and messages are redacted before they reach it. */
export function redactingLogger(inner: Logger, secrets: () => Iterable<string>): Logger {
  // The JSON logger redacts every line already: it takes these secrets into its own pass.
  if (inner instanceof JsonLogger) return inner.withSecrets(secrets);
  return new RedactingLogger(inner, secrets);
}

class RedactingLogger implements Logger {
  constructor(
    private readonly inner: Logger,
    private readonly secrets: () => Iterable<string>,
  ) {}

  debug(msg: string, fields?: LogFields): void {
    this.#log('debug', msg, fields);
  }
  info(msg: string, fields?: LogFields): void {
    this.#log('info', msg, fields);
  }
  warn(msg: string, fields?: LogFields): void {
    this.#log('warn', msg, fields);
  }
  error(msg: string, fields?: LogFields): void {
    this.#log('error', msg, fields);
  }
  #log(level: 'debug' | 'info' | 'warn' | 'error', msg: string, fields: LogFields | undefined): void {
    const s = [...this.secrets()];
    this.inner[level](redactText(msg, s), clean(fields, s));
  }
  child(fields: LogFields): Logger {
    return new RedactingLogger(this.inner.child(clean(fields, [...this.secrets()]) ?? {}), this.secrets);
  }
}

function clean(fields: LogFields | undefined, secrets: readonly string[]): LogFields | undefined {
  return fields ? (redact(fields, secrets) as LogFields) : undefined;
}
