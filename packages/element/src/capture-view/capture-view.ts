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
import type { LivenessPrompt } from '@onboarding-kit/contract';
import type { LitElement, PropertyValues, TemplateResult, css as litCss, html as litHtml, nothing as litNothing, svg as litSvg } from 'lit';
import type { cssProperty as cssPropertyDirective } from '../directives/css-property.js';
import type { CaptureRole } from '../image/pipeline.js';
import { captureViewStyles } from './capture-view.styles.js';
import { captureViewRenderer, type CaptureViewState } from './capture-view-template.js';
import { LiveGuidance } from './live-guidance.js';
import { captureViewTexts, type CaptureViewTexts, type ViewHint } from './texts.js';

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
  /** The selfie's liveness prompt to show and announce now, if any. */
  prompt: LivenessPrompt | null;
  /**
   * Shown as a modal; closed, the view waits in the page (reflected as the `open` attribute).
   * The flow renders it closed while the person reads a capture step, so that opening the camera
   * only shows what was already drawn and laid out once.
   */
  open: boolean;
  onShutter: (auto: boolean) => void;
  /** The live checks see a document's card held still: its frame can be read (document-reading.ts). */
  onSteadyCard: (video: HTMLVideoElement) => void;
  /** The preview's video while it shows a live frame (null once it stops): what the selfie's challenge reads. */
  onLiveVideo: (video: HTMLVideoElement | null) => void;
  onClose: () => void;
  onBack: () => void;
  onSwitch: () => void;
}

export type CaptureViewElement = HTMLElement & CaptureViewProps & { readonly video: HTMLVideoElement | null };

const CAPTURE_VIEW_PROPERTIES = {
  stream: { attribute: false },
  role: { attribute: false },
  heading: { attribute: false },
  locale: { attribute: false },
  mirrored: { attribute: false },
  canSwitch: { attribute: false },
  autoCapture: { attribute: false },
  busy: { attribute: false },
  prompt: { attribute: false },
  open: { type: Boolean, reflect: true },
  frame: { state: true },
  hint: { state: true },
  progress: { state: true },
  announcement: { state: true },
};

/** Set through Lit's reactive accessors in the constructor (see the `declare`s below). */
const CAPTURE_VIEW_DEFAULTS: Omit<CaptureViewState, 'onShutter' | 'onSteadyCard' | 'onLiveVideo' | 'onClose' | 'onBack' | 'onSwitch'> = {
  stream: null,
  role: 'documentFront',
  heading: '',
  locale: 'pt-BR',
  mirrored: false,
  canSwitch: false,
  autoCapture: true,
  busy: false,
  prompt: null,
  open: true,
  frame: null,
  hint: null,
  progress: 0,
  announcement: '',
};

/** Defines `<onboarding-capture-view>` once, with the element's Lit. */
export function defineCaptureView(kit: LitKit): void {
  if (customElements.get(CAPTURE_VIEW_TAG)) return;
  const render = captureViewRenderer(kit);

  class CaptureView extends kit.LitElement implements CaptureViewProps {
    static override styles = captureViewStyles(kit.css);
    static override properties = CAPTURE_VIEW_PROPERTIES;

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
    declare prompt: LivenessPrompt | null;
    declare open: boolean;
    onShutter: (auto: boolean) => void = () => undefined;
    onSteadyCard: (video: HTMLVideoElement) => void = () => undefined;
    onLiveVideo: (video: HTMLVideoElement | null) => void = () => undefined;
    onClose: () => void = () => undefined;
    onBack: () => void = () => undefined;
    onSwitch: () => void = () => undefined;

    /** The camera frame's size once known (it can change: rotation, another camera). */
    declare frame: { width: number; height: number } | null;
    declare hint: ViewHint | null;
    /** 0..1 while an automatic photo is coming. */
    declare progress: number;
    declare announcement: string;
    readonly #guidance = new LiveGuidance(this);

    constructor() {
      super();
      Object.assign(this, CAPTURE_VIEW_DEFAULTS);
    }

    get video(): HTMLVideoElement | null {
      return this.renderRoot.querySelector('video');
    }

    override disconnectedCallback(): void {
      super.disconnectedCallback();
      this.#guidance.stop();
      showStream(this.video, null);
    }

    protected override firstUpdated(): void {
      if (!this.open) rehearseLayout(this.renderRoot.querySelector('dialog')!);
    }

    protected override updated(changed: PropertyValues): void {
      // In a task of its own, apart from the render that asked for it (see toggleModal).
      if (changed.has('open')) {
        if (changed.get('open') === undefined) showOrHide(this);
        else setTimeout(() => showOrHide(this));
      }
      if (showStream(this.video, this.stream)) this.#frameChanged();
      if (changed.has('autoCapture') || changed.has('role') || changed.has('busy')) this.#guidance.sync();
      // Each prompt is spoken once, as it appears.
      if (changed.has('prompt') && this.prompt) this.announcement = textsFor(this.locale).prompts[this.prompt];
    }

    #frameChanged = (): void => {
      const frame = frameSize(this.video);
      if (frame?.width !== this.frame?.width || frame?.height !== this.frame?.height) this.frame = frame;
      this.#guidance.sync();
    };

    override render(): TemplateResult {
      return render(this, { texts: textsFor(this.locale), onFrame: this.#frameChanged });
    }
  }

  customElements.define(CAPTURE_VIEW_TAG, CaptureView);
}

/** Opens or closes the view's modal as `open` says, and says so in its live region. */
function showOrHide(view: CaptureViewProps & { renderRoot: ParentNode; announcement: string }): void {
  const done = toggleModal(view.renderRoot.querySelector('dialog'), view.open);
  if (done) view.announcement = done === 'opened' ? textsFor(view.locale).opened(view.autoCapture) : '';
}

/**
 * Shows the view as a modal (the page behind inert, focus inside, Escape as `cancel`: a dialog
 * outside the top layer would leave the page focusable) or closes it, as `open` says; what
 * changed, if anything. Either restyles the whole page, which turns inert or back, so either
 * waits for a task of its own; whoever moves focus into the page after a closing waits a task too.
 */
function toggleModal(dialog: HTMLDialogElement | null, open: boolean): 'opened' | 'closed' | null {
  if (!dialog?.isConnected) return null;
  if (open && !dialog.open) {
    dialog.showModal();
    return 'opened';
  }
  if (!open && dialog.open) {
    dialog.close();
    return 'closed';
  }
  return null;
}

/**
 * Lays the closed view out once, unseen and unreachable, in a task of its own: the first layout
 * of the dialog, its video and its type is what makes a cold opening block the page, and a
 * person reading the step does not feel it.
 */
function rehearseLayout(dialog: HTMLDialogElement): void {
  setTimeout(() => {
    if (dialog.open || !dialog.isConnected) return;
    // The attribute, not show(): nothing may take focus or fire `close` for a rehearsal.
    dialog.style.setProperty('visibility', 'hidden');
    dialog.setAttribute('open', '');
    dialog.getBoundingClientRect();
    dialog.removeAttribute('open');
    dialog.style.removeProperty('visibility');
  });
}

/** Shows `stream` in the preview (none: lets the camera go); whether that changed anything. */
function showStream(video: HTMLVideoElement | null, stream: MediaStream | null): boolean {
  if (!video || video.srcObject === stream) return false;
  video.srcObject = stream;
  if (stream) video.play().catch(() => undefined);
  return true;
}

/** The camera frame's size, once the preview knows it. */
function frameSize(video: HTMLVideoElement | null): { width: number; height: number } | null {
  return video && video.videoWidth > 0 ? { width: video.videoWidth, height: video.videoHeight } : null;
}

function textsFor(locale: CaptureViewProps['locale']): CaptureViewTexts {
  return captureViewTexts[locale] ?? captureViewTexts['pt-BR'];
}
