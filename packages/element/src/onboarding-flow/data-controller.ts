/**
 * Who the consent names as the data controller (LGPD art. 5, VI) and where its privacy policy is:
 * the `controller-name` and `privacy-url` attributes (the hosted page sets them from its brand).
 * The consent never invents a name: without one it says none was given, and the integrator is
 * told once in the console, since an unnamed controller is a consent the person cannot weigh.
 * The warning comes with the consent's texts (a lazy file), keeping the first load small.
 */

let warned = false;

/** The text that says no controller was named; the first one warns the integrator. */
export function unnamedController(text: string): string {
  if (!warned) {
    warned = true;
    console.warn('[onboarding-flow] no controller-name: the consent names nobody (LGPD)');
  }
  return text;
}
