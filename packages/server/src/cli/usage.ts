/** What `onboarding-companion --help` prints. */
export const USAGE = `Usage: onboarding-companion [--check | --help | --version]

Runs the onboarding-kit companion alone (no demo pages), configured by ONBOARDING_* environment
variables; every one is listed in docs/deploy.md of the onboarding-kit repository.

  (no option)  start; every missing or invalid variable is named in one error, exit 1
  --check      print the resolved configuration, secrets redacted, and exit (0: valid, 1: not)
  --help       print this text
  --version    print the kit's version

The upstream: ONBOARDING_BASE_URL with ONBOARDING_CLIENT, ONBOARDING_SECRET and
ONBOARDING_WEBHOOK_KEY, or ONBOARDING_UPSTREAM=sandbox for the embedded sandbox (test environment
only; needs the package @onboarding-kit/sandbox installed beside this one).
Health: GET /v1/health (live) and GET /v1/ready (store and upstream), no authentication.
Logs: one JSON object per line on stdout (ONBOARDING_LOG_FORMAT=text for a terminal).
`;
