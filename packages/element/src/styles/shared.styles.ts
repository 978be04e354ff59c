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
    button.primary,
    .file-button.primary {
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

/**
 * The action bar (steps/action-bar.ts) and the Back control of a step's header. The main action
 * fills the column, with the others as text links above it; on a phone-sized screen tall
 * enough for it (not while the on-screen keyboard takes half of it, nor at 200% zoom) the bar
 * stays at the bottom, clear of the home indicator, while the step scrolls behind it. While a
 * text field has the focus the bar stays in place, so that it never covers what is typed.
 * One rule a line: the first load carries it.
 */
export function actionBarStyles(css: typeof litCss): CSSResult {
  return css`
.actions{display:flex;flex-direction:column-reverse;align-items:center;gap:.5rem;margin-top:calc(var(--_space)*1.5)}
.actions>.primary{width:100%}
.link{border:0;background:none;text-decoration:underline}
.actions>.link{max-width:100%;padding:.5rem .75rem;overflow-wrap:break-word}
@media (max-width:600px) and (min-height:560px){.actions{position:sticky;bottom:0;padding:.75rem 0 max(.75rem,env(safe-area-inset-bottom));background:var(--_bg);border-top:1px solid var(--_border)}form:has(input[type=text]:focus)>.actions{position:static}}
.back{margin:0 0 .25rem;padding:0 .5rem 0 0;border:0;background:none}
`;
}
