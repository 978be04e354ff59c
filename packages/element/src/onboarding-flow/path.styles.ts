import { css } from 'lit';

/**
 * The path through the flow: the list of steps in the header, the consent summary with its
 * disclosure, and the compact review grid. Added after the base styles, whose properties it uses.
 */
export const pathStyles = css`
  .header {
    flex-wrap: wrap;
  }
  .stages {
    flex-basis: 100%;
    list-style: none;
    margin: 0;
    padding: 0;
    display: grid;
    grid-template-columns: repeat(5, minmax(0, 1fr));
    gap: 0.25rem;
    margin: 0.25rem 0 0.5rem;
  }
  .stage {
    display: flex;
    flex-direction: column;
    gap: 0.25rem;
    min-width: 0;
  }
  .stage-bar {
    display: block;
    height: 0.25rem;
    border-radius: 999px;
    background: var(--_surface);
    box-shadow: inset 0 0 0 1px var(--_border);
  }
  .stage.done .stage-bar,
  .stage.current .stage-bar {
    background: var(--_primary);
    box-shadow: none;
  }
  .stage-name {
    font-size: 0.75rem;
    overflow-wrap: anywhere;
  }
  .stage.current .stage-name {
    color: var(--_text);
    font-weight: 600;
  }
  /* On a phone only the current step is named on screen; the others keep their names for screen readers. */
  @media (max-width: 32rem) {
    .stage:not(.current) .stage-name {
      position: absolute;
      width: 1px;
      height: 1px;
      overflow: hidden;
      clip: rect(0 0 0 0);
      white-space: nowrap;
    }
    .stage.current .stage-name {
      white-space: nowrap;
    }
  }
  .consent-summary {
    margin: 0 0 0.75rem;
    padding-left: 1.25rem;
  }
  .consent-summary li {
    margin-bottom: 0.25rem;
  }
  .consent-details {
    margin: 0 0 var(--_space);
  }
  /* A list item keeps the browser's open/closed marker, the sign that more is folded here. */
  .consent-details summary {
    display: list-item;
    cursor: pointer;
    color: var(--_primary);
    text-decoration: underline;
    min-height: 44px;
    padding: 0.625rem 0;
    width: fit-content;
  }
  .consent-details[open] {
    border-left: 3px solid var(--_surface);
    padding-left: 0.75rem;
  }
  .consent-details[open] summary {
    margin-left: -0.75rem;
  }
  .review-grid {
    list-style: none;
    padding: 0;
    margin: 0;
    display: grid;
    grid-template-columns: repeat(3, minmax(0, 1fr));
    gap: 0.75rem;
  }
  .review-grid[data-count='2'] {
    grid-template-columns: repeat(2, minmax(0, 1fr));
  }
  .review-grid li {
    display: flex;
    flex-direction: column;
    align-items: flex-start;
    gap: 0.25rem;
    min-width: 0;
  }
  .review-grid .thumbnail {
    max-height: 12rem;
  }
  .thumbnail.missing {
    display: block;
    background: var(--_surface);
  }
  .review-label {
    font-size: 0.875rem;
    font-weight: 600;
    overflow-wrap: anywhere;
  }
  /* Every retake link on one line, however the labels above them wrap. */
  .review-grid button.link {
    margin-top: auto;
  }
  button.link {
    border: none;
    background: none;
    padding: 0 0.25rem;
    margin-left: -0.25rem;
    min-height: 44px;
    text-decoration: underline;
  }
`;
