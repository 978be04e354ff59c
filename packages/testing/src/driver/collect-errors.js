// Loaded first in every page of an end-to-end test (an init script in Chromium and Firefox; the
// recording proxy injects it into every HTML page for WebKit, whose driver has no console):
// uncaught errors, unhandled rejections, console errors and warnings and CSP violations land in
// window.__collected, read back by Driver.errors(). Same-origin, so a script-src 'self' CSP allows it.
(() => {
  if (window.__collected) return; // loaded twice (page + proxy injection)
  const log = (window.__collected = { errors: [], console: [], csp: [] });
  addEventListener('error', (e) => {
    if (e instanceof ErrorEvent) log.errors.push(`error: ${e.message} @ ${e.filename}:${e.lineno}`);
  });
  addEventListener('unhandledrejection', (e) =>
    log.errors.push(`unhandledrejection: ${e.reason instanceof Error ? `${e.reason.name}: ${e.reason.message}` : String(e.reason)}`),
  );
  document.addEventListener('securitypolicyviolation', (e) =>
    log.csp.push(`${e.violatedDirective} ${e.blockedURI} ${e.sourceFile}:${e.lineNumber}`),
  );
  for (const level of ['error', 'warn']) {
    const original = console[level];
    console[level] = (...args) => {
      log.console.push(`${level}: ${args.map(String).join(' ')}`);
      original.apply(console, args);
    };
  }
})();
