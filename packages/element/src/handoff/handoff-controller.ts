/**
 * The hand-off of a session between devices (docs/page-api.md#hand-off), as a Lit reactive
 * controller of `<onboarding-flow>`:
 *
 * - On the page that opened the session (its origin) with the `handoff` attribute: whether to
 *   offer "Continue on your phone" (and first, when no camera is found here), and the panel that
 *   hands the session over and follows the phone (`open`). A reload that finds a phone holding the
 *   session opens the panel at once, following (`loaded`).
 * - On the phone the session was handed to: where the person is and which photos are taken,
 *   reported after each change (never an image; a failure never stops the person), and the watch
 *   that tells when the origin took the session back.
 *
 * Everything but these decisions is in the lazily loaded hand-off file (load-handoff.ts).
 */
import type { HandoffRole, PageSession } from '@onboarding-kit/contract';
import type { ReactiveController, ReactiveElement } from 'lit';
import type { DeviceLink } from './handoff-panel.js';
import { loadHandoff, type HandoffKit } from './load-handoff.js';

export type HandoffMode = 'offer' | 'follow';

export interface HandoffOptions {
  /** The `handoff` attribute. */
  enabled(): boolean;
  /** The session, once it is usable. */
  session(): PageSession | null;
  secret(): string;
  /** The companion's base URL, normalised (`.../v1`). */
  endpoint(): string;
  /** Where the person is and which photos are taken (a device's progress report). */
  progress(): { step: string; photos: HandoffRole[] };
  /** The panel shows: its heading gets focus and is said. */
  shown(): void;
  /** This device no longer holds the session: the page that opened it took it back. */
  lost(): void;
}

export class HandoffController implements ReactiveController {
  readonly #host: ReactiveElement;
  readonly #options: HandoffOptions;
  #mode: HandoffMode | null = null;
  #kit: HandoffKit | null = null;
  #noCamera = false;
  #probed = false;
  /** A device's link to the computer (from the hand-off file), for the secret it was made with. */
  #device: { secret: string; link: DeviceLink | null } | null = null;

  constructor(host: ReactiveElement, options: HandoffOptions) {
    this.#host = host;
    this.#options = options;
    host.addController(this);
  }

  /** The panel shown in place of the step (`follow` also while its file loads), or null. */
  get mode(): HandoffMode | null {
    return this.#mode;
  }
  /** The hand-off file, once loaded. */
  get kit(): HandoffKit | null {
    return this.#kit;
  }
  /** This page opened the session, holds it, and was asked to offer the hand-off. */
  get available(): boolean {
    const handoff = this.#options.session()?.handoff;
    return this.#options.enabled() && !!handoff?.origin && handoff.holder;
  }
  /** The browser lists no camera here. */
  get noCamera(): boolean {
    return this.#noCamera;
  }

  /** Shows the panel: `offer` once its file is here, `follow` at once (a spinner until then). */
  async open(mode: HandoffMode): Promise<void> {
    if (mode === 'follow') this.#setMode(mode);
    try {
      this.#kit = await loadHandoff();
    } catch {
      // Offline before the file came: the flow stays as it was, and the button can be pressed again.
      if (mode === 'follow') this.#setMode(null);
      return;
    }
    this.#setMode(mode);
    this.#options.shown();
  }

  /** Back to the flow's own step. */
  close(): void {
    this.#setMode(null);
  }

  /** The panel now follows a phone (the offered link was used). */
  following(): void {
    if (this.#mode) this.#setMode('follow');
  }

  /** The session was read: a phone holding it is followed, whatever the attribute says. */
  loaded(session: PageSession): void {
    const handoff = session.handoff;
    if (handoff?.state === 'claimed' && !handoff.holder) void this.open('follow');
  }

  reset(): void {
    this.#setMode(null);
    this.#unlink();
  }

  hostDisconnected(): void {
    this.#unlink();
  }

  hostUpdated(): void {
    if (this.available && !this.#probed) {
      this.#probed = true;
      // Labels need a permission, the kinds do not: no video input means no camera to open.
      navigator.mediaDevices?.enumerateDevices?.().then(
        (devices) => {
          if (devices.some((d) => d.kind === 'videoinput')) return;
          this.#noCamera = true;
          this.#host.requestUpdate();
        },
        () => undefined,
      );
    }
    const handoff = this.#options.session()?.handoff;
    const secret = this.#options.secret();
    if (!handoff || handoff.origin || !handoff.holder) return this.#unlink();
    // A device the session was handed to: the computer follows where the person is.
    if (this.#device?.secret !== secret) {
      this.#unlink();
      const device: { secret: string; link: DeviceLink | null } = (this.#device = { secret, link: null });
      loadHandoff().then(
        (kit) => {
          if (this.#device !== device) return;
          device.link = kit.linkDevice(this.#options.endpoint(), () => this.#options.secret(), () => this.#options.lost());
          this.#host.requestUpdate();
        },
        // Not loaded (offline): the next update tries again.
        () => {
          if (this.#device === device) this.#device = null;
        },
      );
    }
    this.#device.link?.report(this.#options.progress());
  }

  #unlink(): void {
    this.#device?.link?.stop();
    this.#device = null;
  }

  #setMode(mode: HandoffMode | null): void {
    this.#mode = mode;
    this.#host.requestUpdate();
  }
}
