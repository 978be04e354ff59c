/** What the script changes in the page the server wrote: which view shows, the banner, the device's flow. */

/** The element as the page binds it. */
interface FlowElement extends HTMLElement {
  session: string;
}

/** Shows one of the `[data-okit-view]` views, hides the others, and moves the focus to its heading. */
export function show(id: string): void {
  for (const el of document.querySelectorAll<HTMLElement>('[data-okit-view]')) el.hidden = el.id !== id;
  const shown = document.getElementById(id);
  const heading = shown && shown.querySelector<HTMLElement>('h1, h2');
  if (heading) heading.focus();
}

/** The flow from the page's template, bound to a device's secret (a property: never an attribute). */
export function mountFlow(secret: string): void {
  const template = document.getElementById('okit-flow') as HTMLTemplateElement | null;
  const slot = document.getElementById('okit-flow-slot');
  if (!template || !slot) return;
  const fragment = template.content.cloneNode(true) as DocumentFragment;
  const flow = fragment.querySelector<FlowElement>('onboarding-flow')!;
  flow.session = secret;
  slot.replaceChildren(fragment);
  slot.hidden = false;
}

/** The status line under the flow, with a link when there is somewhere to go. Texts come from `data-text-*`. */
export function banner(text: string | undefined, link?: { href: string; text: string | undefined }): void {
  const box = document.getElementById('okit-banner');
  if (!box) return;
  box.querySelector('[data-okit-text]')!.textContent = text ?? null;
  const a = box.querySelector('a')!;
  if (link) {
    a.href = link.href;
    a.textContent = link.text ?? null;
    a.hidden = false;
  } else {
    a.hidden = true;
  }
  box.hidden = false;
}

/** `document.prerendering` (speculation rules), not yet in TypeScript's DOM types. */
type PrerenderingDocument = Document & { prerendering?: boolean };

/** Runs fn once the page is really in front of someone (not prerendered, not in a hidden tab). */
export function whenShown(fn: () => void): void {
  const ready = () => !(document as PrerenderingDocument).prerendering && document.visibilityState === 'visible';
  if (ready()) return fn();
  const check = () => {
    if (!ready()) return;
    document.removeEventListener('visibilitychange', check);
    document.removeEventListener('prerenderingchange', check);
    fn();
  };
  document.addEventListener('visibilitychange', check);
  document.addEventListener('prerenderingchange', check);
}
