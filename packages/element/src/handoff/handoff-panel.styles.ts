import type { css as litCss } from 'lit';
import { actionBarStyles, buttonStyles, srOnlyStyles } from '../styles/shared.styles.js';

/**
 * The hand-off panel's styles. Colours, radius, spacing and focus come from the flow's own custom
 * properties (`--_primary` and the rest, set on `<onboarding-flow>` and inherited), so the panel
 * follows the integrator's theme; the QR code alone is always black on white, as scanners need.
 */
export const handoffPanelStyles = (css: typeof litCss) => css`
  :host {
    display: block;
  }
  *,
  *::before,
  *::after {
    box-sizing: border-box;
  }
  p {
    margin: 0 0 0.75rem;
  }
  .offer {
    display: grid;
    gap: var(--_space);
    align-items: start;
  }
  @media (min-width: 34rem) {
    .offer {
      grid-template-columns: auto 1fr;
    }
  }
  .qr {
    display: block;
    width: 15rem;
    max-width: 100%;
    height: auto;
    aspect-ratio: 1;
    border: 1px solid var(--_border);
    border-radius: var(--_radius);
    background: #ffffff;
  }
  .qr.lapsed {
    display: grid;
    place-items: center;
    padding: var(--_space);
    background: var(--_surface);
    color: var(--_muted);
    text-align: center;
  }
  .url {
    font-weight: 600;
    overflow-wrap: anywhere;
  }
  .code-row {
    margin-bottom: 0.75rem;
    display: flex;
    flex-wrap: wrap;
    align-items: center;
    gap: 0.75rem;
  }
  .code {
    font-family: ui-monospace, 'SFMono-Regular', Menlo, Consolas, 'Liberation Mono', monospace;
    font-size: 2rem;
    font-weight: 700;
    letter-spacing: 0.12em;
    line-height: 1.2;
    padding: 0.25rem 0.75rem;
    border-radius: var(--_radius);
    background: var(--_surface);
    white-space: nowrap;
  }
  .muted {
    color: var(--_muted);
  }
  .status {
    list-style: none;
    margin: var(--_space) 0 0;
    padding: 0.75rem var(--_space);
    border-radius: var(--_radius);
    background: var(--_surface);
  }
  .status li {
    display: flex;
    gap: 0.5rem;
    align-items: baseline;
    padding: 0.125rem 0;
  }
  .mark {
    flex: none;
    width: 1.25rem;
    text-align: center;
    font-weight: 700;
  }
  .done .mark {
    color: var(--_success);
  }
  .dot::before {
    content: '';
    display: inline-block;
    width: 0.625rem;
    height: 0.625rem;
    border-radius: 50%;
    background: var(--_primary);
    animation: pulse 1.2s ease-in-out infinite;
  }
  @keyframes pulse {
    50% {
      opacity: 0.25;
    }
  }
  @media (prefers-reduced-motion: reduce) {
    .dot::before {
      animation: none;
    }
  }
  .error {
    color: var(--_error);
    font-weight: 600;
  }
  .offline {
    padding: 0.5rem 0.75rem;
    border-left: 4px solid var(--_error);
    background: var(--_surface);
  }
  ${buttonStyles(css)}
  ${actionBarStyles(css)}
  :focus-visible {
    outline: var(--_focus);
    outline-offset: 2px;
  }
  ${srOnlyStyles(css)}
`;
