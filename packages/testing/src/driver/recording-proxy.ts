/**
 * A recording HTTP proxy for the engine whose driver shows no network (WebKitWebDriver):
 * MiniBrowser's `--proxy=http://127.0.0.1:<port>` sends every request here, loopback included.
 * - Loopback requests are forwarded and recorded (method, url, status, headers, bodies); streamed
 *   responses such as the status events pass through as they arrive.
 * - Every other host is refused at once and listed in `external` (the network here is closed).
 * - HTML responses get `<script src="/__okit/collect.js">` first in <head>: the error collector
 *   (collect-errors.js), same-origin so that a `script-src 'self'` CSP allows it.
 */
import { createServer, request as httpRequest, type IncomingHttpHeaders } from 'node:http';
import { readFile } from 'node:fs/promises';

const COLLECTOR_PATH = '/__okit/collect.js';
const collectorSource = readFile(new URL('./collect-errors.js', import.meta.url), 'utf8');

export interface ProxyExchange {
  method: string;
  url: string;
  status: number;
  requestHeaders: IncomingHttpHeaders;
  requestBody: string;
  responseHeaders: IncomingHttpHeaders;
  responseBody: string;
}

export interface RecordingProxy {
  url: string;
  exchanges: ProxyExchange[];
  external: string[];
  close(): Promise<void>;
}

function isLoopbackHost(host: string): boolean {
  return host === '127.0.0.1' || host === 'localhost' || host === '[::1]';
}

export async function startRecordingProxy(): Promise<RecordingProxy> {
  const exchanges: ProxyExchange[] = [];
  const external: string[] = [];
  const server = createServer(async (req, res) => {
    let url: URL;
    try {
      url = new URL(req.url ?? '');
    } catch {
      res.writeHead(400).end();
      return;
    }
    if (!isLoopbackHost(url.hostname)) {
      external.push(`${req.method} ${req.url}`);
      res.writeHead(403, { 'content-type': 'text/plain' }).end('blocked by the test proxy');
      return;
    }
    if (url.pathname === COLLECTOR_PATH) {
      res.writeHead(200, { 'content-type': 'text/javascript', 'cache-control': 'no-store' }).end(await collectorSource);
      return;
    }
    const requestBody: Buffer[] = [];
    for await (const chunk of req) requestBody.push(chunk as Buffer);
    // The injection needs the HTML as text, not compressed.
    const headers: IncomingHttpHeaders = { ...req.headers, 'accept-encoding': 'identity' };
    delete headers['proxy-connection'];
    const upstream = httpRequest(url, { method: req.method, headers }, (up) => {
      const exchange: ProxyExchange = {
        method: req.method ?? 'GET',
        url: req.url ?? '',
        status: up.statusCode ?? 0,
        requestHeaders: req.headers,
        requestBody: Buffer.concat(requestBody).toString('latin1'),
        responseHeaders: up.headers,
        responseBody: '',
      };
      exchanges.push(exchange);
      if (/^text\/html/.test(up.headers['content-type'] ?? '')) {
        const chunks: Buffer[] = [];
        up.on('data', (c: Buffer) => chunks.push(c));
        up.on('end', () => {
          const html = Buffer.concat(chunks).toString('utf8');
          exchange.responseBody = html;
          const tag = `<script src="${COLLECTOR_PATH}"></script>`;
          const out = { ...up.headers };
          delete out['content-length'];
          res.writeHead(up.statusCode ?? 502, out);
          res.end(/<head[^>]*>/i.test(html) ? html.replace(/<head[^>]*>/i, (m) => m + tag) : tag + html);
        });
      } else {
        res.writeHead(up.statusCode ?? 502, up.headers);
        up.on('data', (c: Buffer) => {
          exchange.responseBody += c.toString('latin1');
          res.write(c);
        });
        up.on('end', () => res.end());
      }
    });
    upstream.on('error', (e) => {
      exchanges.push({
        method: req.method ?? 'GET',
        url: req.url ?? '',
        status: 0,
        requestHeaders: req.headers,
        requestBody: '',
        responseHeaders: {},
        responseBody: String(e),
      });
      if (!res.headersSent) res.writeHead(502);
      res.end();
    });
    res.on('close', () => upstream.destroy());
    upstream.end(Buffer.concat(requestBody));
  });
  // https and WebSocket tunnels: nothing in the kit's pages needs one; an off-host one is a finding.
  server.on('connect', (req, socket) => {
    external.push(`CONNECT ${req.url}`);
    socket.end('HTTP/1.1 403 Forbidden\r\n\r\n');
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as { port: number };
  return {
    url: `http://127.0.0.1:${port}`,
    exchanges,
    external,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
