#!/usr/bin/env node
// The launcher is committed, not built: npm links a bin only when its file exists at install time,
// and in a clone of the repository the built companion exists only after `npm run build`.
import { existsSync } from 'node:fs';

const cli = new URL('../dist/cli/companion-cli.js', import.meta.url);
if (!existsSync(cli)) {
  process.stderr.write('onboarding-companion: @onboarding-kit/server is not built; run `npm run build` at the repository root first.\n');
  process.exit(1);
}
await import(cli.href);
