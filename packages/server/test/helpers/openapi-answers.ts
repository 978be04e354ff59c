/**
 * Checks real answers against the OpenAPI document: which operation a request is, whether the
 * document allows the answer's status and content type, and whether its JSON body (or each event
 * of an event stream, or a notification's body) is valid for the schema the document gives it,
 * with ajv (JSON Schema 2020-12). Keeps which operations answered with success, so a contract test
 * can fail on any it did not exercise.
 */
import assert from 'node:assert/strict';
import { Ajv2020, type ValidateFunction } from 'ajv/dist/2020.js';
import addFormats from 'ajv-formats';

/** A parsed JSON value, read by tests member by member. */
export type Loose = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any
type Json = Loose;
const METHODS = ['get', 'post', 'put', 'patch', 'delete'] as const;

export interface DocumentedOperation {
  id: string;
  method: string;
  path: string;
  pattern: RegExp;
  templated: number;
  op: Json;
}

/** What a checked answer was: its status, and its body read as the document says (JSON, text, bytes or event stream). */
export interface CheckedAnswer {
  status: number;
  headers: Headers;
  /** The JSON body (`{}` for an answer of another type). */
  json: Loose;
  text?: string;
  bytes?: Uint8Array;
  events?: { event: string; data: Loose }[];
}

export class OpenApiAnswers {
  readonly operations: DocumentedOperation[];
  /** Operations that answered a success (2xx, 304) valid for the document, by id. */
  readonly exercised = new Set<string>();
  /** Every validated answer: operation id and status. */
  readonly answers: { id: string; status: number }[] = [];
  readonly #doc: Json;
  readonly #ajv: Ajv2020;
  readonly #compiled = new Map<string, ValidateFunction>();

  constructor(doc: Json) {
    this.#doc = doc;
    this.#ajv = new Ajv2020({ strict: false, allErrors: true });
    addFormats.default(this.#ajv);
    this.operations = Object.entries(doc.paths as Json)
      .flatMap(([path, item]) =>
        METHODS.filter((m) => item[m]).map((method) => {
          const templated = (path.match(/\{[^}]+\}/g) ?? []).length;
          const pattern = new RegExp(`^${path.replace(/[.]/g, '\\.').replace(/\{[^}]+\}/g, '[^/]+')}$`);
          return { id: item[method].operationId as string, method, path, pattern, templated, op: item[method] as Json };
        }),
      )
      // A literal path wins over a template that also matches it (`/capture` and `/capture/{token}`).
      .sort((a, b) => a.templated - b.templated);
  }

  /** The operation a request is; fails when the document has none. */
  operation(method: string, url: string): DocumentedOperation {
    const path = new URL(url, 'http://x').pathname;
    const found = this.operations.find((o) => o.method === method.toLowerCase() && o.pattern.test(path));
    assert.ok(found, `the document has no operation for ${method} ${path}`);
    return found;
  }

  /** `value` (a `$ref` to the document's components followed). */
  resolve(value: Json): Json {
    if (typeof value?.$ref !== 'string') return value;
    const target = (value.$ref as string)
      .slice(2)
      .split('/')
      .reduce((at: Json, key: string) => at?.[key.replaceAll('~1', '/').replaceAll('~0', '~')], this.#doc);
    assert.ok(target, `${value.$ref} resolves`);
    return this.resolve(target);
  }

  /** A validator of `schema`, its `#/components/...` references resolved in the document. */
  validator(key: string, schema: Json): ValidateFunction {
    let validate = this.#compiled.get(key);
    if (!validate) {
      validate = this.#ajv.compile({ ...schema, $id: `urn:openapi-answers:${this.#compiled.size}`, components: this.#doc.components });
      this.#compiled.set(key, validate);
    }
    return validate;
  }

  validate(key: string, schema: Json, value: unknown, what: string): void {
    const validate = this.validator(key, schema);
    assert.ok(
      validate(value),
      `${what} is not valid for the document: ${JSON.stringify(validate.errors, null, 1)}\n${JSON.stringify(value)?.slice(0, 2000)}`,
    );
  }

  /**
   * Reads `res` (the answer to `method url`) and checks it against the document: a documented
   * status, a documented content type, a body valid for its schema; `expect` is the status the
   * caller meant to cause. An event stream is read until `events` events came or it ended.
   */
  async check(method: string, url: string, res: Response, expect: number, options: { events?: number } = {}): Promise<CheckedAnswer> {
    const { id, op, path } = this.operation(method, url);
    const where = `${method.toUpperCase()} ${path} (${id}) answered ${res.status}`;
    const raw = op.responses[String(res.status)] ?? op.responses[`${String(res.status)[0]}XX`] ?? op.responses.default;
    if (!raw || res.status !== expect) {
      const text = await res.text().catch(() => '');
      assert.fail(`${where}, ${raw ? `expected ${expect}` : 'a status the document does not name'}: ${text.slice(0, 500)}`);
    }
    const response = this.resolve(raw);
    const answer: CheckedAnswer = { status: res.status, headers: res.headers, json: {} };
    const content = response.content as Json | undefined;
    if (!content) {
      assert.equal((await res.arrayBuffer()).byteLength, 0, `${where}: the document gives no body`);
    } else {
      const type = (res.headers.get('content-type') ?? '').split(';')[0]!.trim().toLowerCase();
      assert.ok(type in content, `${where} with ${type}, not one of ${Object.keys(content).join(', ')}`);
      const media = content[type] as Json;
      const key = `${id} ${res.status} ${type}`;
      if (type === 'application/json') {
        answer.json = (await res.json()) as Loose;
        if (media.schema) this.validate(key, media.schema, answer.json, where);
      } else if (type === 'text/event-stream') {
        answer.events = await readEvents(res, options.events ?? 1);
        assert.ok(answer.events.length > 0, `${where}: no event`);
        for (const e of answer.events) {
          const schema = media['x-sse-events']?.[e.event] ?? media['x-sse-events']?.['*'];
          assert.ok(schema, `${where}: the document names no event ${e.event}`);
          this.validate(`${key} ${e.event}`, schema, e.data, `${where}, event ${e.event}`);
        }
      } else if (type.startsWith('text/')) {
        answer.text = await res.text();
        assert.ok(answer.text.length > 0, `${where}: an empty ${type}`);
      } else {
        answer.bytes = new Uint8Array(await res.arrayBuffer());
        assert.ok(answer.bytes.byteLength > 0, `${where}: an empty ${type}`);
      }
    }
    for (const [name, value] of Object.entries((response.headers as Json | undefined) ?? {})) {
      if (this.resolve(value as Json).required) assert.ok(res.headers.get(name), `${where} lacks ${name}`);
    }
    this.answers.push({ id, status: res.status });
    if ((res.status >= 200 && res.status < 300) || res.status === 304) this.exercised.add(id);
    return answer;
  }

  /** A JSON request body that succeeded, checked against the operation's `requestBody`: the document must accept what the companion does. */
  checkRequest(method: string, url: string, body: unknown): void {
    const { id, op, path } = this.operation(method, url);
    const schema = (op.requestBody as Json | undefined)?.content?.['application/json']?.schema as Json | undefined;
    assert.ok(schema, `${method.toUpperCase()} ${path} (${id}) documents no JSON body, yet took one`);
    this.validate(`${id} request`, schema, body, `the body the companion took on ${method.toUpperCase()} ${path}`);
  }

  /** A notification the companion sent, checked against the document's `webhooks`. */
  checkNotification(body: string): { type: string; data: Loose } {
    const event = JSON.parse(body) as { type: string; data: unknown };
    const webhook = this.#doc.webhooks?.[event.type]?.post as Json | undefined;
    assert.ok(webhook, `the document has no webhook ${event.type}`);
    const schema = webhook.requestBody.content['application/json'].schema as Json;
    this.validate(`webhook ${event.type}`, schema, event, `the notification ${event.type}`);
    return event as { type: string; data: Loose };
  }
}

/** Reads `count` events of a stream (or all of it if it ends first), then lets it go. */
async function readEvents(res: Response, count: number): Promise<{ event: string; data: Loose }[]> {
  const reader = res.body!.pipeThrough(new TextDecoderStream()).getReader();
  const events: { event: string; data: Loose }[] = [];
  let buffer = '';
  const deadline = setTimeout(() => void reader.cancel(), 20_000);
  try {
    while (events.length < count) {
      const { done, value } = await reader.read();
      if (done) break;
      buffer += value;
      let i: number;
      while ((i = buffer.indexOf('\n\n')) >= 0) {
        const block = buffer.slice(0, i);
        buffer = buffer.slice(i + 2);
        const event = /^event: (.*)$/m.exec(block)?.[1];
        const data = /^data: (.*)$/m.exec(block)?.[1];
        if (event && data !== undefined) events.push({ event, data: JSON.parse(data) as Loose });
      }
    }
  } finally {
    clearTimeout(deadline);
    await reader.cancel().catch(() => {});
  }
  return events;
}
