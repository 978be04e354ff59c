/**
 * The hosted pages' HTML, written with Hono's `html` template (every value escaped). Pages carry
 * no inline script or style: the behaviour is in the page's script file (built from
 * src/hosted/page/), the look in its stylesheet; what the script needs (its texts, the return URL)
 * rides in `data-*` attributes and hidden elements. No page ever holds a URL of another origin,
 * save the session's own `returnUrl`.
 */
import { html } from 'hono/html';
import type { HtmlEscapedString } from 'hono/utils/html';
import type { Brand } from './brand.js';
import { ELEMENT_BUNDLE, PAGE_STYLE_FILE, type HostedAssets } from './hosted-assets.js';
import { PAGE_SCRIPT_FILE } from './page-script-file.js';
import { PAGE_TEXT, type PageLocale, type PageText } from './page-text.js';

type Html = HtmlEscapedString | Promise<HtmlEscapedString>;

/** Where the page is mounted (`''` at the root) and what it links to. */
export interface PageContext {
  base: string;
  locale: PageLocale;
  brand: Brand;
  assets: HostedAssets;
}

const assetUrl = (p: PageContext, file: string) => `${p.base}/capture/assets/${p.assets.page.version}/${file}`;
const elementUrl = (p: PageContext, version: string) => `${p.base}/capture/element/${version}/${ELEMENT_BUNDLE}`;

function header(p: PageContext): Html {
  const { brand } = p;
  if (!brand.name && !p.assets.page.logo) return html``;
  return html`<header class="okit-header">
${p.assets.page.logo ? html`<img src="${assetUrl(p, p.assets.page.logo)}" alt="${brand.name ?? ''}">` : ''}
${brand.name ? html`<span class="okit-name"${p.assets.page.logo ? html` aria-hidden="true"` : ''}>${brand.name}</span>` : ''}
</header>`;
}

function document(p: PageContext, options: { title: string; body: Html; script?: { elementVersion: string } }): Html {
  const t = PAGE_TEXT[p.locale];
  const title = p.brand.name ? `${options.title} · ${p.brand.name}` : options.title;
  return html`<!doctype html>
<html lang="${p.locale}">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1, viewport-fit=cover">
<meta name="referrer" content="no-referrer">
<meta name="robots" content="noindex, nofollow">
${p.brand.color ? html`<meta name="theme-color" content="${p.brand.color}">` : ''}
<title>${title || t.title}</title>
<link rel="icon" href="data:,">
<link rel="stylesheet" href="${assetUrl(p, PAGE_STYLE_FILE)}">
${
  options.script
    ? html`<script type="module" src="${elementUrl(p, options.script.elementVersion)}"></script>
<script type="module" src="${assetUrl(p, PAGE_SCRIPT_FILE)}"></script>`
    : ''
}
</head>
<body>
${header(p)}
${options.body}
</body>
</html>
`;
}

/** The texts the script shows, as `data-text-*` of `#okit-page`. */
function scriptTexts(t: PageText): Html {
  return html` data-text-redirecting="${t.redirecting}" data-text-go-now="${t.goNow}" data-text-cancelled="${t.cancelled}" data-text-back="${t.backToService}" data-text-device-done="${t.deviceDone}" data-text-code-too-short="${t.codeTooShort}" data-text-code-checking="${t.codeChecking}" data-text-code-wrong="${t.codeWrong}" data-text-code-used="${t.codeUsed}" data-text-code-expired="${t.codeExpired}" data-text-code-rate-limited="${t.codeRateLimited}" data-text-claim-failed="${t.claimFailed}"`;
}

const banner = html`<div class="okit-banner" id="okit-banner" role="status" hidden><span data-okit-text></span><a hidden></a></div>`;

/** The element as the pages bind it: `endpoint` is the companion itself, same origin; its secret is set by the script. */
function flow(p: PageContext, attrs: { locale?: PageLocale }): Html {
  // The brand's name is the data controller the consent names (LGPD): the integrator collecting the data.
  return html`<onboarding-flow endpoint="${p.base}/" handoff${attrs.locale ? html` locale="${attrs.locale}"` : ''}${p.brand.name ? html` controller-name="${p.brand.name}"` : ''}></onboarding-flow>`;
}

/**
 * `GET /capture/<token>`: the session's page. The token is not in it: the script reads it from
 * the address, trades it for a page secret and mounts the flow with that.
 */
export function capturePage(p: PageContext, s: { elementVersion: string; sessionId: string; returnUrl?: string }): Html {
  const t = PAGE_TEXT[p.locale];
  const body = html`<main id="okit-page" data-page="capture" data-endpoint="${p.base}/v1" data-device-path="${p.base}/capture" data-session-id="${s.sessionId}"${s.returnUrl ? html` data-return-url="${s.returnUrl}"` : ''}${scriptTexts(t)}>
${view('okit-opening', t.opening, html``, false)}
${view('okit-opened', t.openedHeading, html`<p>${t.openedBody}</p>`)}
${view('okit-open-failed', t.opening, html`<p class="okit-message error">${t.openFailed}</p><div class="okit-actions"><button type="button" id="okit-open-retry">${t.tryAgain}</button></div>`)}
${deviceFlow(p, true, p.locale)}
</main>
${banner}`;
  return document(p, { title: t.title, body, script: { elementVersion: s.elementVersion } });
}

/** The flow, mounted by the script with the secret it keeps (never in the page). */
function deviceFlow(p: PageContext, hidden: boolean, locale?: PageLocale): Html {
  return html`<template id="okit-flow"><div class="okit-flow">${flow(p, locale ? { locale } : {})}</div></template>
<div id="okit-flow-slot" data-okit-view${hidden ? html` hidden` : ''}></div>`;
}

function view(id: string, heading: string, body: Html, hidden = true): Html {
  return html`<section class="okit-card" id="${id}" data-okit-view${hidden ? html` hidden` : ''}><h1 tabindex="-1">${heading}</h1>${body}</section>`;
}

/** `GET /capture`: the capture page of a device that claimed a hand-off (its secret in sessionStorage). */
export function devicePage(p: PageContext, elementVersion: string): Html {
  const t = PAGE_TEXT[p.locale];
  const body = html`<main id="okit-page" data-page="device" data-endpoint="${p.base}/v1"${scriptTexts(t)}>
${deviceFlow(p, false)}
${view('okit-no-session', t.noDeviceSessionHeading, html`<p>${t.noDeviceSessionBody}</p><div class="okit-actions"><a class="okit-button" href="${p.base}/h">${t.typeCodeInstead}</a></div>`)}
</main>
${banner}`;
  return document(p, { title: t.title, body, script: { elementVersion } });
}

/** `GET /h/<token>`: the hand-off link; its script claims once the page is shown. */
export function claimPage(p: PageContext, elementVersion: string): Html {
  const t = PAGE_TEXT[p.locale];
  const typeCode = html`<a class="okit-link" href="${p.base}/h">${t.typeCodeInstead}</a>`;
  const body = html`<main id="okit-page" data-page="claim" data-endpoint="${p.base}/v1" data-device-path="${p.base}/capture"${scriptTexts(t)}>
${view('okit-claiming', t.claiming, html`<p class="okit-muted">${t.claimWait}</p>`, false)}
${view('okit-link-used', t.linkUsedHeading, html`<p>${t.linkUsedBody}</p><div class="okit-actions">${typeCode}</div>`)}
${view('okit-link-expired', t.linkExpiredHeading, html`<p>${t.linkExpiredBody}</p><div class="okit-actions">${typeCode}</div>`)}
${view('okit-link-invalid', t.linkInvalidHeading, html`<p>${t.linkInvalidBody}</p><div class="okit-actions">${typeCode}</div>`)}
${view('okit-claim-failed', t.claiming, html`<p class="okit-message error">${t.claimFailed}</p><div class="okit-actions"><button type="button" id="okit-retry">${t.tryAgain}</button>${typeCode}</div>`)}
${deviceFlow(p, true)}
</main>
${banner}`;
  return document(p, { title: t.title, body, script: { elementVersion } });
}

/** `GET /h`: the short code, typed. */
export function codePage(p: PageContext, elementVersion: string): Html {
  const t = PAGE_TEXT[p.locale];
  const form = html`<p>${t.codeIntro}</p>
<form id="okit-code-form" action="${p.base}/h" method="get" novalidate>
<label for="okit-code">${t.codeLabel}</label>
<input class="okit-code" id="okit-code" name="code" type="text" autocomplete="off" autocorrect="off" autocapitalize="characters" spellcheck="false" inputmode="text" enterkeyhint="go" maxlength="16" aria-describedby="okit-code-hint okit-code-message" required>
<p class="okit-message" id="okit-code-message" role="alert"></p>
<p class="okit-hint" id="okit-code-hint">${t.codeHint}</p>
<button type="submit">${t.codeSubmit}</button>
</form>`;
  const body = html`<main id="okit-page" data-page="code" data-endpoint="${p.base}/v1" data-device-path="${p.base}/capture"${scriptTexts(t)}>
${view('okit-code-view', t.codeHeading, form, false)}
${deviceFlow(p, true)}
</main>
${banner}`;
  return document(p, { title: t.codeHeading, body, script: { elementVersion } });
}

/** A small page that says what happened (unknown link, expired, used, unavailable), with no script at all. */
export function messagePage(
  p: PageContext,
  m: { heading: string; body: string; back?: { href: string; text: string }; detail?: string },
): Html {
  const body = html`<main>
<section class="okit-card"><h1>${m.heading}</h1><p>${m.body}</p>${m.detail ? html`<p class="okit-muted">${m.detail}</p>` : ''}${m.back ? html`<div class="okit-actions"><a class="okit-button" href="${m.back.href}">${m.back.text}</a></div>` : ''}</section>
</main>`;
  return document(p, { title: m.heading, body });
}
