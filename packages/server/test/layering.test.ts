/**
 * The companion's layers, read from its sources: domain code (every `*-service.ts`, `*-rules.ts`
 * and `*-view.ts`, and whatever they import, followed file by file) reaches no HTTP module (no
 * Hono, no node:http, nothing of transport/, http/ or middleware/; the upstream client is the
 * domain's gateway to the verification service, and how it speaks HTTP is its own); routes reach the Node
 * transport through its one adapter module (transport/index.ts); request headers are read one way
 * (`requestHeader`) and event streams written one way (transport/event-stream.ts). Checked on the
 * real tree, and on planted trees to show that each rule catches what it forbids.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join, posix } from 'node:path';
import { fileURLToPath } from 'node:url';

const SRC = fileURLToPath(new URL('../src/', import.meta.url));

/** Source files by path under src/ (posix separators). */
type Tree = Record<string, string>;

function readTree(dir = SRC, prefix = '', out: Tree = {}): Tree {
  for (const name of readdirSync(dir)) {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) readTree(path, `${prefix}${name}/`, out);
    else if (name.endsWith('.ts')) out[`${prefix}${name}`] = readFileSync(path, 'utf8');
  }
  return out;
}

const DOMAIN_FILE = /-(service|rules|view)\.ts$/;
/** The outbound side: the upstream client's own HTTP is not the companion's HTTP layer. */
const GATEWAY = /^upstream\//;
const HTTP_PACKAGE = /^(hono(\/.*)?|@hono\/.*|node:http|node:http2)$/;
const HTTP_FOLDER = /^(transport|http|middleware)\//;

/** Every module specifier a file imports or re-exports (static and dynamic), comments left out. */
function specifiers(text: string): string[] {
  const code = text.replace(/\/\*[\s\S]*?\*\//g, '').replace(/^\s*\/\/.*$/gm, '');
  const found: string[] = [];
  for (const m of code.matchAll(
    /(?:^|[\s;])(?:import|export)\b[^'"`;]*?from\s*['"]([^'"]+)['"]|(?:^|[\s;])import\s*['"]([^'"]+)['"]|\bimport\(\s*['"]([^'"]+)['"]\s*\)/gm,
  )) {
    found.push((m[1] ?? m[2] ?? m[3])!);
  }
  return found;
}

/** `spec` imported from `from` (a path under src/), as a path under src/, or undefined for a package. */
function resolveSpec(from: string, spec: string): string | undefined {
  if (!spec.startsWith('.')) return undefined;
  return posix.normalize(posix.join(posix.dirname(from), spec)).replace(/\.js$/, '.ts');
}

export function layeringProblems(tree: Tree): string[] {
  const problems: string[] = [];
  const domain = Object.keys(tree).filter((p) => DOMAIN_FILE.test(p) && !p.startsWith('store/'));
  for (const start of domain) {
    const seen = new Set<string>();
    const queue: { file: string; via: string[] }[] = [{ file: start, via: [start] }];
    while (queue.length > 0) {
      const { file, via } = queue.shift()!;
      if (seen.has(file)) continue;
      seen.add(file);
      const text = tree[file];
      if (text === undefined) continue;
      for (const spec of specifiers(text)) {
        const target = resolveSpec(file, spec);
        if (target === undefined) {
          if (HTTP_PACKAGE.test(spec)) problems.push(`${via.join(' -> ')}: domain code imports ${spec}`);
          continue;
        }
        if (GATEWAY.test(target)) continue;
        if (HTTP_FOLDER.test(target)) problems.push(`${[...via, target].join(' -> ')}: domain code imports HTTP code`);
        else queue.push({ file: target, via: [...via, target] });
      }
    }
  }
  for (const [file, text] of Object.entries(tree)) {
    if (!file.startsWith('transport/')) {
      for (const spec of specifiers(text)) {
        const target = resolveSpec(file, spec);
        if (target?.startsWith('transport/') && target !== 'transport/index.ts')
          problems.push(`${file}: reaches ${target}; the transport is used through transport/index.ts`);
      }
    }
    if (file !== 'transport/request-header.ts' && /\bc\.req\.header\(/.test(text.replace(/\/\*[\s\S]*?\*\//g, '')))
      problems.push(`${file}: reads a request header with c.req.header(); requestHeader() is the one way`);
    if (specifiers(text).includes('hono/streaming'))
      problems.push(`${file}: writes an event stream with hono/streaming; sendEventStream() is the one way`);
  }
  return problems;
}

test('the real tree: domain code reaches no HTTP module, the transport is one adapter, headers and event streams go one way', () => {
  const tree = readTree();
  const domain = Object.keys(tree).filter((p) => DOMAIN_FILE.test(p) && !p.startsWith('store/'));
  // The rule judges real files: the services and rules of the feature folders are among them.
  for (const expected of [
    'onboardings/onboarding-service.ts',
    'onboardings/onboarding-rules.ts',
    'queries/query-rules.ts',
    'webhooks/webhook-rules.ts',
    'sessions/session-service.ts',
    'handoff/handoff-service.ts',
    'handoff/handoff-rules.ts',
    'idempotency/idempotency-rules.ts',
    'sessions/session-view.ts',
  ]) {
    assert.ok(domain.includes(expected), `${expected} is judged as domain code`);
  }
  assert.deepEqual(layeringProblems(tree), []);
});

test('each rule catches what it forbids, directly or through the files a domain module imports', () => {
  const clean: Tree = {
    'transport/index.ts': "export { requestHeader } from './request-header.js';\n",
    'transport/request-header.ts':
      "import type { Context } from 'hono';\nexport const requestHeader = (c: Context, n: string) => c.req.header(n);\n",
    'x/x-rules.ts':
      "import { helper } from './helper.js';\nimport { DomainError } from '../errors/domain-error.js';\nexport const r = helper;\n",
    'errors/domain-error.ts': 'export class DomainError extends Error {}\n',
    'x/helper.ts':
      "import { createHash } from 'node:crypto';\nimport { client } from '../upstream/client.js';\nexport const helper = createHash;\n",
    'upstream/client.ts': "import { request } from 'node:http';\nexport const client = request;\n",
    'x/x-routes.ts':
      "import { Hono } from 'hono';\nimport { requestHeader } from '../transport/index.js';\nexport const app = new Hono();\n",
    'http/companion-error.ts':
      "import { HTTPException } from 'hono/http-exception';\nexport class CompanionError extends HTTPException {}\n",
  };
  assert.deepEqual(layeringProblems(clean), []);
  const planted: [Tree, RegExp][] = [
    [{ 'x/x-service.ts': "import type { Context } from 'hono';\nexport {};\n" }, /^x\/x-service\.ts: domain code imports hono$/],
    [
      { 'x/x-service.ts': "import { CompanionError } from '../http/companion-error.js';\nexport {};\n" },
      /^x\/x-service\.ts -> http\/companion-error\.ts: domain code imports HTTP code$/,
    ],
    [
      { 'x/helper.ts': "import { ServerResponse } from 'node:http';\nexport const helper = ServerResponse;\n" },
      /^x\/x-rules\.ts -> x\/helper\.ts: domain code imports node:http$/,
    ],
    [
      { 'x/helper.ts': "export { requestHeader as helper } from '../transport/index.js';\n" },
      /^x\/x-rules\.ts -> x\/helper\.ts -> transport\/index\.ts: domain code imports HTTP code$/,
    ],
    [
      { 'x/x-view.ts': "const m = await import('../middleware/cors.js');\nexport { m };\n" },
      /^x\/x-view\.ts -> middleware\/cors\.ts: domain code imports HTTP code$/,
    ],
    [
      { 'x/x-routes.ts': "import { requestHeader } from '../transport/request-header.js';\nexport {};\n" },
      /^x\/x-routes\.ts: reaches transport\/request-header\.ts; the transport is used through transport\/index\.ts$/,
    ],
    [
      { 'x/x-routes.ts': "export const id = (c: any) => c.req.header('x-request-id');\n" },
      /^x\/x-routes\.ts: reads a request header with c\.req\.header\(\)/,
    ],
    [
      { 'x/x-routes.ts': "import { streamSSE } from 'hono/streaming';\nexport { streamSSE };\n" },
      /^x\/x-routes\.ts: writes an event stream with hono\/streaming/,
    ],
  ];
  for (const [change, problem] of planted) {
    const problems = layeringProblems({ ...clean, ...change });
    assert.equal(problems.length, 1, `${JSON.stringify(change)}: ${problems.join('; ')}`);
    assert.match(problems[0]!, problem);
  }
  // Prose that names a forbidden module is no import.
  assert.deepEqual(
    layeringProblems({ ...clean, 'x/x-rules.ts': "/** Unlike `import { Hono } from 'hono'`, nothing here knows HTTP. */\nexport {};\n" }),
    [],
  );
});
