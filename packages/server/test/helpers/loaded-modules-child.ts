/**
 * A fresh process that reports which of the store clients and zip.js it has loaded: first after
 * a companion on the memory store has started and created an onboarding (none of them), then
 * after a SQLite store, a Redis store (connecting to nothing) and an evidence archive (each its
 * own). Prints one JSON line per stage: { stage, loaded: string[] }.
 * Seen two ways: ES module resolutions through a module hook, and CommonJS modules in
 * require.cache (libsql is a CommonJS native module).
 */
import { register, createRequire } from 'node:module';
import { MessageChannel } from 'node:worker_threads';

const resolved: string[] = [];
const heard = new Map<string, () => void>();
const { port1, port2 } = new MessageChannel();
port1.on('message', (url: string) => {
  resolved.push(url);
  heard.get(url)?.();
});
port1.unref();
const hook = `let port;
export function initialize(data) { port = data.port; }
export async function resolve(specifier, context, next) {
  const r = await next(specifier, context);
  port.postMessage(r.url);
  return r;
}`;
register(`data:text/javascript,${encodeURIComponent(hook)}`, { data: { port: port2 }, transferList: [port2] });

const WATCHED: Record<string, RegExp> = {
  redis: /\/node_modules\/(redis|@redis\/[^/]+)\//,
  libsql: /\/node_modules\/(libsql|@libsql\/[^/]+)\//,
  'zip.js': /\/node_modules\/@zip\.js\//,
};
const requireHere = createRequire(import.meta.url);
let marks = 0;
/**
 * Resolves once every resolution so far has been reported: the hook's thread reports them in order
 * on one port, so once a marker module's own report has arrived, every earlier one has too.
 */
async function reported(): Promise<void> {
  const marker = `data:text/javascript,export default ${++marks}`;
  const arrived = new Promise<void>((r) => heard.set(marker, r));
  port1.ref();
  await import(marker);
  await arrived;
  port1.unref();
}
async function loaded(): Promise<string[]> {
  await reported();
  const seen = [...resolved, ...Object.keys(requireHere.cache).map((p) => `file://${p}`)];
  return Object.entries(WATCHED)
    .filter(([, pattern]) => seen.some((u) => pattern.test(u)))
    .map(([name]) => name);
}
const report = async (stage: string) => process.stdout.write(`${JSON.stringify({ stage, loaded: await loaded() })}\n`);

const server = await import('@onboarding-kit/server');
const upstreamUrl = process.argv[2]!;
const served = await server.serveCompanion({
  port: 0,
  baseUrl: upstreamUrl,
  client: process.argv[3]!,
  secret: process.argv[4]!,
  webhookKey: 'test-webhook-key-0123456789',
  rateLimit: 0,
  logger: server.createJsonLogger({ sink: () => {} }),
});
const jpeg = Buffer.from([0xff, 0xd8, 0xff, 0xe0, 0, 16, 0x4a, 0x46, 0x49, 0x46, 0, 1, 1, 0, 0, 1, 0, 1, 0, 0, 0xff, 0xd9]).toString(
  'base64',
);
const res = await fetch(`${served.url}/v1/onboardings`, {
  method: 'POST',
  headers: { 'content-type': 'application/json' },
  body: JSON.stringify({ cpf: '529.982.247-25', name: 'Maria Silva', images: { documentFront: jpeg, selfie: jpeg } }),
});
if (res.status !== 201) throw new Error(`creation: HTTP ${res.status}`);
await report('memory store, one creation');
await served.close();

const sqlite = await server.createStore('sqlite::memory:');
await sqlite.close?.();
await report('sqlite store');
const redis = await server.RedisStore.connect('redis://127.0.0.1:1', { startTimeoutMs: 1, logger: server.silentLogger });
await redis.close?.();
await report('redis store');
const archive = server.buildEvidenceArchive({
  tokenOnboarding: 't',
  environment: 'test',
  kitVersion: '0',
  report: { tokenOnboarding: 't', status: 'APPROVED' },
  pdf: undefined,
  history: [],
  status: 'APPROVED',
});
await new Response(archive).arrayBuffer();
await report('evidence archive');
process.exit(0);
