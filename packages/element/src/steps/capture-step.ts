/**
 * A capture step (document front, back, selfie): a drawing of what to photograph with three
 * tips (capture-intro.ts), the button that opens the camera in the full-screen capture view (`<onboarding-capture-view>`, loaded and drawn closed while the step is read), the always-visible
 * file fallback, the accepted preview, or the refused photo with its reason (and, refused twice
 * in a row for what it shows, "use it anyway").
 * The file picker carries no `capture`, so phones open the gallery; where the page cannot open
 * the camera itself, picking a file becomes the main action and, on phones only, a second picker
 * with `capture` hands the photo to the camera app instead.
 */
import { html, nothing, type TemplateResult } from 'lit';
import type { CameraError, CameraState } from '../camera/camera-controller.js';
import type { CaptureViewProps } from '../capture-view/capture-view.js';
import type { HintsPanel } from '../document-hints/hints-view.js';
import type { CaptureRole, ImageCheckCode } from '../image/pipeline.js';
import type { Messages, OnboardingLocale } from '../messages/index.js';
import { captureIntro } from './capture-intro.js';
import { actionBar, linkButton, primaryButton } from './shared.js';

export interface CaptureView {
  m: Messages;
  role: CaptureRole;
  /** The chosen document type (which drawing shows before the camera opens) and the tips' language. */
  documentType: string | null;
  locale: OnboardingLocale;
  /** The accepted photo's object URL. */
  acceptedUrl: string | null;
  /** That photo was kept anyway, refused by the checks: nothing may call it accepted. */
  keptAnyway: boolean;
  rejected: { code: ImageCheckCode; previewUrl: string | null; canKeep: boolean; stuck: boolean } | null;
  /** Why the camera cannot be used (the texts come with the capture view). */
  cameraErrorText: (code: CameraError['code']) => string | null;
  /** Why a photo was refused (the texts come with the pipeline). */
  errorText: (code: ImageCheckCode) => string;
  /** What is said of the accepted photo (a selfie's line comes with the pipeline). */
  acceptedText: string;
  /** What the reader noticed on the accepted document photo, or null. */
  hints: HintsPanel | null;
  /** What else to try when a selfie cannot be kept (comes with the pipeline). */
  faceTips: string;
  camera: { state: CameraState; error: CameraError | null };
  /** The capture view's settings once it is loaded (null: not loaded yet). */
  view: Omit<CaptureViewProps, 'role' | 'busy' | 'onClose' | 'onBack'> | null;
  /** A frame is being taken. */
  taking: boolean;
  checking: boolean;
  /** The page cannot open the camera itself (no getUserMedia, no camera, access denied): picking a file leads. */
  cameraUnavailable: boolean;
  /** Opening the camera (again) can help: false once no camera was found, or the page has no camera access at all. */
  cameraOffered: boolean;
  /** A phone or tablet: its camera app can take the photo for a file input (never offered on a desktop). */
  cameraApp: boolean;
  /**
   * "Continue on your phone" (the `handoff` attribute, on the page that opened the session), or
   * null; `first`: no camera was found here, so it leads, as the step's main action.
   */
  handoff: { first: boolean; onOpen: () => void } | null;
  /** Null on the step the flow resumed at on a phone (a hand-off): nothing before it to go back to. */
  onBack: (() => void) | null;
  onOpenCamera: () => void;
  onCloseCamera: () => void;
  onFile: (e: Event) => void;
  onRetake: () => void;
  onKeep: () => void;
  onUse: () => void;
}

export function captureStep(v: CaptureView): TemplateResult {
  // One view for every capture step, beside what the step shows: it stays drawn between them.
  return html`${v.acceptedUrl ? acceptedPhoto(v, v.acceptedUrl) : v.rejected ? rejectedPhoto(v, v.rejected) : photoSources(v)}${
    v.view ? liveView(v, v.view) : nothing
  }`;
}

/** The accepted photo, to use or take again. */
function acceptedPhoto(v: CaptureView, url: string): TemplateResult {
  const m = v.m.capture;
  if (v.hints) return hintedPhoto(v, url, v.hints);
  return html`
    <div part="body">
      <img class="preview" part="preview" src=${url} alt=${m.previewAlt(v.m.review.roles[v.role])} />
      <p>${v.keptAnyway ? m.kept : v.acceptedText}</p>
    </div>
    ${actionBar({ primary: primaryButton(m.usePhoto, v.onUse), secondary: [linkButton(m.retake, v.onRetake)] })}
  `;
}

/** The accepted photo with what the reader noticed: what to do about it first, continuing anyway always offered. */
function hintedPhoto(v: CaptureView, url: string, hints: HintsPanel): TemplateResult {
  const [first, ...others] = hints.actions;
  return html`
    <div part="body">
      <img class="preview" part="preview" src=${url} alt=${v.m.capture.previewAlt(v.m.review.roles[v.role])} />
      <div class="hints" part="document-hints">
        ${hints.lines.map((line) => html`<p>${line}</p>`)}
        <p>${hints.goOn}</p>
      </div>
    </div>
    ${actionBar({
      primary: primaryButton(first!.label, first!.run),
      secondary: [...others.map((a) => linkButton(a.label, a.run)), linkButton(hints.continueAnyway, v.onUse)],
    })}
  `;
}

/**
 * The refused photo's reason and actions, then the photo: at any text size the reason and the retake are on one screen. To take again (or, refused twice, to keep anyway; a selfie
 * refused twice for its face cannot be kept: tips and the file picker instead).
 */
function rejectedPhoto(v: CaptureView, rejected: NonNullable<CaptureView['rejected']>): TemplateResult {
  const m = v.m.capture;
  return html`
    <div part="body">
      <p id="capture-error" class="error" part="error" role="alert">${v.errorText(rejected.code)}</p>
      ${rejected.canKeep ? html`<p>${m.keepAnywayHint}</p>` : nothing}
      ${rejected.stuck ? html`<p part="face-tips">${v.faceTips}</p>` : nothing}
    </div>
    ${actionBar({
      primary: primaryButton(m.retake, v.onRetake),
      secondary: [
        rejected.canKeep
          ? html`<button type="button" class="link" part="button button-link keep-anyway" ?disabled=${v.checking} @click=${v.onKeep}>${m.keepAnyway}</button>`
          : nothing,
        rejected.stuck ? filePickers(v) : nothing,
      ],
    })}
    ${
      rejected.previewUrl
        ? html`<img class="preview rejected" part="preview" src=${rejected.previewUrl} alt=${m.rejectedAlt(v.m.review.roles[v.role])} />`
        : nothing
    }
  `;
}

/** No photo yet: the camera, the file pickers and the phone handoff. */
function photoSources(v: CaptureView): TemplateResult {
  const m = v.m.capture;
  const { state, error } = v.camera;
  const busy = v.checking || state === 'live' || state === 'starting';
  const cameraError = state === 'error' ? error : null;
  const lead = !!v.handoff?.first;
  const phone = handoffButton(v, lead);
  // Where the camera cannot be used, the files lead (unless the phone does); the camera stays only where asking again can help.
  const filesFirst = (v.cameraUnavailable || !v.cameraOffered) && !lead;
  const cameraLeads = !filesFirst && !lead;
  const camera = v.cameraOffered
    ? html`<button
        type="button"
        class=${cameraLeads ? 'primary' : 'link'}
        part=${cameraLeads ? 'button button-primary' : 'button button-link'}
        data-capture-start
        aria-disabled=${busy ? 'true' : 'false'}
        @click=${v.onOpenCamera}
      >
        ${cameraError ? m.tryCameraAgain : m.openCamera}
      </button>`
    : nothing;
  return html`
    <div part="body">
      <p>${v.role === 'selfie' ? m.guideSelfie : m.guideDocument}</p>
      ${state === 'starting' ? html`<p role="status">${m.cameraStarting}</p>` : nothing}
      ${v.checking ? html`<p class="muted">${m.checking}</p>` : nothing}
      ${
        cameraError && v.cameraErrorText(cameraError.code) !== null
          ? html`<p id="camera-error" class="error" part="error" role="alert">${v.cameraErrorText(cameraError.code)}</p>`
          : nothing
      }
      ${captureIntro(v.role, v.documentType, v.locale)}
    </div>
    ${actionBar({
      primary: lead ? phone : filesFirst ? filePickers(v, true) : camera,
      secondary: [lead || filesFirst ? camera : nothing, filesFirst ? nothing : filePickers(v), lead ? nothing : phone],
    })}
  `;
}

/** "Continue on your phone": the main action where no camera was found here. */
function handoffButton(v: CaptureView, lead: boolean): TemplateResult | typeof nothing {
  const handoff = v.handoff;
  if (!handoff) return nothing;
  return html`<button
    type="button"
    class=${lead ? 'primary' : 'link'}
    part=${lead ? 'button button-primary handoff-start' : 'button button-link handoff-start'}
    @click=${handoff.onOpen}
  >
    ${v.m.capture.handoff}
  </button>`;
}

/** The full-screen capture view over the open camera, closed until then. */
function liveView(v: CaptureView, view: NonNullable<CaptureView['view']>): TemplateResult {
  return html`<onboarding-capture-view
    exportparts="capture-view, video, guide, shutter, capture-back, capture-close, capture-switch, capture-hint, liveness-prompt"
    .role=${v.role}
    .stream=${view.stream}
    .heading=${view.heading}
    .locale=${view.locale}
    .mirrored=${view.mirrored}
    .canSwitch=${view.canSwitch}
    .autoCapture=${view.autoCapture}
    .busy=${v.taking || v.camera.state !== 'live'}
    .open=${view.open}
    .onShutter=${view.onShutter}
    .onSteadyCard=${view.onSteadyCard}
    .prompt=${view.prompt}
    .onLiveVideo=${view.onLiveVideo}
    .onSwitch=${view.onSwitch}
    .onClose=${v.onCloseCamera}
    .onBack=${v.onBack ?? v.onCloseCamera}
  ></onboarding-capture-view>`;
}

/** The always-visible file picker (`primary`: the step's main action), and the camera app's on a phone that cannot open the camera in the page. */
function filePickers(v: CaptureView, primary = false): TemplateResult {
  const m = v.m.capture;
  return html`
    <label class=${primary ? 'file-button primary' : 'file-button link'} part=${primary ? 'button button-primary' : 'button button-link'}>
      <input
        class="sr-only"
        type="file"
        accept="image/jpeg,image/png,image/webp"
        aria-describedby="file-hint"
        ?disabled=${v.checking}
        @change=${v.onFile}
      />
      ${m.chooseFile}
    </label>
    <span id="file-hint" class="sr-only">${m.fileHint}</span>
    ${
      v.cameraUnavailable && v.cameraApp
        ? html`
          <label class="file-button link" part="button button-link camera-app">
            <input
              class="sr-only"
              type="file"
              accept="image/*"
              capture=${v.role === 'selfie' ? 'user' : 'environment'}
              data-camera-app
              ?disabled=${v.checking}
              @change=${v.onFile}
            />
            ${m.cameraApp}
          </label>
        `
        : nothing
    }
  `;
}
