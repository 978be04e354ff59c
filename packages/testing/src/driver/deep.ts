/**
 * In-page helpers for engines without shadow-piercing selectors (WebKit over classic WebDriver):
 * serialised and run with `execute`, so each function is self-contained.
 */

/** Every element matching `css` under the open shadow root of `withinCss` (or the document), deeply. */
export function deepQueryAll(css: string, withinCss: string | null, visibleOnly: boolean): Element[] {
  const roots: (Document | ShadowRoot | Element)[] = [];
  if (withinCss) for (const host of document.querySelectorAll(withinCss)) roots.push(host.shadowRoot ?? host);
  else roots.push(document);
  const out: Element[] = [];
  const walk = (root: Document | ShadowRoot | Element) => {
    for (const el of root.querySelectorAll(css)) out.push(el);
    for (const el of root.querySelectorAll('*')) if (el.shadowRoot) walk(el.shadowRoot);
  };
  roots.forEach(walk);
  if (!visibleOnly) return out;
  return out.filter((el) => (el.checkVisibility ? el.checkVisibility() : el.getClientRects().length > 0));
}

/** CSS for the implicit roles tests look for (an explicit [role=x] always counts too). */
export const ROLE_CSS: Readonly<Record<string, string>> = {
  button: 'button, input[type=button], input[type=submit], input[type=reset], summary',
  link: 'a[href], area[href]',
  textbox: 'input:not([type]), input[type=text], input[type=email], input[type=tel], input[type=url], input[type=search], textarea',
  checkbox: 'input[type=checkbox]',
  radio: 'input[type=radio]',
  combobox: 'select:not([multiple])',
  heading: 'h1, h2, h3, h4, h5, h6',
  img: 'img[alt]:not([alt=""])',
  status: 'output',
};
