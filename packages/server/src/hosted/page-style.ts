/**
 * The hosted pages' stylesheet, served as a file (the CSP allows no inline style): the page's
 * frame, then the brand as the element's custom properties and parts (`--onboarding-*`,
 * `::part(...)`), so the flow itself wears the integrator's colours. System fonts only: nothing
 * is fetched from anywhere else.
 */
import type { Brand } from './brand.js';

const BASE = `*, *::before, *::after { box-sizing: border-box; }
html { -webkit-text-size-adjust: 100%; text-size-adjust: 100%; }
body {
  margin: 0;
  min-height: 100vh;
  min-height: 100dvh;
  display: flex;
  flex-direction: column;
  background: var(--okit-page-bg);
  color: var(--okit-page-text);
  font: 1rem/1.5 system-ui, -apple-system, "Segoe UI", Roboto, "Helvetica Neue", Arial, sans-serif;
}
.okit-header {
  display: flex;
  align-items: center;
  gap: 0.75rem;
  padding: 0.75rem 1rem;
  background: var(--okit-surface);
  border-bottom: 1px solid var(--okit-line);
  min-height: 3.5rem;
}
.okit-header img { display: block; height: 2rem; width: auto; max-width: 10rem; object-fit: contain; }
.okit-header .okit-name { font-weight: 600; font-size: 1.0625rem; }
/* One centred column of 560 px at most (35rem and the side padding), as the flow's own. */
main { flex: 1; width: 100%; max-width: 37rem; margin: 0 auto; padding: 1.5rem 1rem 6rem; }
.okit-card {
  background: var(--okit-surface);
  border: 1px solid var(--okit-line);
  border-radius: var(--okit-radius);
  padding: 1.5rem;
}
.okit-card h1 { font-size: 1.375rem; line-height: 1.3; margin: 0 0 0.75rem; }
.okit-card h1:focus { outline: none; }
.okit-card p { margin: 0 0 1rem; }
.okit-card p:last-child { margin-bottom: 0; }
.okit-muted { color: var(--okit-muted); }
.okit-button, .okit-card button {
  display: inline-flex;
  align-items: center;
  justify-content: center;
  min-height: 44px;
  padding: 0.5rem 1.25rem;
  border: 0;
  border-radius: var(--okit-radius);
  background: var(--okit-primary);
  color: var(--okit-on-primary);
  font: inherit;
  font-weight: 600;
  text-decoration: none;
  cursor: pointer;
}
.okit-card button:disabled { opacity: 0.6; cursor: progress; }
.okit-link { color: var(--okit-primary); font-weight: 600; }
a:focus-visible, button:focus-visible, input:focus-visible { outline: 3px solid var(--okit-primary); outline-offset: 2px; }
/*
 * The flow's action layout: the main action (a button, or a lone link) fills the column at the
 * bottom, any other link above it; the markup puts the main action first, for the keyboard.
 */
.okit-actions { display: flex; flex-direction: column-reverse; gap: 0.5rem; align-items: center; margin-top: 1.25rem; }
.okit-card button, .okit-actions .okit-button, .okit-actions .okit-link:only-child { width: 100%; }
.okit-actions .okit-link:only-child { display: inline-flex; align-items: center; justify-content: center; min-height: 44px; padding: 0.5rem 1.25rem; border-radius: var(--okit-radius); background: var(--okit-primary); color: var(--okit-on-primary); text-decoration: none; }
.okit-actions .okit-link { min-height: 44px; padding: 0.625rem 0.75rem; text-align: center; }
label { display: block; font-weight: 600; margin-bottom: 0.25rem; }
.okit-code {
  display: block;
  width: 100%;
  max-width: 16rem;
  min-height: 48px;
  padding: 0.5rem 0.75rem;
  border: 2px solid var(--okit-border);
  border-radius: var(--okit-radius);
  background: #ffffff;
  color: #1b1f24;
  font: inherit;
  font-size: 1.5rem;
  letter-spacing: 0.15em;
  font-family: ui-monospace, SFMono-Regular, Menlo, Consolas, monospace;
  text-transform: uppercase;
}
.okit-code[aria-invalid="true"] { border-color: var(--okit-error); }
.okit-hint { font-size: 0.9375rem; color: var(--okit-muted); margin: 0.25rem 0 1rem; }
.okit-message { min-height: 1.5em; margin: 0.75rem 0 0; }
.okit-message.error { color: var(--okit-error); font-weight: 600; }
.okit-flow { background: var(--okit-surface); border: 1px solid var(--okit-line); border-radius: var(--okit-radius); padding: 0.5rem 0; }
.okit-banner {
  position: fixed;
  left: 0;
  right: 0;
  bottom: 0;
  z-index: 10;
  display: flex;
  flex-wrap: wrap;
  gap: 0.5rem 1rem;
  align-items: center;
  justify-content: center;
  padding: 0.875rem 1rem calc(0.875rem + env(safe-area-inset-bottom));
  background: var(--okit-primary);
  color: var(--okit-on-primary);
  font-weight: 600;
}
.okit-banner a { color: inherit; }
[hidden] { display: none !important; }
onboarding-flow { display: block; }
@media (max-width: 600px) {
  /* On a phone the page is the flow: white to the bottom, the brand in the header. */
  body { background: var(--okit-surface); }
  main { padding: 0 0 6rem; }
  .okit-flow { border: 0; border-radius: 0; }
  .okit-card { border: 0; border-radius: 0; }
}
/* Within a thumb's reach on a phone tall enough for it, clear of the home indicator. */
@media (max-width: 600px) and (min-height: 560px) {
  .okit-actions { position: sticky; bottom: 0; padding: 0.75rem 0 max(0.75rem, env(safe-area-inset-bottom)); background: var(--okit-surface); border-top: 1px solid var(--okit-line); }
}
@media (prefers-reduced-motion: reduce) {
  * { transition: none !important; animation: none !important; }
}
`;

const DEFAULTS = {
  primary: '#0b57a4',
  onPrimary: '#ffffff',
  background: '#f2f4f7',
  text: '#1b1f24',
  radius: 8,
};

/** The whole stylesheet for `brand`. */
export function pageStylesheet(brand: Brand): string {
  const primary = brand.color ?? DEFAULTS.primary;
  const onPrimary = brand.colorOnPrimary ?? DEFAULTS.onPrimary;
  const background = brand.background ?? DEFAULTS.background;
  const text = brand.textColor ?? DEFAULTS.text;
  const radius = `${brand.radius ?? DEFAULTS.radius}px`;
  const vars = `:root {
  --okit-primary: ${primary};
  --okit-on-primary: ${onPrimary};
  --okit-page-bg: ${background};
  --okit-page-text: ${text};
  --okit-surface: #ffffff;
  --okit-line: #d5dae1;
  --okit-border: #6b7380;
  --okit-muted: #4a5260;
  --okit-error: #b3261e;
  --okit-radius: ${radius};
}
/* The brand on the flow: its custom properties and parts. */
onboarding-flow {
  --onboarding-color-primary: ${primary};
  --onboarding-color-on-primary: ${onPrimary};
  --onboarding-color-text: ${brand.textColor ?? DEFAULTS.text};
  --onboarding-radius: ${radius};
  --onboarding-font-family: system-ui, -apple-system, "Segoe UI", Roboto, "Helvetica Neue", Arial, sans-serif;
  --onboarding-focus-ring: 3px solid ${primary};
}
onboarding-flow::part(button-primary) { font-weight: 600; }
onboarding-flow::part(stage-current) { color: ${primary}; }
onboarding-flow::part(progress) { accent-color: ${primary}; }
`;
  return vars + BASE;
}
