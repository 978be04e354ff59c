/**
 * A small HTTP server on 127.0.0.1 in front of a real companion, scripted per request: it passes
 * the request through, answers in the companion's place (a 429 with `Retry-After`, a 503), passes
 * it and then loses the companion's answer, hangs, or drops the connection. Every request it got
 * is recorded with its headers, so a test sees what each try carried.
 */
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Socket } from 'node:net';

export type Action =
  | { pass: true }
  /** Passed to the companion, whose answer is recorded and replaced by this one. */
  | { pass: true; answerInstead: Reply }
  | Reply
  | 'hang'
  | 'drop';

export interface Reply {
  status: number;
  headers?: Record<string, string>;
  body?: unknown;
}

export interface Seen {
  method: string;
  url: string;
  headers: IncomingMessage['headers'];
  at: number;
  /** The companion's own answer, when the request was passed. */
  upstream?: { status: number; body: string };
}

export interface Front {
  url: string;
  seen: Seen[];
  close(): Promise<void>;
}

const FORWARDED = ['authorization', 'content-type', 'idempotency-key', 'accept', 'user-agent'];

export async function startFront(target: string, script: (seen: Seen, index: number) => Action): Promise<Front> {
  const seen: Seen[] = [];
  const sockets = new Set<Socket>();
  const server = createServer((req: IncomingMessage, res: ServerResponse) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const entry: Seen = { method: req.method ?? 'GET', url: req.url ?? '/', headers: req.headers, at: Date.now() };
      const index = seen.push(entry) - 1;
      const action = script(entry, index);
      if (action === 'hang') return;
      if (action === 'drop') {
        req.socket.destroy();
        return;
      }
      if ('pass' in action) {
        void (async () => {
          const headers: Record<string, string> = {};
          for (const name of FORWARDED) if (typeof req.headers[name] === 'string') headers[name] = req.headers[name];
          const answer = await fetch(`${target}${entry.url}`, {
            method: entry.method,
            headers,
            ...(chunks.length > 0 && { body: Buffer.concat(chunks) }),
          });
          const text = await answer.text();
          entry.upstream = { status: answer.status, body: text };
          if ('answerInstead' in action) return reply(res, action.answerInstead);
          const out: Record<string, string> = {};
          for (const [name, value] of answer.headers) if (name !== 'content-length' && name !== 'transfer-encoding') out[name] = value;
          res.writeHead(answer.status, out).end(text);
        })();
        return;
      }
      reply(res, action);
    });
  });
  server.on('connection', (s: Socket) => {
    sockets.add(s);
    s.on('close', () => sockets.delete(s));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    seen,
    async close() {
      for (const s of sockets) s.destroy();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

function reply(res: ServerResponse, r: Reply): void {
  const body = r.body === undefined ? '' : typeof r.body === 'string' ? r.body : JSON.stringify(r.body);
  res.writeHead(r.status, { 'content-type': 'application/json', ...r.headers }).end(body);
}

/** The companion's error shape. */
export const errorBody = (code: string, message = 'scripted') => ({ error: { code, message } });
