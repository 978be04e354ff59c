/**
 * The capture view: the live preview full screen on phones (a modal on larger screens), at the
 * camera's real aspect ratio, under a dark mask with a cutout where the card or the face goes,
 * the instruction and the live hint on the preview, a large round shutter, and icon buttons to
 * go back, close the camera and switch cameras.
 *
 * Loaded lazily (onboarding-flow.capture-view.js beside the script) when the camera opens. The
 * element's Lit is handed in (`defineCaptureView`), so the file carries no second copy of it.
 * A native modal `<dialog>`: the page behind is inert (focus stays in the view), Escape closes
 * the camera, and the flow puts focus back on the button that opened it.
 */
import type { LitElement, PropertyValues, TemplateResult, css as litCss, html as litHtml, nothing as litNothing, svg as litSvg } from 'lit';
import type { cssProperty as cssPropertyDirective } from '../directives/css-property.js';
import { guideRect } from '../camera/guide-geometry.js';
import type { CaptureRole } from '../image/pipeline.js';
import { captureViewStyles } from './capture-view.styles.js';
import { captureViewTexts, type CaptureViewTexts, type ViewHint } from './texts.js';
import { startGuidance, type GuidanceRun } from './guidance-run.js';

export { cameraErrorTexts } from './camera-error-texts.js';

/** What the view takes from the element's own Lit. */
export interface LitKit {
  LitElement: typeof LitElement;
  html: typeof litHtml;
  svg: typeof litSvg;
  css: typeof litCss;
  nothing: typeof litNothing;
  cssProperty: typeof cssPropertyDirective;
}

const CAPTURE_VIEW_TAG = 'onboarding-capture-view';

/** The view's surface, as the element sets it. */
export interface CaptureViewProps {
  stream: MediaStream | null;
  role: CaptureRole;
  /** The step's short heading ("Frente da CNH"), the view's title. */
  heading: string;
  locale: 'pt-BR' | 'en' | 'es';
  /** Mirror the preview (a front camera); the saved photo is never mirrored. */
  mirrored: boolean;
  /** Another camera can be switched to. */
  canSwitch: boolean;
  /** Take the photo by itself once the frame is steady and passes the checks. */
  autoCapture: boolean;
  /** A photo is being taken: the shutter says so and does nothing more. */
  busy: boolean;
  onShutter: (auto: boolean) => void;
  onClose: () => void;
  onBack: () => void;
  onSwitch: () => void;
}

export type CaptureViewElement = HTMLElement & CaptureViewProps & { readonly video: HTMLVideoElement | null };

/** Defines `<onboarding-capture-view>` once, with the element's Lit. */
export function defineCaptureView(kit: LitKit): void {
  if (customElements.get(CAPTURE_VIEW_TAG)) return;
  const { LitElement: Base, html, svg, nothing, cssProperty } = kit;

  const icon = (path: TemplateResult): TemplateResult =>
    html`<svg viewBox="0 0 24 24" width="28" height="28" aria-hidden="true" focusable="false">${path}</svg>`;
  const backIcon = icon(svg`<path d="M15 5l-7 7 7 7" />`);
  const closeIcon = icon(svg`<path d="M6 6l12 12M18 6L6 18" />`);
  const switchIcon = icon(svg`<path d="M4 9a8 8 0 0 1 14-3l2 2M20 15a8 8 0 0 1-14 3l-2-2M20 4v4h-4M4 20v-4h4" />`);

  class CaptureView extends Base implements CaptureViewProps {
    static override styles = captureViewStyles(kit.css);
    static override properties = {
      stream: { attribute: false },
      role: { attribute: false },
      heading: { attribute: false },
      locale: { attribute: false },
      mirrored: { attribute: false },
      canSwitch: { attribute: false },
      autoCapture: { attribute: false },
      busy: { attribute: false },
      frame: { state: true },
      hint: { state: true },
      progress: { state: true },
      announcement: { state: true },
    };

    // Declared, set in the constructor: a class field would shadow Lit's reactive accessor
    // wherever fields are compiled with define semantics.
    declare stream: MediaStream | null;
    declare role: CaptureRole;
    declare heading: string;
    declare locale: 'pt-BR' | 'en' | 'es';
    declare mirrored: boolean;
    declare canSwitch: boolean;
    declare autoCapture: boolean;
    declare busy: boolean;
    onShutter: (auto: boolean) => void = () => undefined;
    onClose: () => void = () => undefined;
    onBack: () => void = () => undefined;
    onSwitch: () => void = () => undefined;

    /** The camera frame's size once known (it can change: rotation, another camera). */
    declare frame: { width: number; height: number } | null;
    declare hint: ViewHint | null;
    /** 0..1 while an automatic photo is coming. */
    declare progress: number;
    declare announcement: string;

    #guidance: GuidanceRun | null = null;
    /** The stream and frame size the guidance runs for. */
    #guidanceFor: { stream: MediaStream; width: number; height: number } | null = null;

    constructor() {
      super();
      this.stream = null;
      this.role = 'documentFront';
      this.heading = '';
      this.locale = 'pt-BR';
      this.mirrored = false;
      this.canSwitch = false;
      this.autoCapture = true;
      this.busy = false;
      this.frame = null;
      this.hint = null;
      this.progress = 0;
      this.announcement = '';
    }

    get video(): HTMLVideoElement | null {
      return this.renderRoot.querySelector('video');
    }

    get #texts(): CaptureViewTexts {
      return captureViewTexts[this.locale] ?? captureViewTexts['pt-BR'];
    }

    override disconnectedCallback(): void {
      super.disconnectedCallback();
      this.#stopGuidance();
      const video = this.video;
      if (video) video.srcObject = null;
    }

    protected override firstUpdated(): void {
      const dialog = this.renderRoot.querySelector('dialog')!;
      // Inert page behind, focus inside, Escape as `cancel`; a modal outside the top layer
      // (no showModal) would leave the page focusable.
      if (!dialog.open) dialog.showModal();
      this.announcement = this.#texts.opened(this.autoCapture);
    }

    protected override updated(changed: PropertyValues): void {
      const video = this.video;
      if (video && video.srcObject !== this.stream) {
        video.srcObject = this.stream;
        if (this.stream) video.play().catch(() => undefined);
        this.#frameChanged();
      }
      if (changed.has('autoCapture') || changed.has('role') || changed.has('busy')) this.#syncGuidance();
    }

    #frameChanged = (): void => {
      const video = this.video;
      const frame = video && video.videoWidth > 0 ? { width: video.videoWidth, height: video.videoHeight } : null;
      if (frame?.width !== this.frame?.width || frame?.height !== this.frame?.height) this.frame = frame;
      this.#syncGuidance();
    };

    /** Runs the live checks for the current stream and frame, restarting them when either changes. */
    #syncGuidance(): void {
      const { stream, frame } = this;
      const video = this.video;
      const wanted = !!stream && !!frame && !!video && !this.busy;
      const same =
        wanted &&
        this.#guidanceFor?.stream === stream &&
        this.#guidanceFor.width === frame.width &&
        this.#guidanceFor.height === frame.height;
      if (same) {
        this.#guidance?.setAutoCapture(this.autoCapture);
        return;
      }
      this.#stopGuidance();
      if (!wanted) return;
      this.#guidanceFor = { stream, width: frame.width, height: frame.height };
      this.#guidance = startGuidance(video, {
        role: this.role,
        guide: guideRect(this.role, frame.width, frame.height),
        frame,
        autoCapture: this.autoCapture,
        onUpdate: ({ hint, progress }) => {
          this.hint = hint;
          this.progress = progress;
        },
        onAutoCapture: () => {
          if (!this.busy) this.onShutter(true);
        },
      });
    }

    #stopGuidance(): void {
      this.#guidance?.stop();
      this.#guidance = null;
      this.#guidanceFor = null;
      this.hint = null;
      this.progress = 0;
    }

    #onCancel = (event: Event): void => {
      // Escape closes the camera through the flow, which also removes this view.
      event.preventDefault();
      this.onClose();
    };

    #renderCutout(): TemplateResult | typeof nothing {
      const frame = this.frame;
      if (!frame) return nothing;
      const g = guideRect(this.role, frame.width, frame.height);
      const pct = (value: number, of: number) => `${((value / of) * 100).toFixed(3)}%`;
      return html`<div
        class=${`cutout ${this.role === 'selfie' ? 'oval' : 'card'}${this.progress > 0 ? ' ready' : ''}`}
        part="guide"
        aria-hidden="true"
        ${cssProperty('left', pct(g.x, frame.width))}
        ${cssProperty('top', pct(g.y, frame.height))}
        ${cssProperty('width', pct(g.width, frame.width))}
        ${cssProperty('height', pct(g.height, frame.height))}
      ></div>`;
    }

    override render(): TemplateResult {
      const t = this.#texts;
      const frame = this.frame;
      const selfie = this.role === 'selfie';
      const hint = this.busy ? null : this.progress > 0 ? t.holdStill : this.hint ? t.hints[this.hint] : null;
      const ring = 2 * Math.PI * 36;
      return html`
        <dialog part="capture-view" aria-labelledby="title" aria-describedby="instruction" @cancel=${this.#onCancel}>
          <div class="bar top">
            <button type="button" class="icon" part="capture-back" aria-label=${t.back} @click=${() => this.onBack()}>${backIcon}</button>
            <h2 id="title">${this.heading}</h2>
            <button type="button" class="icon" part="capture-close" aria-label=${t.close} @click=${() => this.onClose()}>${closeIcon}</button>
          </div>
          <div class="frame">
            <div class="says">
              <p id="instruction" class="instruction" ?hidden=${!!hint}>${selfie ? t.instruction.selfie : t.instruction.document}</p>
              <p class="hint" part="capture-hint" ?hidden=${!hint}>${hint}</p>
            </div>
            <div class="view">
              <div class="stage" ${cssProperty('--frame-ratio', frame ? `${frame.width} / ${frame.height}` : '4 / 3')}>
                <video
                  part="video"
                  class=${this.mirrored ? 'mirrored' : ''}
                  aria-hidden="true"
                  autoplay
                  playsinline
                  muted
                  @loadedmetadata=${this.#frameChanged}
                  @resize=${this.#frameChanged}
                ></video>
                ${this.#renderCutout()}
              </div>
            </div>
          </div>
          <div class="bar bottom">
            <span class="side">
              ${
                this.canSwitch
                  ? html`<button type="button" class="icon" part="capture-switch" aria-label=${t.switchCamera} @click=${() => this.onSwitch()}>${switchIcon}</button>`
                  : nothing
              }
            </span>
            <button
              type="button"
              class="shutter"
              part="shutter"
              aria-label=${t.shutter}
              aria-disabled=${this.busy ? 'true' : 'false'}
              autofocus
              @click=${() => {
                if (!this.busy) this.onShutter(false);
              }}
            >
              <svg viewBox="0 0 80 80" aria-hidden="true" focusable="false">
                <circle class="track" cx="40" cy="40" r="36" />
                <circle class="fill" cx="40" cy="40" r="36" ${cssProperty('stroke-dasharray', `${(ring * this.progress).toFixed(1)} ${ring.toFixed(1)}`)} />
              </svg>
            </button>
            <span class="side"></span>
          </div>
          <p class="sr-only" role="status" aria-live="polite">${this.announcement}</p>
        </dialog>
      `;
    }
  }

  customElements.define(CAPTURE_VIEW_TAG, CaptureView);
}
