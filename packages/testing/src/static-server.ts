/**
 * A plain node:http server on 127.0.0.1 (ephemeral port) for browser tests: fixed pages by
 * path, files of one directory under a prefix, every response with the given headers, and a
 * log of every request ("METHOD /path") in arrival order.
 */
import { createServer, type Server } from 'node:http';
import { readFile } from 'node:fs/promises';
import { join, normalize } from 'node:path';
import type { AddressInfo } from 'node:net';

const TYPES: Record<string, string> = {
  '.js': 'text/javascript; charset=utf-8',
  '.map': 'application/json',
  '.html': 'text/html; charset=utf-8',
};

export interface StaticServer {
  url: string;
  requests: string[];
  close(): Promise<void>;
}

export async function serveStatic(options: {
  pages: Record<string, string>;
  /** URL prefix (e.g. `/kit/`) -> directory. */
  mount: { prefix: string; dir: string };
  headers?: Record<string, string>;
}): Promise<StaticServer> {
  const requests: string[] = [];
  const server: Server = createServer(async (req, res) => {
    const path = new URL(req.url ?? '/', 'http://x').pathname;
    requests.push(`${req.method} ${path}`);
    const send = (status: number, type: string, body: string | Buffer) => {
      res.writeHead(status, { 'content-type': type, 'cache-control': 'no-store', ...options.headers });
      res.end(req.method === 'HEAD' ? undefined : body);
    };
    const page = options.pages[path];
    if (page !== undefined) return send(200, TYPES['.html']!, page);
    const { prefix, dir } = options.mount;
    const name = path.startsWith(prefix) ? normalize(path.slice(prefix.length)) : null;
    if (!name || name.startsWith('..') || name.includes('/')) return send(404, 'text/plain', 'not found');
    try {
      const body = await readFile(join(dir, name));
      send(200, TYPES[name.slice(name.lastIndexOf('.'))] ?? 'application/octet-stream', body);
    } catch {
      send(404, 'text/plain', 'not found');
    }
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    requests,
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
}
