/**
 * A capture step (document front, back, selfie): the camera with its framing guide, the
 * always-visible file fallback, the accepted preview, or the refused photo with its reason.
 * The file picker carries no `capture`, so phones open the gallery; where the page cannot open
 * the camera itself, a second picker with `capture` hands the photo to the camera app instead.
 */
import { html, nothing, type TemplateResult } from 'lit';
import type { CameraError, CameraState } from '../camera/camera-controller.js';
import type { CaptureRole, ImageCheckCode } from '../image/pipeline.js';
import type { Messages } from '../messages/index.js';
import { backButton } from './shared.js';

export interface CaptureView {
  m: Messages;
  role: CaptureRole;
  /** The accepted photo's object URL. */
  acceptedUrl: string | null;
  rejected: { code: ImageCheckCode; previewUrl: string | null } | null;
  camera: { state: CameraState; error: CameraError | null };
  checking: boolean;
  /** The page cannot open the camera itself (no getUserMedia, no camera, access denied). */
  cameraUnavailable: boolean;
  onBack: () => void;
  onOpenCamera: () => void;
  onCloseCamera: () => void;
  onTakePhoto: () => void;
  onFile: (e: Event) => void;
  onRetake: () => void;
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
        <p>${m.accepted}</p>
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
        ${v.rejected.previewUrl
          ? html`<img class="preview rejected" part="preview" src=${v.rejected.previewUrl} alt=${m.rejectedAlt(what)} />`
          : nothing}
        <p id="capture-error" class="error" part="error" role="alert">${v.m.imageErrors[v.rejected.code]}</p>
      </div>
      <div class="actions" part="actions">
        ${back}
        <button type="button" class="primary" part="button button-primary" @click=${v.onRetake}>${m.retake}</button>
      </div>
    `;
  }

  const { state, error } = v.camera;
  const live = state === 'live';
  const busy = v.checking || state === 'starting';
  const cameraError = state === 'error' ? error : null;
  return html`
    <div part="body">
      <p>${selfie ? m.guideSelfie : m.guideDocument}</p>
      ${live || state === 'starting'
        ? html`
            <div class="camera">
              <video part="video" class=${selfie ? 'mirrored' : ''} aria-label=${m.videoLabel} autoplay playsinline muted></video>
              <div class=${`guide ${selfie ? 'face' : 'document'}`} part="guide" aria-hidden="true"></div>
            </div>
          `
        : nothing}
      ${state === 'starting' ? html`<p role="status">${m.cameraStarting}</p>` : nothing}
      ${v.checking ? html`<p class="muted">${m.checking}</p>` : nothing}
      ${cameraError ? html`<p id="camera-error" class="error" part="error" role="alert">${v.m.cameraErrors[cameraError.code]}</p>` : nothing}
    </div>
    <div class="actions" part="actions">
      ${back}
      ${live
        ? html`
            <button type="button" part="button" @click=${v.onCloseCamera}>${m.closeCamera}</button>
            <button type="button" class="primary" part="button button-primary" aria-disabled=${v.checking ? 'true' : 'false'} @click=${v.onTakePhoto}>
              ${m.takePhoto}
            </button>
          `
        : html`
            <button
              type="button"
              class="primary"
              part="button button-primary"
              data-capture-start
              aria-disabled=${busy ? 'true' : 'false'}
              @click=${v.onOpenCamera}
            >
              ${cameraError ? m.tryCameraAgain : m.openCamera}
            </button>
          `}
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
      ${v.cameraUnavailable
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
        : nothing}
    </div>
  `;
}
