import { css, type CSSResult } from 'lit';

let sheet: CSSResult | undefined;

/**
 * The styles of the photo steps (photos, thumbnails, the upload's progress, the wait and the
 * outcome), which come with them: the element adopts them into its shadow root once they load
 * (onboarding-flow.styles.ts has the rest, with the custom properties these use). Built on
 * first call, as the script-tag file's `css` is the element's, handed in when it loads.
 */
export function photoStepsStyles(): CSSResult {
  return (sheet ??= css`
  .preview {
    display: block;
    max-width: 100%;
    max-height: 22rem;
    margin: var(--_space) 0;
    border-radius: var(--_radius);
    border: 1px solid var(--_border);
  }
  .preview.rejected {
    outline: 3px solid var(--_error);
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
  }
  `);
}
