/**
 * A capture step (document front, back, selfie): the button that opens the camera in the
 * full-screen capture view (`<onboarding-capture-view>`, loaded on first use), the always-visible
 * file fallback, the accepted preview, or the refused photo with its reason (and, refused twice
 * in a row for what it shows, "use it anyway").
 * The file picker carries no `capture`, so phones open the gallery; where the page cannot open
 * the camera itself, a second picker with `capture` hands the photo to the camera app instead.
 */
import { html, nothing, type TemplateResult } from 'lit';
import type { CameraError, CameraState } from '../camera/camera-controller.js';
import type { CaptureViewProps } from '../capture-view/capture-view.js';
import type { CaptureRole, ImageCheckCode } from '../image/pipeline.js';
import type { Messages } from '../messages/index.js';
import { backButton } from './shared.js';

export interface CaptureView {
  m: Messages;
  role: CaptureRole;
  /** The accepted photo's object URL. */
  acceptedUrl: string | null;
  /** That photo was kept anyway, refused by the checks: nothing may call it accepted. */
  keptAnyway: boolean;
  rejected: { code: ImageCheckCode; previewUrl: string | null; canKeep: boolean } | null;
  /** Why the camera cannot be used (the texts come with the capture view). */
  cameraErrorText: (code: CameraError['code']) => string | null;
  /** Why a photo was refused (the texts come with the pipeline). */
  errorText: (code: ImageCheckCode) => string;
  camera: { state: CameraState; error: CameraError | null };
  /** The capture view's settings once it is loaded (null: not loaded yet). */
  view: Omit<CaptureViewProps, 'role' | 'busy' | 'onClose' | 'onBack'> | null;
  /** A frame is being taken. */
  taking: boolean;
  checking: boolean;
  /** The page cannot open the camera itself (no getUserMedia, no camera, access denied). */
  cameraUnavailable: boolean;
  /**
   * "Continue on your phone" (the `handoff` attribute, on the page that opened the session), or
   * null; `first`: no camera was found here, so it leads, as the step's main action.
   */
  handoff: { first: boolean; onOpen: () => void } | null;
  onBack: () => void;
  onOpenCamera: () => void;
  onCloseCamera: () => void;
  onFile: (e: Event) => void;
  onRetake: () => void;
  onKeep: () => void;
  onUse: () => void;
}

export function captureStep(v: CaptureView): TemplateResult {
  const m = v.m.capture;
  const selfie = v.role === 'selfie';
  const what = v.m.review.roles[v.role];
  const back = backButton(v.m.flow.back, v.onBack);

  if (v.acceptedUrl) {
    return html`
      <div part="body">
        <img class="preview" part="preview" src=${v.acceptedUrl} alt=${m.previewAlt(what)} />
        <p>${v.keptAnyway ? m.kept : m.accepted}</p>
      </div>
      <div class="actions" part="actions">
        ${back}
        <button type="button" part="button" @click=${v.onRetake}>${m.retake}</button>
        <button type="button" class="primary" part="button button-primary" @click=${v.onUse}>${m.usePhoto}</button>
      </div>
    `;
  }

  if (v.rejected) {
    return html`
      <div part="body">
        ${
          v.rejected.previewUrl
            ? html`<img class="preview rejected" part="preview" src=${v.rejected.previewUrl} alt=${m.rejectedAlt(what)} />`
            : nothing
        }
        <p id="capture-error" class="error" part="error" role="alert">${v.errorText(v.rejected.code)}</p>
        ${v.rejected.canKeep ? html`<p>${m.keepAnywayHint}</p>` : nothing}
      </div>
      <div class="actions" part="actions">
        ${back}
        ${v.rejected.canKeep ? html`<button type="button" part="button keep-anyway" ?disabled=${v.checking} @click=${v.onKeep}>${m.keepAnyway}</button>` : nothing}
        <button type="button" class="primary" part="button button-primary" @click=${v.onRetake}>${m.retake}</button>
      </div>
    `;
  }

  const { state, error } = v.camera;
  const open = state === 'live' || state === 'starting';
  const busy = v.checking || open;
  const cameraError = state === 'error' ? error : null;
  const handoff = v.handoff;
  const lead = !!handoff?.first;
  const phone = handoff
    ? html`<button
        type="button"
        class=${lead ? 'primary' : ''}
        part=${lead ? 'button button-primary handoff-start' : 'button handoff-start'}
        @click=${handoff.onOpen}
      >
        ${m.handoff}
      </button>`
    : nothing;
  return html`
    <div part="body">
      <p>${selfie ? m.guideSelfie : m.guideDocument}</p>
      ${
        open && v.view
          ? html`<onboarding-capture-view
            exportparts="capture-view, video, guide, shutter, capture-back, capture-close, capture-switch, capture-hint"
            .role=${v.role}
            .stream=${v.view.stream}
            .heading=${v.view.heading}
            .locale=${v.view.locale}
            .mirrored=${v.view.mirrored}
            .canSwitch=${v.view.canSwitch}
            .autoCapture=${v.view.autoCapture}
            .busy=${v.taking || state !== 'live'}
            .onShutter=${v.view.onShutter}
            .onSwitch=${v.view.onSwitch}
            .onClose=${v.onCloseCamera}
            .onBack=${v.onBack}
          ></onboarding-capture-view>`
          : nothing
      }
      ${state === 'starting' ? html`<p role="status">${m.cameraStarting}</p>` : nothing}
      ${v.checking ? html`<p class="muted">${m.checking}</p>` : nothing}
      ${
        cameraError && v.cameraErrorText(cameraError.code) !== null
          ? html`<p id="camera-error" class="error" part="error" role="alert">${v.cameraErrorText(cameraError.code)}</p>`
          : nothing
      }
    </div>
    <div class="actions" part="actions">
      ${lead ? phone : nothing} ${back}
      <button
        type="button"
        class=${lead ? '' : 'primary'}
        part=${lead ? 'button' : 'button button-primary'}
        data-capture-start
        aria-disabled=${busy ? 'true' : 'false'}
        @click=${v.onOpenCamera}
      >
        ${cameraError ? m.tryCameraAgain : m.openCamera}
      </button>
      <label class="file-button" part="button">
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
        v.cameraUnavailable
          ? html`
            <label class="file-button" part="button camera-app">
              <input
                class="sr-only"
                type="file"
                accept="image/*"
                capture=${selfie ? 'user' : 'environment'}
                data-camera-app
                ?disabled=${v.checking}
                @change=${v.onFile}
              />
              ${m.cameraApp}
            </label>
          `
          : nothing
      }
      ${lead ? nothing : phone}
    </div>
  `;
}
