/**
 * A real receiver of notifications on 127.0.0.1, verifying each request's signature the way an
 * integrator would (verifyNotification on the raw bytes), and answering as each test scripts it.
 */
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { verifyNotification } from '@onboarding-kit/server/verify';

export interface Received {
  id: string;
  type: string;
  body: string;
  signature: string | undefined;
  verified: boolean;
  contentType: string | undefined;
  userAgent: string | undefined;
  at: number;
}

/** What to do with a request: a status to answer, or 'hang' to never answer. */
export type Reply = number | 'hang';

export interface Receiver {
  url: string;
  received: Received[];
  /** Bodies of the tries answered 2xx, in order. */
  delivered(): Received[];
  close(): Promise<void>;
}

export async function startReceiver(secret: string, reply: (r: Received, index: number) => Reply = () => 200): Promise<Receiver> {
  const received: Received[] = [];
  const statuses: number[] = [];
  const hanging = new Set<ServerResponse>();
  const server = createServer((req: IncomingMessage, res: ServerResponse) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      void (async () => {
        const raw = Buffer.concat(chunks);
        const header = req.headers['onboarding-signature'];
        const signature = typeof header === 'string' ? header : undefined;
        let id = '';
        let type = '';
        try {
          ({ id, type } = JSON.parse(raw.toString('utf8')) as { id: string; type: string });
        } catch {
          // Recorded as is: the test sees an empty id.
        }
        const r: Received = {
          id,
          type,
          body: raw.toString('utf8'),
          signature,
          verified: await verifyNotification(raw, signature, secret),
          contentType: req.headers['content-type'],
          userAgent: req.headers['user-agent'],
          at: Date.now(),
        };
        const index = received.push(r) - 1;
        const answer = reply(r, index);
        if (answer === 'hang') {
          hanging.add(res);
          statuses[index] = 0;
          return;
        }
        statuses[index] = answer;
        res.writeHead(answer, { 'Content-Type': 'text/plain' }).end(answer >= 200 && answer < 300 ? 'ok' : 'no');
      })();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/hooks/onboarding`,
    received,
    delivered: () => received.filter((_, i) => (statuses[i] ?? 0) >= 200 && (statuses[i] ?? 0) < 300),
    close: async () => {
      for (const res of hanging) res.destroy();
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

/** Resolves once `check` holds, polling; fails with `what` after `ms`. */
export async function until(check: () => boolean | Promise<boolean>, what: string, ms = 5_000): Promise<void> {
  const end = Date.now() + ms;
  while (!(await check())) {
    if (Date.now() > end) throw new Error(`timed out waiting for: ${what}`);
    await new Promise((r) => setTimeout(r, 10));
  }
}
