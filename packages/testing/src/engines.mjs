// The engines the tests run in, chosen with ENGINES (a comma list; all three by default), so a
// quick local run can take one engine: `ENGINES=chromium npm run test:browser`.
export const ENGINES = Object.freeze(['chromium', 'firefox', 'webkit']);

/** The engines ENGINES names, in the order of ENGINES above; unknown names are an error. */
export function selectedEngines(value = process.env.ENGINES) {
  if (!value || !value.trim()) return [...ENGINES];
  const asked = value
    .split(',')
    .map((e) => e.trim().toLowerCase())
    .filter(Boolean);
  const unknown = asked.filter((e) => !ENGINES.includes(e));
  if (unknown.length) throw new Error(`ENGINES: unknown engine(s) ${unknown.join(', ')} (known: ${ENGINES.join(', ')})`);
  return ENGINES.filter((e) => asked.includes(e));
}
