/** The page `npm start` serves at `/` until the element's demo page replaces it. */
export function placeholderPage(options: { environment: string; embeddedSandbox: boolean }): string {
  const upstream = options.embeddedSandbox ? 'the embedded sandbox at <code>/sandbox</code>' : 'the configured upstream';
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>onboarding-kit demo</title>
<style>body{font:16px/1.5 system-ui,sans-serif;max-width:40rem;margin:3rem auto;padding:0 1rem}code{background:#f3f3f3;padding:0 .25rem}</style>
</head>
<body>
<h1>onboarding-kit</h1>
<p>The companion is running (${options.environment} environment) with ${upstream}.</p>
<ul>
<li>Page API: <code>/v1</code> (<a href="/v1/health">health</a>)</li>
${options.embeddedSandbox ? '<li>Sandbox control API: <code>/sandbox/__sandbox/stats</code></li>' : ''}
</ul>
<p>The <code>&lt;onboarding-flow&gt;</code> demo page replaces this placeholder.</p>
</body>
</html>
`;
}
