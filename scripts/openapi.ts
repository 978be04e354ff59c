// Writes docs/openapi.json from the companion's OpenAPI module (packages/server/src/openapi/),
// the same bytes `GET /v1/openapi.json` serves. `--check` writes nothing and exits 1 when the
// committed file differs.
//
//   npm run openapi             write docs/openapi.json
//   npm run openapi -- --check  exit 1 when docs/openapi.json is not what the module produces
import { readFileSync, writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { openApiText } from '@onboarding-kit/server/openapi';

const target = fileURLToPath(new URL('../docs/openapi.json', import.meta.url));
const text = openApiText();

if (process.argv.includes('--check')) {
  let committed = '';
  try {
    committed = readFileSync(target, 'utf8');
  } catch {
    // A missing file differs like any other.
  }
  if (committed !== text) {
    console.error('docs/openapi.json differs from the OpenAPI module: run `npm run openapi` and commit the result.');
    process.exit(1);
  }
  console.log('docs/openapi.json is up to date.');
} else {
  writeFileSync(target, text);
  console.log(`docs/openapi.json written (${text.length} bytes).`);
}
