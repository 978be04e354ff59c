/** `serveSandbox()`: the sandbox on a real socket (port 0 = ephemeral). */
import type { AddressInfo } from 'node:net';
import type { Server } from 'node:http';
import { serve } from '@hono/node-server';
import { DEFAULTS, type SandboxOptions } from './options.js';
import { createSandbox } from './sandbox.js';
import type { Sandbox } from './sandbox-types.js';

export interface ServedSandbox {
  sandbox: Sandbox;
  url: string;
  close(): Promise<void>;
}

export function serveSandbox(options: SandboxOptions & { port?: number; host?: string } = {}): Promise<ServedSandbox> {
  const { port = DEFAULTS.port, host = DEFAULTS.host, ...sandboxOptions } = options;
  const sandbox = createSandbox(sandboxOptions);
  return new Promise((resolve, reject) => {
    const server = serve({ fetch: sandbox.app.fetch, port, hostname: host }, (info: AddressInfo) => {
      const shownHost = info.family === 'IPv6' ? `[${info.address}]` : info.address;
      resolve({
        sandbox,
        url: `http://${shownHost}:${info.port}`,
        close: () =>
          new Promise<void>((done) => {
            sandbox.close();
            const http = server as Server;
            http.close(() => done());
            // Keep-alive connections would hold close() open.
            http.closeAllConnections?.();
          }),
      });
    }) as Server;
    server.once('error', (error) => {
      sandbox.close();
      reject(error);
    });
  });
}
