import type { CSSResult, css as litCss } from 'lit';

/**
 * Styles that the flow and its lazily loaded parts (the hand-off panel, the capture view) share.
 * Each takes the `css` tag of the element's own Lit: the lazy files carry no Lit of their own
 * and are handed it when they load. Colours and sizes come from the flow's custom properties
 * (`--_primary` and the rest), which its parts inherit.
 */

/** A button (or a label styled as one): 44 px at least, outlined in the theme's colour; `.primary` filled. */
export function buttonStyles(css: typeof litCss): CSSResult {
  return css`
    button,
    .file-button {
      font: inherit;
      min-height: 44px;
      min-width: 44px;
      padding: 0.5rem 1.25rem;
      border-radius: var(--_radius);
      border: 2px solid var(--_primary);
      background: var(--_bg);
      color: var(--_primary);
      cursor: pointer;
    }
    button.primary {
      background: var(--_primary);
      color: var(--_on-primary);
    }
    button:disabled {
      cursor: not-allowed;
      opacity: 0.7;
    }
  `;
}

/** Text for screen readers only: out of sight, still read. */
export function srOnlyStyles(css: typeof litCss): CSSResult {
  return css`
    .sr-only {
      position: absolute;
      width: 1px;
      height: 1px;
      padding: 0;
      margin: -1px;
      overflow: hidden;
      clip: rect(0 0 0 0);
      white-space: nowrap;
      border: 0;
    }
  `;
}
