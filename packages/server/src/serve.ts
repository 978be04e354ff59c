/** `serveCompanion()`: the companion on a Node HTTP server, with a clean shutdown. */
import { serve, type ServerType } from '@hono/node-server';
import type { AddressInfo } from 'node:net';
import type { Server } from 'node:http';
import { createCompanion, type CompanionApp } from './companion.js';
import type { CompanionOptions } from './options.js';

export interface ServeOptions {
  /** Default 8787; 0 picks a free port. */
  port?: number;
  /** Default 127.0.0.1. */
  host?: string;
}

export interface ServedCompanion {
  app: CompanionApp;
  server: ServerType;
  /** `http://host:port`. */
  url: string;
  /** Ends event streams, stops accepting connections and waits for open requests to finish. */
  close(): Promise<void>;
}

/**
 * Starts a Node server for any Hono-style fetch handler with the settings the companion needs:
 * `autoCleanupIncoming: false`, so that a refused oversized body is drained by the route (the 413
 * reaches the client) instead of the socket being cut after a fixed delay.
 */
export async function listen(fetchHandler: (req: Request, env: unknown) => Response | Promise<Response>, options: ServeOptions = {}): Promise<{ server: ServerType; url: string; close(): Promise<void> }> {
  const host = options.host ?? '127.0.0.1';
  const server = await new Promise<ServerType>((resolve, reject) => {
    const s = serve({ fetch: fetchHandler, port: options.port ?? 8787, hostname: host, autoCleanupIncoming: false }, () => resolve(s));
    s.once('error', reject);
  });
  const { port } = server.address() as AddressInfo;
  const url = `http://${host.includes(':') ? `[${host}]` : host}:${port}`;
  return {
    server,
    url,
    close: () =>
      new Promise<void>((resolve) => {
        const http = server as Server;
        http.close(() => resolve());
        http.closeIdleConnections?.();
        // Requests still running after a grace period are cut, so a shutdown always ends.
        setTimeout(() => http.closeAllConnections?.(), 5_000).unref();
      }),
  };
}

export async function serveCompanion(options: CompanionOptions & ServeOptions): Promise<ServedCompanion> {
  const { port, host, ...companionOptions } = options;
  const app = createCompanion(companionOptions);
  const served = await listen(app.fetch, { ...(port !== undefined && { port }), ...(host !== undefined && { host }) });
  return {
    app,
    server: served.server,
    url: served.url,
    async close() {
      await app.close();
      await served.close();
    },
  };
}
