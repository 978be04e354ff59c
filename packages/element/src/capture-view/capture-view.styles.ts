import type { CSSResult, css as litCss } from 'lit';
import { srOnlyStyles } from '../styles/shared.styles.js';

/**
 * Full screen on phones (and any short or narrow window), a large modal elsewhere. The stage
 * keeps the camera frame's own aspect ratio inside whatever room is left between the bars
 * (container units), so the video is never cropped and the cutout's percentages are the frame's.
 * The element's theme properties still apply: the dialog inherits them from the host.
 */
export function captureViewStyles(css: typeof litCss): CSSResult {
  return css`
    :host {
      --_primary: var(--onboarding-color-primary, #0b57a4);
      --_focus: var(--onboarding-focus-ring, 3px solid #ffffff);
    }
    dialog {
      box-sizing: border-box;
      width: min(96vw, 60rem);
      height: min(92vh, 46rem);
      max-width: none;
      max-height: none;
      padding: 0;
      border: 0;
      border-radius: var(--onboarding-radius, 8px);
      background: #0d0f12;
      color: #ffffff;
      font-family: var(--onboarding-font-family, system-ui, -apple-system, 'Segoe UI', Roboto, sans-serif);
      font-size: var(--onboarding-font-size, 1rem);
      line-height: 1.4;
      overflow: hidden;
    }
    dialog[open] {
      display: flex;
      flex-direction: column;
      /* Its width in its own text size decides whether the title shares a row with the icons. */
      container-type: inline-size;
    }
    dialog::backdrop {
      background: rgb(0 0 0 / 0.7);
    }
    @media (max-width: 40rem), (max-height: 32rem) {
      dialog {
        width: 100vw;
        height: 100vh;
        height: 100dvh;
        margin: 0;
        border-radius: 0;
      }
    }

    .bar {
      flex: none;
      display: flex;
      align-items: center;
      justify-content: space-between;
      gap: 0.5rem;
      padding: 0.5rem;
    }
    .bar.bottom {
      padding: 0.75rem 1rem max(1rem, env(safe-area-inset-bottom));
    }
    h2 {
      flex: 1;
      margin: 0;
      font-size: 1.125rem;
      font-weight: 600;
      text-align: center;
      min-width: 0;
      overflow-wrap: break-word;
    }
    /* Large text on a narrow screen: the icons keep the top row, the title takes the next one whole. */
    @container (max-width: 18em) {
      .bar.top {
        flex-wrap: wrap;
      }
      h2 {
        order: 1;
        flex-basis: 100%;
      }
    }
    .side {
      flex: 1 1 0;
      display: flex;
    }
    button {
      font: inherit;
      color: inherit;
      cursor: pointer;
    }
    button:focus-visible {
      outline: var(--_focus);
      outline-offset: 3px;
    }
    .icon {
      display: grid;
      place-items: center;
      flex: none;
      width: 3rem;
      height: 3rem;
      padding: 0;
      border: 0;
      border-radius: 50%;
      background: rgb(255 255 255 / 0.14);
    }
    .icon svg {
      width: 1.75rem;
      height: 1.75rem;
      fill: none;
      stroke: currentColor;
      stroke-width: 2;
      stroke-linecap: round;
      stroke-linejoin: round;
    }
    .shutter {
      flex: none;
      width: 4.5rem;
      height: 4.5rem;
      padding: 0.375rem;
      border: 0;
      border-radius: 50%;
      background: #ffffff;
    }
    .shutter svg {
      display: block;
      width: 100%;
      height: 100%;
      transform: rotate(-90deg);
    }
    .shutter circle {
      fill: none;
      stroke-width: 6;
    }
    .shutter .track {
      stroke: #0d0f12;
    }
    /* No transition: the guidance's answers (about 15 a second) move it in small steps already,
       and a transition would repaint the ring on the main thread at every frame of the hold. */
    .shutter .fill {
      stroke: var(--_primary);
    }
    .shutter[aria-disabled='true'] {
      opacity: 0.6;
      cursor: progress;
    }

    /* The camera area: the text row, then the preview centred in what is left. */
    .frame {
      flex: 1;
      min-height: 0;
      display: flex;
      flex-direction: column;
    }
    .view {
      position: relative;
      flex: 1;
      min-height: 0;
      display: grid;
      place-items: center;
      container-type: size;
    }
    .stage {
      position: relative;
      overflow: hidden;
      aspect-ratio: var(--frame-ratio, 4 / 3);
      width: min(100cqw, 100cqh * (var(--frame-ratio, 4 / 3)));
      background: #000;
    }
    video {
      display: block;
      width: 100%;
      height: 100%;
      object-fit: fill;
    }
    /* Mirror only what the person sees; the saved frame is never mirrored. */
    video.mirrored {
      transform: scaleX(-1);
    }
    .cutout {
      position: absolute;
      box-sizing: border-box;
      border: 3px solid rgb(255 255 255 / 0.9);
      box-shadow: 0 0 0 100vmax rgb(0 0 0 / 0.6);
      pointer-events: none;
      transition: border-color 0.2s;
    }
    .cutout.card {
      border-radius: 4% / 6.3%;
    }
    .cutout.oval {
      border-radius: 50%;
    }
    .cutout.ready {
      border-color: #5ad17a;
    }
    /* The instruction, or the live hint in its place while there is one (never both: they often
       say nearly the same), in a row of its own above the camera area, never over the preview:
       at any text size the guide stays in sight. Both sit in one grid cell and the one not shown
       keeps its place (hidden from view and from assistive technology alike), so the preview does
       not move when a hint comes and goes while the person lines the document up. */
    .says {
      flex: none;
      display: grid;
      justify-items: center;
      padding: 0 0.75rem 0.5rem;
    }
    .says > p {
      grid-area: 1 / 1;
      max-width: 100%;
      margin: 0;
      padding: 0.375rem 0.75rem;
      border-radius: 1rem;
      text-align: center;
      overflow-wrap: break-word;
      background: rgb(255 255 255 / 0.12);
    }
    .says > p[hidden] {
      display: block;
      visibility: hidden;
    }
    .says > .hint {
      font-weight: 600;
      background: #ffffff;
      color: #0d0f12;
    }
    .says > .prompt {
      display: inline-flex;
      align-items: center;
      gap: 0.375rem;
    }
    .arrow {
      flex: none;
      fill: none;
      stroke: currentColor;
      stroke-width: 2.5;
      stroke-linecap: round;
      stroke-linejoin: round;
    }
    /* "Come closer": an outline that grows out of the oval, over and over. */
    .closer {
      position: absolute;
      box-sizing: border-box;
      border: 3px dashed #ffffff;
      border-radius: 50%;
      pointer-events: none;
      animation: closer 1.6s ease-out infinite;
    }
    @keyframes closer {
      from {
        transform: scale(1);
        opacity: 1;
      }
      to {
        transform: scale(1.25);
        opacity: 0;
      }
    }
    [hidden] {
      display: none;
    }
    ${srOnlyStyles(css)}
    @media (prefers-reduced-motion: reduce) {
      .cutout {
        transition: none;
      }
      /* No motion: the outline stands still, as large as the face should grow. */
      .closer {
        animation: none;
        transform: scale(1.25);
      }
    }
    @media (forced-colors: active) {
      .cutout {
        border-color: CanvasText;
      }
      .shutter {
        border: 3px solid ButtonText;
      }
    }
  `;
}
