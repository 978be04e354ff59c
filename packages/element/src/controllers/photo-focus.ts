/**
 * Where focus and the page's scroll go once a photo has been checked. The file picker that had
 * focus is disabled while its photo is checked, so focus falls to the page: keyboard users carry
 * on from the step's main action ("Usar esta foto", or the retake), as after the camera. A
 * refusal's reason sits above its picture, and it is brought on screen with the retake below it
 * (both where they fit, the reason first), so that at 200% text nothing must be scrolled past.
 */
import type { ReactiveElement } from 'lit';

export function focusAfterCheck(host: ReactiveElement): void {
  // A task after the render: focusing lays the page out, and the render's own frame need not wait for it.
  void host.updateComplete.then(() =>
    setTimeout(() => {
      const root = host.renderRoot;
      const reason = root.querySelector<HTMLElement>('#capture-error');
      const action = root.querySelector<HTMLElement>('button[part~=button-primary]:not([disabled])');
      const active = document.activeElement;
      if (!host.shadowRoot?.activeElement && (!active || active === document.body || active === host))
        action?.focus({ preventScroll: true });
      if (reason) bringIntoView(reason, action);
      else action?.scrollIntoView({ block: 'nearest' });
    }),
  );
}

function bringIntoView(top: HTMLElement, bottom: HTMLElement | null): void {
  bottom?.scrollIntoView({ block: 'nearest' });
  if (top.getBoundingClientRect().top < 0) top.scrollIntoView({ block: 'start' });
}
