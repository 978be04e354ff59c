/**
 * An integrator's notification endpoint on 127.0.0.1 that keeps every request as it came: the
 * raw bytes and the `Onboarding-Signature` header, for `constructEvent` to verify as a real
 * receiver would. Answers 204 to everything.
 */
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface RawDelivery {
  body: Buffer;
  signature: string | undefined;
}

export interface RawReceiver {
  url: string;
  deliveries: RawDelivery[];
  /** The first delivery whose JSON matches, waited for. */
  waitFor(match: (event: { type: string; data: { id?: string; requestId?: string } }) => boolean, ms?: number): Promise<RawDelivery>;
  close(): Promise<void>;
}

export async function startRawReceiver(): Promise<RawReceiver> {
  const deliveries: RawDelivery[] = [];
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const header = req.headers['onboarding-signature'];
      deliveries.push({ body: Buffer.concat(chunks), signature: typeof header === 'string' ? header : undefined });
      res.writeHead(204).end();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/kyc/notifications`,
    deliveries,
    async waitFor(match, ms = 25_000) {
      const end = Date.now() + ms;
      for (;;) {
        const found = deliveries.find((d) => match(JSON.parse(d.body.toString('utf8')) as never));
        if (found) return found;
        if (Date.now() > end)
          throw new Error(`no matching notification; got ${deliveries.map((d) => JSON.parse(d.body.toString('utf8')).type).join(', ')}`);
        await new Promise((r) => setTimeout(r, 50));
      }
    },
    async close() {
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
