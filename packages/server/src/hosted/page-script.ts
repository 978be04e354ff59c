/**
 * The hosted pages' one script, served as a module file (the CSP allows no inline script). It
 * reads what the server wrote into the page (`data-*` of `#okit-page`, hidden messages, the
 * flow's `<template>`) and:
 *
 * - `capture` (the session's `url`): at the element's outcome, shows "Redirecionando…" with a
 *   link to go at once, and after a moment sends the person to the session's `returnUrl` with
 *   `session` and `status` added; on declined consent, offers the way back without leaving by
 *   itself. Without a `returnUrl` the element's outcome screen stays.
 * - `claim` (`/h/<token>`, the hand-off link): POSTs the claim once the page is really shown
 *   (never on a prerender: a link scanner that only fetches burns nothing), keeps the device's
 *   secret in sessionStorage (never in the address), mounts the flow and replaces the history
 *   entry with the device's capture page.
 * - `code` (`/h`): the same claim by the short code typed, with the wrong-code and rate-limit
 *   messages.
 * - `device` (`/capture`, after a claim): mounts the flow with the secret kept in sessionStorage.
 *
 * Plain ES2020 with no imports; every text it shows is in the page already, in the page's language.
 */
export const PAGE_SCRIPT = String.raw`// onboarding-kit: the hosted capture page (docs/hosted-page.md)
const page = document.getElementById('okit-page');
const data = page ? page.dataset : {};
const DEVICE_KEY = 'onboarding-kit:device-session';
const REDIRECT_DELAY_MS = 4000;

function show(id) {
  for (const el of document.querySelectorAll('[data-okit-view]')) el.hidden = el.id !== id;
  const shown = document.getElementById(id);
  const heading = shown && shown.querySelector('h1, h2');
  if (heading) heading.focus();
}

function readSecret() {
  try {
    return sessionStorage.getItem(DEVICE_KEY);
  } catch (e) {
    return null;
  }
}

function keepSecret(secret) {
  try {
    sessionStorage.setItem(DEVICE_KEY, secret);
    return true;
  } catch (e) {
    return false;
  }
}

/** The flow from the page's template, bound to a device's secret (a property: never an attribute). */
function mountFlow(secret) {
  const template = document.getElementById('okit-flow');
  const slot = document.getElementById('okit-flow-slot');
  if (!template || !slot) return null;
  const fragment = template.content.cloneNode(true);
  const flow = fragment.querySelector('onboarding-flow');
  flow.session = secret;
  slot.replaceChildren(fragment);
  slot.hidden = false;
  return flow;
}

function banner(text, link) {
  const box = document.getElementById('okit-banner');
  if (!box) return;
  box.querySelector('[data-okit-text]').textContent = text;
  const a = box.querySelector('a');
  if (link) {
    a.href = link.href;
    a.textContent = link.text;
    a.hidden = false;
  } else {
    a.hidden = true;
  }
  box.hidden = false;
}

function returnTo(status) {
  if (!data.returnUrl || !data.sessionId) return null;
  try {
    const url = new URL(data.returnUrl);
    url.searchParams.set('session', data.sessionId);
    url.searchParams.set('status', status);
    return url.href;
  } catch (e) {
    return null;
  }
}

function followOutcome(device) {
  let done = false;
  document.addEventListener('onboarding-complete', (event) => {
    if (done) return;
    done = true;
    if (device) return banner(data.textDeviceDone);
    const href = returnTo(event.detail.status);
    if (!href) return;
    banner(data.textRedirecting, { href, text: data.textGoNow });
    setTimeout(() => location.assign(href), REDIRECT_DELAY_MS);
  });
  document.addEventListener('onboarding-cancel', (event) => {
    if (done || device || event.detail.step === 'upload') return;
    const href = returnTo('CANCELLED');
    if (href) banner(data.textCancelled, { href, text: data.textBack });
  });
}

/** Mounts the flow for a device that just claimed the session, and leaves the link out of history. */
function continueHere(secret) {
  keepSecret(secret);
  show('okit-flow-slot');
  mountFlow(secret);
  history.replaceState(null, '', data.devicePath);
  followOutcome(true);
}

async function claim(body) {
  let res;
  try {
    res = await fetch(data.endpoint + '/handoff/claim', {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify(body),
      credentials: 'omit',
      cache: 'no-store',
      referrerPolicy: 'no-referrer',
    });
  } catch (e) {
    return { kind: 'network' };
  }
  if (res.ok) {
    try {
      const answer = await res.json();
      if (typeof answer.clientSecret === 'string') return { kind: 'ok', secret: answer.clientSecret };
    } catch (e) {
      // An answer that is not the claim's: as a failure below.
    }
    return { kind: 'failed' };
  }
  let code = '';
  try {
    code = (await res.json()).error.code;
  } catch (e) {
    code = '';
  }
  const retryAfter = Number(res.headers.get('retry-after'));
  return { kind: 'refused', status: res.status, code, retryAfter: Number.isFinite(retryAfter) && retryAfter > 0 ? Math.ceil(retryAfter) : 60 };
}

/** Runs fn once the page is really in front of someone (not prerendered, not in a hidden tab). */
function whenShown(fn) {
  const ready = () => !document.prerendering && document.visibilityState === 'visible';
  if (ready()) return fn();
  const check = () => {
    if (!ready()) return;
    document.removeEventListener('visibilitychange', check);
    document.removeEventListener('prerenderingchange', check);
    fn();
  };
  document.addEventListener('visibilitychange', check);
  document.addEventListener('prerenderingchange', check);
}

function claimPage() {
  const token = decodeURIComponent(location.pathname.split('/').pop() || '');
  const run = async () => {
    show('okit-claiming');
    const result = await claim({ token });
    if (result.kind === 'ok') return continueHere(result.secret);
    if (result.kind === 'refused' && result.status === 410) return show(result.code === 'handoff_expired' ? 'okit-link-expired' : 'okit-link-used');
    if (result.kind === 'refused' && result.status === 404) return show('okit-link-invalid');
    show('okit-claim-failed');
  };
  const retry = document.getElementById('okit-retry');
  if (retry) retry.addEventListener('click', () => void run());
  whenShown(() => void run());
}

function codePage() {
  const form = document.getElementById('okit-code-form');
  const input = document.getElementById('okit-code');
  const message = document.getElementById('okit-code-message');
  const button = form.querySelector('button');
  let waitUntil = 0;
  const say = (text, isError) => {
    message.textContent = text;
    message.classList.toggle('error', Boolean(isError));
    if (isError) input.setAttribute('aria-invalid', 'true');
    else input.removeAttribute('aria-invalid');
  };
  form.addEventListener('submit', async (event) => {
    event.preventDefault();
    if (Date.now() < waitUntil) return;
    const code = input.value.replace(/[\s-]+/g, '').toUpperCase();
    if (code.length !== 8) {
      say(data.textCodeTooShort, true);
      input.focus();
      return;
    }
    button.disabled = true;
    say(data.textCodeChecking, false);
    const result = await claim({ code });
    button.disabled = false;
    if (result.kind === 'ok') return continueHere(result.secret);
    if (result.kind === 'refused' && result.status === 429) {
      waitUntil = Date.now() + result.retryAfter * 1000;
      button.disabled = true;
      setTimeout(() => (button.disabled = false), result.retryAfter * 1000);
      say(data.textCodeRateLimited.replace('{s}', String(result.retryAfter)), true);
    } else if (result.kind === 'refused' && result.status === 404) {
      say(data.textCodeWrong, true);
    } else if (result.kind === 'refused' && result.status === 410) {
      say(result.code === 'handoff_expired' ? data.textCodeExpired : data.textCodeUsed, true);
    } else {
      say(data.textClaimFailed, true);
    }
    input.focus();
  });
}

function devicePage() {
  const secret = readSecret();
  if (!secret) return show('okit-no-session');
  mountFlow(secret);
  followOutcome(true);
}

if (data.page === 'capture') followOutcome(false);
else if (data.page === 'claim') claimPage();
else if (data.page === 'code') codePage();
else if (data.page === 'device') devicePage();
`;
