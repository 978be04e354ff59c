/**
 * The hosted pages' one script (docs/hosted-page.md), built into a module file of its own
 * (vite.config.ts of this package) because the pages' CSP allows no inline script. It reads what
 * the server wrote into the page (`data-*` of `#okit-page`, hidden views, the flow's
 * `<template>`: page-html.ts) and:
 *
 * - `capture` (the session's `url`): once shown, trades the capture token of its address for a
 *   page secret (`POST /v1/session/exchange`, once per token), keeps it in sessionStorage, mounts
 *   the flow with it and replaces the address with `/capture`. At the element's outcome, shows
 *   "Redirecionando…" with a link to go at once, and after a moment sends the person to the
 *   session's `returnUrl` with `session` and `status` added; on declined consent, offers the way
 *   back without leaving by itself. Without a `returnUrl` the element's outcome screen stays.
 * - `claim` (`/h/<token>`, the hand-off link): POSTs the claim once the page is really shown
 *   (never on a prerender: a link scanner that only fetches burns nothing), keeps the device's
 *   secret in sessionStorage (never in the address), mounts the flow and replaces the history
 *   entry with the device's capture page.
 * - `code` (`/h`): the same claim by the short code typed, with the wrong-code and rate-limit
 *   messages.
 * - `device` (`/capture`, after a claim, an exchange or a reload): mounts the flow with the secret
 *   kept in sessionStorage (the session's own page with its way back to `returnUrl`).
 *
 * Every text it shows is in the page already, in the page's language.
 */
import { capturePage } from './capture-page.js';
import { claimPage } from './claim-page.js';
import { codePage } from './code-page.js';
import { devicePage } from './device-page.js';

const page = document.getElementById('okit-page');
const data: DOMStringMap = page ? page.dataset : {};

if (data.page === 'capture') capturePage(data);
else if (data.page === 'claim') claimPage(data);
else if (data.page === 'code') codePage(data);
else if (data.page === 'device') devicePage(data);
