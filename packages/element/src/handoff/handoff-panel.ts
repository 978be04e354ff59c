/**
 * The hand-off panel (docs/page-api.md#hand-off), in place of the flow's step: the link to the
 * phone as a QR code (qr.ts) and as a short code to type at the short address, with a countdown
 * and a new code on request or once it lapses; then how the phone is doing: connected, where the
 * person is and which photos are taken, the sending. "Back to this computer" takes the session
 * back. The protocol behind it is handoff-link.ts; what the flow acts on (the outcome, the
 * take-back, what to announce) goes to it as `handoff-report` events (panel-events.ts).
 *
 * Loaded lazily (onboarding-flow.handoff.js beside the script) when the person asks for the
 * hand-off, or when a reload finds a phone holding the session. The element's Lit is handed in
 * (`defineHandoffPanel`), so the file carries no second copy of it. The page secret is a property
 * read for each request, never rendered.
 */
import type { LitElement, PropertyValues, TemplateResult, css as litCss, html as litHtml, nothing as litNothing, svg as litSvg } from 'lit';
import { handoffAnswers, type HandoffForm } from './handoff-answers.js';
import type { OnboardingLocale } from '../messages/index.js';
import { HandoffLink } from './handoff-link.js';
import { handoffPanelStyles } from './handoff-panel.styles.js';
import { renderHandoffPanel } from './handoff-panel-view.js';
import { HANDOFF_REPORT, type HandoffReport } from './panel-events.js';
import { handoffTexts } from './texts.js';

export { handoffTexts, type HandoffTexts } from './texts.js';
export { linkDevice, type DeviceLink } from './device-link.js';
export { actOnReport } from './report-actions.js';

/** What the panel takes from the element's own Lit. */
export interface HandoffLitKit {
  LitElement: typeof LitElement;
  html: typeof litHtml;
  svg: typeof litSvg;
  css: typeof litCss;
  nothing: typeof litNothing;
}

export const HANDOFF_PANEL_TAG = 'onboarding-handoff-panel';

export interface HandoffPanelProps {
  /** `offer`: ask for a link and show it; `follow`: a phone holds the session already (a reload). */
  mode: 'offer' | 'follow';
  /** The companion's base URL, normalised (`.../v1`). */
  endpoint: string;
  /** The page secret: sent in the Authorization header of each request, never rendered. */
  secret: string;
  locale: OnboardingLocale;
  /** No camera was found here: the panel says why the phone. */
  noCamera: boolean;
  /** The flow's form: what the person answered here is handed over with each offer (null: nothing). */
  form: HandoffForm | null;
}

/** How long a copy may wait for the clipboard before the person is told to type the code instead. */
const COPY_WAIT_MS = 3000;

/** Writes `text` to the clipboard, or throws; a clipboard that neither takes it nor refuses it counts as refusing. */
async function copyText(text: string): Promise<void> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  await Promise.race([
    navigator.clipboard.writeText(text),
    new Promise((_, reject) => (timer = setTimeout(() => reject(new Error('clipboard did not answer')), COPY_WAIT_MS))),
  ]).finally(() => clearTimeout(timer));
}

/**
 * The element's LitElement with the panel's reactive properties and their defaults: the part of
 * the panel that is only its inputs.
 */
function panelWithProperties(kit: HandoffLitKit) {
  return class extends kit.LitElement implements HandoffPanelProps {
    static override styles = handoffPanelStyles(kit.css);
    static override properties = {
      mode: { attribute: false },
      endpoint: { attribute: false },
      secret: { attribute: false },
      locale: { attribute: false },
      noCamera: { attribute: false },
      form: { attribute: false },
      notice: { state: true },
    };

    declare mode: 'offer' | 'follow';
    declare endpoint: string;
    declare secret: string;
    declare locale: OnboardingLocale;
    declare noCamera: boolean;
    declare form: HandoffForm | null;
    /** What became of the last copy of the code. */
    declare notice: string | null;

    constructor() {
      super();
      this.mode = 'offer';
      this.endpoint = '';
      this.secret = '';
      this.locale = 'pt-BR';
      this.noCamera = false;
      this.form = null;
      this.notice = null;
    }
  };
}

/** Defines `<onboarding-handoff-panel>` once, with the element's Lit. */
export function defineHandoffPanel(kit: HandoffLitKit): void {
  if (customElements.get(HANDOFF_PANEL_TAG)) return;

  class HandoffPanel extends panelWithProperties(kit) {
    readonly #link = new HandoffLink({
      endpoint: () => this.endpoint,
      secret: () => this.secret,
      answers: () => (this.form ? handoffAnswers(this.form) : null),
      texts: () => this.#t,
      changed: () => {
        // A new code is asked for: what was said about the last one no longer applies.
        if (this.#link.phase === 'creating') this.notice = null;
        this.requestUpdate();
      },
      report: (report) => this.#report(report),
    });
    #focusWasInside = false;

    get #t() {
      return handoffTexts[this.locale] ?? handoffTexts['pt-BR'];
    }

    override connectedCallback(): void {
      super.connectedCallback();
      this.#link.start(this.mode);
    }

    override disconnectedCallback(): void {
      super.disconnectedCallback();
      this.#link.stop();
    }

    protected override update(changed: PropertyValues): void {
      this.#focusWasInside = !!this.shadowRoot?.activeElement;
      super.update(changed);
    }

    protected override updated(): void {
      // The focused button went (a phase change): carry on from the panel's main action.
      if (this.#focusWasInside && !this.shadowRoot?.activeElement) {
        this.renderRoot.querySelector<HTMLElement>('button.primary, button')?.focus();
      }
    }

    #report(report: HandoffReport): void {
      this.dispatchEvent(new CustomEvent<HandoffReport>(HANDOFF_REPORT, { detail: report }));
    }

    async #copy(): Promise<void> {
      const t = this.#t;
      const code = this.#link.code;
      if (!code) return;
      try {
        await copyText(code);
        this.notice = t.copied;
      } catch {
        this.notice = t.copyFailed;
      }
      this.#report({ kind: 'announce', text: this.notice });
    }

    override render(): TemplateResult {
      return renderHandoffPanel({
        lit: kit,
        t: this.#t,
        link: this.#link,
        noCamera: this.noCamera,
        notice: this.notice,
        copy: () => void this.#copy(),
      });
    }
  }

  customElements.define(HANDOFF_PANEL_TAG, HandoffPanel);
}

declare global {
  interface HTMLElementTagNameMap {
    'onboarding-handoff-panel': HTMLElement & HandoffPanelProps;
  }
}
