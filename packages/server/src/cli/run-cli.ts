/**
 * `onboarding-companion`'s command line: `--help`, `--version`, `--check` (the configuration,
 * secrets redacted) or the start. The configuration is checked whole before anything opens: the
 * variables (config/env-config.ts), the brand's file and logo, and the companion's own option
 * checks, every problem listed in one error.
 */
import { readEnvConfig, type EnvConfig } from '../config/env-config.js';
import { checkOptions } from '../config/check-options.js';
import type { BrandInput } from '../hosted/brand.js';
import { KIT_VERSION } from '../version.js';
import { companionOptions, configuredBrand } from './companion-options.js';
import { describeEnvConfig } from './describe-config.js';
import { startCompanion } from './start-companion.js';
import { USAGE } from './usage.js';

export interface CliOutput {
  out(text: string): void;
  err(text: string): void;
}

type Checked = { ok: true; config: EnvConfig; brand: BrandInput } | { ok: false; problems: string[] };

/** The exit code, or `undefined` once the companion runs (it exits on SIGTERM/SIGINT). */
export async function runCli(
  args: readonly string[],
  env: Readonly<Record<string, string | undefined>>,
  io: CliOutput,
): Promise<number | undefined> {
  const [option, ...rest] = args;
  if (rest.length > 0 || (option !== undefined && !['--check', '--help', '-h', '--version'].includes(option))) {
    io.err(
      `onboarding-companion: unknown argument ${JSON.stringify(args.find((a) => !['--check', '--help', '-h', '--version'].includes(a)) ?? rest[0])}\n\n${USAGE}`,
    );
    return 2;
  }
  if (option === '--help' || option === '-h') {
    io.out(USAGE);
    return 0;
  }
  if (option === '--version') {
    io.out(`${KIT_VERSION}\n`);
    return 0;
  }
  const checked = checkConfiguration(env);
  if (!checked.ok) {
    io.err(
      `onboarding-companion: invalid configuration (${checked.problems.length} problem${checked.problems.length > 1 ? 's' : ''}):\n${checked.problems.map((p) => `  - ${p}`).join('\n')}\n`,
    );
    return 1;
  }
  if (option === '--check') {
    io.out(`onboarding-companion ${KIT_VERSION}: the configuration is valid\n${describeEnvConfig(checked.config, env).join('\n')}\n`);
    return 0;
  }
  return startCompanion(checked.config, checked.brand);
}

/** The variables, then (when they hold together) the brand's file and logo and the companion's option checks. */
function checkConfiguration(env: Readonly<Record<string, string | undefined>>): Checked {
  const read = readEnvConfig(env, { runner: 'companion' });
  if (!read.ok) return { ok: false, problems: read.errors };
  const { config } = read;
  const problems: string[] = [];
  let brand: BrandInput = {};
  try {
    brand = configuredBrand(config);
  } catch (e) {
    problems.push((e as Error).message);
  }
  try {
    // The listening address is not known yet: a loopback stand-in, which every check accepts as the real one would be.
    checkOptions(
      companionOptions(config, {
        baseUrl: config.baseUrl ?? 'http://127.0.0.1/sandbox',
        publicUrl: config.publicUrl ?? 'http://127.0.0.1',
        brand,
      }),
    );
  } catch (e) {
    problems.push((e as Error).message);
  }
  return problems.length ? { ok: false, problems } : { ok: true, config, brand };
}
