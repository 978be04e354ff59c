/**
 * Sets one inline style property through the CSSOM (`style.setProperty`), never through a
 * `style` attribute. Lit's `styleMap` writes the attribute on its first render, which a strict
 * Content-Security-Policy without `'unsafe-inline'` blocks (and reports); the CSSOM is allowed.
 */
import { nothing } from 'lit';
import { Directive, PartType, directive, type ElementPart, type PartInfo } from 'lit/directive.js';

class CssPropertyDirective extends Directive {
  constructor(partInfo: PartInfo) {
    super(partInfo);
    if (partInfo.type !== PartType.ELEMENT) throw new Error('cssProperty() belongs on an element, not in an attribute');
  }

  render(_name: string, _value: string): typeof nothing {
    return nothing;
  }

  override update(part: ElementPart, [name, value]: [string, string]): typeof nothing {
    (part.element as HTMLElement).style.setProperty(name, value);
    return nothing;
  }
}

/** `<div ${cssProperty('width', '40%')}>`: inline style without a style attribute. */
export const cssProperty = directive(CssPropertyDirective);
