/** `/h`: the hand-off claimed by the short code typed, with the wrong-code and rate-limit messages. */
import { HANDOFF_LIMITS } from '@onboarding-kit/contract';
import { continueHere } from './device-page.js';
import { claim } from './handoff-claim.js';

export function codePage(data: DOMStringMap): void {
  const form = document.getElementById('okit-code-form') as HTMLFormElement;
  const input = document.getElementById('okit-code') as HTMLInputElement;
  const message = document.getElementById('okit-code-message') as HTMLElement;
  const button = form.querySelector('button')!;
  let waitUntil = 0;
  const say = (text: string | undefined, isError: boolean) => {
    message.textContent = text ?? null;
    message.classList.toggle('error', isError);
    if (isError) input.setAttribute('aria-invalid', 'true');
    else input.removeAttribute('aria-invalid');
  };
  form.addEventListener('submit', async (event) => {
    event.preventDefault();
    if (Date.now() < waitUntil) return;
    const code = input.value.replace(/[\s-]+/g, '').toUpperCase();
    if (code.length !== HANDOFF_LIMITS.codeLength) {
      say(data.textCodeTooShort, true);
      input.focus();
      return;
    }
    button.disabled = true;
    say(data.textCodeChecking, false);
    const result = await claim(data.endpoint, { code });
    button.disabled = false;
    if (result.kind === 'ok') return continueHere(data, result.secret);
    if (result.kind === 'refused' && result.status === 429) {
      waitUntil = Date.now() + result.retryAfter * 1000;
      button.disabled = true;
      setTimeout(() => (button.disabled = false), result.retryAfter * 1000);
      say(data.textCodeRateLimited!.replace('{s}', String(result.retryAfter)), true);
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
