import { css } from 'lit';
import { actionBarStyles, buttonStyles, srOnlyStyles } from '../styles/shared.styles.js';

/**
 * One centred column (560 px at most by default), narrow enough on a desktop for the full-width
 * main action of each step (shared.styles.ts) to read as one.
 * Every colour and size comes from a prefixed custom property with an AA-contrast default, so
 * integrators theme the element without piercing its shadow root (or style the exposed parts).
 */
export const styles = css`
  :host {
    --_primary: var(--onboarding-color-primary, #0b57a4);
    --_on-primary: var(--onboarding-color-on-primary, #ffffff);
    --_text: var(--onboarding-color-text, #1b1f24);
    --_muted: var(--onboarding-color-muted, #4a5260);
    --_bg: var(--onboarding-color-bg, #ffffff);
    --_surface: var(--onboarding-color-surface, #f2f4f7);
    --_border: var(--onboarding-color-border, #6b7380);
    --_error: var(--onboarding-color-error, #b3261e);
    --_success: var(--onboarding-color-success, #1b6e35);
    --_radius: var(--onboarding-radius, 8px);
    --_focus: var(--onboarding-focus-ring, 3px solid #1a5fd0);
    --_space: var(--onboarding-spacing, 1rem);

    display: block;
    color: var(--_text);
    background: var(--_bg);
    font-family: var(--onboarding-font-family, system-ui, -apple-system, 'Segoe UI', Roboto, sans-serif);
    font-size: var(--onboarding-font-size, 1rem);
    line-height: 1.5;
    max-width: var(--onboarding-max-width, 560px);
    margin-inline: auto;
    box-sizing: border-box;
  }
  :host([hidden]) {
    display: none;
  }
  *,
  *::before,
  *::after {
    box-sizing: inherit;
  }

  .base {
    /* Less at the sides where the element is narrow, so long words of large text still fit. */
    padding: var(--_space) min(var(--_space), 4%);
    border-radius: var(--_radius);
  }
  .header {
    display: flex;
    align-items: center;
    justify-content: space-between;
    gap: var(--_space);
    margin-bottom: calc(var(--_space) / 2);
    color: var(--_muted);
    font-size: 0.875rem;
  }
  .header p {
    margin: 0;
  }
  h2 {
    font-size: 1.375rem;
    line-height: 1.3;
    overflow-wrap: break-word;
    margin: 0 0 var(--_space);
  }
  h3 {
    font-size: 1rem;
    margin: var(--_space) 0 0.25rem;
  }
  p {
    margin: 0 0 0.75rem;
  }
  .muted {
    color: var(--_muted);
  }

  :focus-visible,
  h2:focus {
    outline: var(--_focus);
    outline-offset: 2px;
  }
  h2:focus:not(:focus-visible) {
    outline: none;
  }

  ${buttonStyles(css)}
  button,
  .file-button {
    display: inline-flex;
    align-items: center;
    justify-content: center;
    gap: 0.5rem;
    text-align: center;
  }
  ${actionBarStyles(css)}

  label.field {
    display: block;
    font-weight: 600;
    margin-top: var(--_space);
  }
  input[type='text'] {
    display: block;
    width: 100%;
    max-width: 24rem;
    min-height: 44px;
    margin-top: 0.25rem;
    padding: 0.5rem 0.75rem;
    font: inherit;
    color: var(--_text);
    background: var(--_bg);
    border: 2px solid var(--_border);
    border-radius: var(--_radius);
  }
  input[aria-invalid='true'] {
    border-color: var(--_error);
  }
  /* Given by the service provider: looks fixed, yet stays as readable as any entered text. */
  input[readonly] {
    background: var(--_surface);
    border-style: dashed;
    cursor: default;
  }
  .hint {
    font-size: 0.875rem;
    color: var(--_muted);
    margin: 0.25rem 0 0;
  }
  .check {
    display: flex;
    gap: 0.75rem;
    align-items: flex-start;
    margin-top: var(--_space);
  }
  input[type='checkbox'],
  input[type='radio'] {
    width: 24px;
    height: 24px;
    margin: 0;
    flex: none;
    accent-color: var(--_primary);
  }
  fieldset {
    border: 0;
    padding: 0;
    margin: 0;
  }
  legend {
    font-weight: 600;
    margin-bottom: 0.5rem;
    padding: 0;
  }
  .option {
    display: flex;
    gap: 0.75rem;
    align-items: center;
    min-height: 44px;
    padding: 0.25rem 0.5rem;
    border-radius: var(--_radius);
  }
  .option:hover {
    background: var(--_surface);
  }

  .error {
    color: var(--_error);
    font-weight: 600;
    margin: 0.5rem 0 0;
  }

  .spinner {
    width: 2.5rem;
    height: 2.5rem;
    border-radius: 50%;
    border: 4px solid var(--_surface);
    border-top-color: var(--_primary);
    margin: var(--_space) 0;
  }
  @media (prefers-reduced-motion: no-preference) {
    .spinner {
      animation: spin 1s linear infinite;
    }
  }
  @keyframes spin {
    to {
      transform: rotate(360deg);
    }
  }

  /* Every ending (an outcome, a session that cannot be used): a large icon over a centred heading and text. */
  .ending-icon{display:block;width:4.5rem;height:4.5rem;margin:var(--_space) auto;fill:none;stroke:currentColor;stroke-width:1.5;stroke-linecap:round;color:var(--_primary)}
  [data-ending=approved] .ending-icon{color:var(--_success)}
  [data-ending]{text-align:center}

  ${srOnlyStyles(css)}
`;
