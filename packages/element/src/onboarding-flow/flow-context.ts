/**
 * What every part of the flow reads of the element's own settings, resolved in one place: the
 * companion's base URL, the session's secret, the locale in effect and its messages, and where a
 * wait for the outcome survives a reload. The host hands one {@link FlowContextSource} to its
 * controllers; the context is resolved again only when the endpoint, the secret or the locale
 * changed, and read the same by everything within an update.
 */
import { normalizeEndpoint } from '../api/endpoint.js';
import { resumeKeyFor } from '../controllers/kept-onboarding.js';
import { messagesFor, resolveLocale, type Messages, type OnboardingLocale } from '../messages/index.js';

export interface FlowContext {
  /** The companion's base URL, normalised (`.../v1`). */
  readonly endpoint: string;
  /** The session's client secret, or '' without a session. Never rendered, never in an event. */
  readonly secret: string;
  readonly locale: OnboardingLocale;
  readonly messages: Messages;
  /** The `sessionStorage` key a wait for the outcome is kept under (one per endpoint and session), or null to keep none. */
  readonly resumeKey: string | null;
}

/** The element's settings as set: the `endpoint` and `session` attributes and the locale in effect. */
export interface FlowSettings {
  endpoint: string;
  session: string;
  locale: string;
}

/** Where the controllers read the context: always the one of the settings in effect. */
export interface FlowContextSource {
  readonly current: FlowContext;
}

export function resolveFlowContext(settings: FlowSettings): FlowContext {
  const endpoint = normalizeEndpoint(settings.endpoint || '');
  const secret = settings.session || '';
  const locale = resolveLocale(settings.locale);
  return { endpoint, secret, locale, messages: messagesFor(locale), resumeKey: resumeKeyFor(endpoint, secret) };
}

/** The context of the host's settings, resolved again only when one of them changed. */
export class ResolvedFlowContext implements FlowContextSource {
  readonly #settings: () => FlowSettings;
  #seen: FlowSettings | null = null;
  #context: FlowContext | null = null;

  constructor(settings: () => FlowSettings) {
    this.#settings = settings;
  }

  get current(): FlowContext {
    const settings = this.#settings();
    const seen = this.#seen;
    if (
      !this.#context ||
      !seen ||
      seen.endpoint !== settings.endpoint ||
      seen.session !== settings.session ||
      seen.locale !== settings.locale
    ) {
      this.#seen = settings;
      this.#context = resolveFlowContext(settings);
    }
    return this.#context;
  }
}
