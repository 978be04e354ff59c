import { css, type CSSResult } from 'lit';

let sheet: CSSResult | undefined;

/**
 * The styles of the photo steps (the capture steps' drawings and tips, photos, thumbnails, the
 * upload's progress, the wait and the outcome), which come with them: the element adopts them
 * into its shadow root once they load (onboarding-flow.styles.ts has the rest, with the custom
 * properties these use). Built on first call, as the script-tag file's `css` is the element's,
 * handed in when it loads.
 */
export function photoStepsStyles(): CSSResult {
  return (sheet ??= css`
  .capture-intro {
    display: flex;
    flex-wrap: wrap;
    align-items: center;
    gap: 0.75rem var(--_space);
    margin-top: var(--_space);
  }
  .capture-picture {
    flex: 1 1 11rem;
    max-width: 15rem;
    margin-inline: auto;
    padding: 0.75rem;
    border-radius: var(--_radius);
    background: var(--_surface);
    color: var(--_primary);
    fill: none;
    stroke: currentColor;
    stroke-width: 2;
    stroke-linecap: round;
    stroke-linejoin: round;
  }
  .capture-picture .m {
    stroke-width: 1.5;
    opacity: 0.6;
  }
  .capture-picture .f {
    fill: currentColor;
    stroke: none;
  }
  .capture-picture .s {
    fill: var(--_surface);
  }
  .capture-picture .mrz {
    stroke-width: 3;
    stroke-linecap: butt;
    stroke-dasharray: 3 1.5;
    opacity: 0.6;
  }
  .capture-tips {
    flex: 1 1 14rem;
    margin: 0;
    padding-inline-start: 1.25rem;
  }
  .capture-tips li + li {
    margin-top: 0.25rem;
  }
  .preview {
    display: block;
    max-width: 100%;
    max-height: 22rem;
    margin: var(--_space) 0;
    border-radius: var(--_radius);
    border: 1px solid var(--_border);
  }
  /* Picking a file as a step's main action (no camera here): filled like the primary button. */
  .file-button.primary {
    background: var(--_primary);
    color: var(--_on-primary);
  }
  .preview.rejected {
    outline: 3px solid var(--_error);
    /* With text at 200% the reason above it and the retake below it stay on one screen. */
    max-height: 35vh;
  }
  .thumbs {
    list-style: none;
    padding: 0;
    margin: 0;
    display: grid;
    grid-template-columns: repeat(auto-fill, minmax(10rem, 1fr));
    gap: var(--_space);
  }
  .thumbs li {
    display: flex;
    flex-direction: column;
    gap: 0.5rem;
  }
  .thumbnail {
    width: 100%;
    aspect-ratio: 4 / 3;
    object-fit: cover;
    border-radius: var(--_radius);
    border: 1px solid var(--_border);
  }
  /* The selfie is saved in portrait: shown whole, never cut to the documents' landscape. */
  .thumbnail.portrait {
    aspect-ratio: 3 / 4;
    width: auto;
    max-width: 100%;
  }
  .kept {
    color: var(--_error);
    font-weight: 400;
  }
  /* What the reader noticed on a document photo: advice, set apart from the photo's own line. */
  .hints {
    margin-top: var(--_space);
    padding: 0.75rem var(--_space);
    border-inline-start: 4px solid var(--_primary);
    border-radius: var(--_radius);
    background: var(--_surface);
  }
  .hints p {
    margin: 0;
  }
  .hints p + p {
    margin-top: 0.5rem;
  }
  /* The CPF and name read from the document, each under its label. */
  .prefill {
    display: grid;
    grid-template-columns: max-content 1fr;
    align-items: baseline;
    gap: 0.25rem var(--_space);
    margin: var(--_space) 0 0;
  }
  .prefill dt {
    font-weight: 600;
  }
  .prefill dd {
    margin: 0;
    overflow-wrap: anywhere;
  }
  .proof-file {
    font-weight: 600;
    overflow-wrap: anywhere;
  }
  /* A PDF where a photo would be: the same frame, a page drawn in it. */
  .file-tile {
    box-sizing: border-box;
    display: flex;
    flex-direction: column;
    align-items: center;
    justify-content: center;
    gap: 0.25rem;
    background: var(--_surface);
    color: var(--_primary);
  }
  .file-tile-type {
    font-weight: 700;
    letter-spacing: 0.05em;
  }

  .progress {
    width: 100%;
    height: 1rem;
    background: var(--_surface);
    border: 1px solid var(--_border);
    border-radius: 999px;
    overflow: hidden;
    margin: var(--_space) 0 0.5rem;
  }
  .progress-bar {
    height: 100%;
    background: var(--_primary);
    transition: width 150ms linear;
  }

  [data-ending] .actions {
    justify-content: center;
  }
  .outcome {
    display: flex;
    flex-direction: column;
    align-items: center;
    gap: 0.75rem;
  }
  .outcome > * {
    margin: 0;
  }
  .support-code {
    display: inline-block;
    font-family: ui-monospace, 'SFMono-Regular', Menlo, Consolas, monospace;
    font-size: 1.25rem;
    letter-spacing: 0.08em;
    white-space: nowrap;
    background: var(--_surface);
    padding: 0.25rem 0.5rem;
    border-radius: 4px;
    user-select: all;
  }
  /* The way on of an outcome: the main one looks like the primary button, the others are links. */
  .link-button,
  .text-link {
    display: inline-flex;
    align-items: center;
    justify-content: center;
    min-height: 44px;
    color: var(--_primary);
  }
  .link-button {
    padding: 0.5rem 1.25rem;
    border-radius: var(--_radius);
    border: 2px solid var(--_primary);
    background: var(--_primary);
    color: var(--_on-primary);
    text-decoration: none;
  }
  .text-link {
    padding: 0 0.25rem;
    text-decoration: underline;
    text-underline-offset: 0.2em;
  }
  .offline {
    margin: 0;
    padding: 0.5rem 0.75rem;
    border-radius: var(--_radius);
    background: var(--_surface);
    border-left: 4px solid var(--_primary);
  }

  @media (prefers-reduced-motion: reduce) {
    .progress-bar {
      transition: none;
    }
  }
  @media (forced-colors: active) {
    .progress-bar {
      background: Highlight;
    }
    .capture-picture {
      color: CanvasText;
    }
    .capture-picture .s {
      fill: Canvas;
    }
  }
  /*
   * The review grid, compact, so that the send button is on a phone's first screen: widths in em,
   * so that large text drops it to two columns, then one; no word is split.
   */
  .thumbs{grid-template-columns:repeat(auto-fit,minmax(min(100%,5.5em),1fr));gap:.75rem}
  .thumbs li{align-items:flex-start;gap:.25rem;min-width:0;font-size:.875rem;font-weight:600;overflow-wrap:break-word}
  .thumbnail{max-height:12rem}
  .thumbs .link{padding:0 .25rem;margin:auto 0 0 -.25rem;font-weight:400}
  button[aria-disabled='true']{cursor:progress}
  .file-button:focus-within{outline:var(--_focus);outline-offset:2px}
  `);
}
