/**
 * A JSON logger's lines, kept for assertions, and awaited as events: `line(match)` resolves with
 * the first line that matches, whether written already or still to come.
 */
import { createJsonLogger, type Logger } from '@onboarding-kit/server';

export type LogLine = Record<string, unknown>;

export interface LogLines {
  logger: Logger;
  /** Every line as written. */
  raw: string[];
  lines(): LogLine[];
  line(match: (l: LogLine) => boolean): Promise<LogLine>;
}

export function logLines(): LogLines {
  const raw: string[] = [];
  const parsed: LogLine[] = [];
  const waiters = new Set<{ match: (l: LogLine) => boolean; resolve: (l: LogLine) => void }>();
  const sink = (text: string) => {
    raw.push(text);
    const l = JSON.parse(text) as LogLine;
    parsed.push(l);
    for (const w of [...waiters]) {
      if (!w.match(l)) continue;
      waiters.delete(w);
      w.resolve(l);
    }
  };
  return {
    logger: createJsonLogger({ sink, level: 'debug' }),
    raw,
    lines: () => [...parsed],
    line: (match) => {
      const seen = parsed.find(match);
      return seen ? Promise.resolve(seen) : new Promise((resolve) => waiters.add({ match, resolve }));
    },
  };
}
