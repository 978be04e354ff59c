// A tiny W3C WebDriver client over fetch: just the endpoints the tests use. No dependency.
// Errors carry the W3C error code (`err.error`, e.g. 'no such element', 'javascript error').

export class WebDriverError extends Error {
  constructor(command, value) {
    super(`${command}: ${value?.error ?? 'error'}: ${value?.message ?? JSON.stringify(value)}`);
    this.error = value?.error;
  }
}

// The W3C "web element identifier" key.
const ELEMENT = 'element-6066-11e4-a52e-4f735466cecf';
export const SHADOW_ROOT = 'shadow-6066-11e4-a52e-4f735466cecf';

export class WebDriverSession {
  /** @param {string} base e.g. http://127.0.0.1:4444 ; @param {string} id session id */
  constructor(base, id, capabilities) {
    this.base = base;
    this.id = id;
    this.capabilities = capabilities;
  }

  static async create(base, capabilities, { timeoutMs = 60_000 } = {}) {
    const value = await request(base, 'POST', '/session', { capabilities: { alwaysMatch: capabilities } }, timeoutMs);
    return new WebDriverSession(base, value.sessionId, value.capabilities);
  }

  cmd(method, path, body, timeoutMs) {
    return request(this.base, method, `/session/${this.id}${path}`, body, timeoutMs);
  }

  delete() {
    return this.cmd('DELETE', '');
  }
  setTimeouts(t) {
    return this.cmd('POST', '/timeouts', t);
  }
  goto(url) {
    return this.cmd('POST', '/url', { url });
  }
  url() {
    return this.cmd('GET', '/url');
  }
  title() {
    return this.cmd('GET', '/title');
  }
  /** Runs `fn` (a function or its source) in the page; returns its (awaited) result. */
  execute(fn, ...args) {
    return this.cmd('POST', '/execute/sync', { script: asBody(fn), args });
  }
  /**
   * Like execute, for async work. W3C execute/sync already awaits a returned promise; the async
   * endpoint (callback as last argument) is here for drivers that do not.
   */
  executeAsync(fn, ...args) {
    const script = `const done = arguments[arguments.length - 1];
      Promise.resolve((${typeof fn === 'function' ? fn.toString() : fn}).apply(null, Array.from(arguments).slice(0, -1)))
        .then((value) => done({ value }), (e) => done({ error: String(e && e.stack || e) }));`;
    return this.cmd('POST', '/execute/async', { script, args }).then((r) => {
      if (r && 'error' in r) throw new WebDriverError('executeAsync', { error: 'javascript error', message: r.error });
      return r?.value;
    });
  }
  /** PNG screenshot of the viewport as a Buffer. */
  async screenshot() {
    return Buffer.from(await this.cmd('GET', '/screenshot'), 'base64');
  }
  async elementScreenshot(element) {
    return Buffer.from(await this.cmd('GET', `/element/${elementId(element)}/screenshot`), 'base64');
  }
  getWindowRect() {
    return this.cmd('GET', '/window/rect');
  }
  setWindowRect(rect) {
    return this.cmd('POST', '/window/rect', rect);
  }
  findElement(using, value) {
    return this.cmd('POST', '/element', { using, value });
  }
  click(element) {
    return this.cmd('POST', `/element/${elementId(element)}/click`, {});
  }
  /** Types into an element (WebDriver "Element Send Keys"). */
  sendKeys(element, text) {
    return this.cmd('POST', `/element/${elementId(element)}/value`, { text });
  }
  clear(element) {
    return this.cmd('POST', `/element/${elementId(element)}/clear`, {});
  }
  text(element) {
    return this.cmd('GET', `/element/${elementId(element)}/text`);
  }
  computedRole(element) {
    return this.cmd('GET', `/element/${elementId(element)}/computedrole`);
  }
  computedLabel(element) {
    return this.cmd('GET', `/element/${elementId(element)}/computedlabel`);
  }
  shadowRoot(element) {
    return this.cmd('GET', `/element/${elementId(element)}/shadow`);
  }
  /** Commands after this run inside the iframe element given (null: back to the top page). */
  switchToFrame(element) {
    return this.cmd('POST', '/frame', { id: element });
  }
  switchToParentFrame() {
    return this.cmd('POST', '/frame/parent', {});
  }
  performActions(actions) {
    return this.cmd('POST', '/actions', { actions });
  }
}

export function elementId(element) {
  return typeof element === 'string' ? element : (element[ELEMENT] ?? element[SHADOW_ROOT]);
}

function asBody(fn) {
  return typeof fn === 'function' ? `return (${fn.toString()}).apply(null, arguments);` : fn;
}

async function request(base, method, path, body, timeoutMs = 120_000) {
  const res = await fetch(base + path, {
    method,
    headers: body === undefined ? {} : { 'content-type': 'application/json; charset=utf-8' },
    body: body === undefined ? undefined : JSON.stringify(body),
    signal: AbortSignal.timeout(timeoutMs),
  });
  const text = await res.text();
  let json;
  try {
    json = JSON.parse(text);
  } catch {
    throw new WebDriverError(`${method} ${path}`, { error: `HTTP ${res.status}`, message: text.slice(0, 300) });
  }
  if (!res.ok || json.value?.error) throw new WebDriverError(`${method} ${path}`, json.value);
  return json.value;
}
