#!/usr/bin/env node
/** The `onboarding-companion` command (docs/deploy.md): the companion alone, configured by its environment. */
import { runCli } from './run-cli.js';

const code = await runCli(process.argv.slice(2), process.env, {
  out: (text) => process.stdout.write(text),
  err: (text) => process.stderr.write(text),
});
if (code !== undefined) process.exitCode = code;
