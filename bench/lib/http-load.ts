/**
 * A bounded closed-loop HTTP load generator: `concurrency` workers send `count` requests in all
 * (none started after `maxSeconds`) over keep-alive connections (node:http Agent, one socket per worker) and time each one from
 * the request's start to the end of its response body.
 */
import { Agent, request } from 'node:http';

export interface LoadOptions {
  url: string;
  method?: 'POST' | 'GET';
  body?: Buffer;
  headers: () => Record<string, string> | Promise<Record<string, string>>;
  concurrency: number;
  count: number;
  /** HTTP statuses that count as success. */
  ok: number[];
  /** No request starts after this many seconds (the count is an upper bound on a slow machine). */
  maxSeconds?: number;
}

export interface LoadResult {
  latencies: number[];
  /** performance.now() at the start of every request (successful or not). */
  starts: number[];
  ok: number;
  errors: number;
  firstError?: string;
  seconds: number;
  /** Response bodies of successful requests, when `keepBodies` is set. */
  bodies: string[];
}

export function keepAliveAgent(sockets: number): Agent {
  return new Agent({ keepAlive: true, maxSockets: sockets, maxFreeSockets: sockets });
}

export function send(
  agent: Agent,
  url: string,
  method: string,
  headers: Record<string, string>,
  body?: Buffer,
): Promise<{ status: number; text: string }> {
  return new Promise((resolve, reject) => {
    const req = request(url, { method, agent, headers: body ? { ...headers, 'content-length': String(body.length) } : headers }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, text: Buffer.concat(chunks).toString('utf8') }));
      res.on('error', reject);
    });
    req.on('error', reject);
    req.end(body);
  });
}

export async function runLoad(options: LoadOptions & { agent: Agent; keepBodies?: boolean }): Promise<LoadResult> {
  const result: LoadResult = { latencies: [], starts: [], ok: 0, errors: 0, seconds: 0, bodies: [] };
  let next = 0;
  const started = performance.now();
  const worker = async () => {
    const deadline = started + (options.maxSeconds ?? Infinity) * 1000;
    while (next < options.count && performance.now() < deadline) {
      next++;
      const headers = await options.headers();
      const t0 = performance.now();
      result.starts.push(t0);
      try {
        const res = await send(options.agent, options.url, options.method ?? 'POST', headers, options.body);
        const t = performance.now() - t0;
        if (options.ok.includes(res.status)) {
          result.ok++;
          result.latencies.push(t);
          if (options.keepBodies) result.bodies.push(res.text);
        } else {
          result.errors++;
          result.firstError ??= `HTTP ${res.status} ${res.text.slice(0, 200)}`;
        }
      } catch (error) {
        result.errors++;
        result.firstError ??= error instanceof Error ? error.message : String(error);
      }
    }
  };
  await Promise.all(Array.from({ length: options.concurrency }, worker));
  result.seconds = (performance.now() - started) / 1000;
  return result;
}
