/**
 * The configuration of `npm start` (README.md, "Configuration of `npm start`"): the companion's
 * `ONBOARDING_*` variables as the server package reads them (`readEnvConfig`, one place for
 * each variable), for the runner that adds the demo: the embedded sandbox unless an upstream is
 * named, a demo API key and notification receiver of its own. Pure: no I/O, so it is testable.
 */
import { readEnvConfig, SANDBOX_CREDENTIALS, type EnvConfigResult } from '@onboarding-kit/server';

/** Unset `notify` in the configuration: the demo's own receiver gets the notifications. */
export type ConfigResult = EnvConfigResult;

/** The sandbox's own defaults, used when it is embedded and nothing else is configured. */
export const SANDBOX_DEFAULTS = SANDBOX_CREDENTIALS;

export function readConfig(env: Record<string, string | undefined>): ConfigResult {
  return readEnvConfig(env, { runner: 'demo' });
}
