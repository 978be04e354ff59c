/**
 * Shared helpers of the controllers' browser tests (not part of the public API): a bare Lit
 * host whose template a test sets, real JPEG photos as the pipeline would return them, and a
 * recorder of the `onboarding-*` events a host dispatches.
 */
import { bytesToBase64 } from '@onboarding-kit/contract';
import { fixture, html } from '@open-wc/testing';
import { LitElement, nothing, type TemplateResult } from 'lit';
import { ONBOARDING_EVENTS } from '../event-names.js';
import type { CaptureRole, ProcessedImage } from '../image/pipeline.js';
import { en } from '../messages/index.js';
import type { FlowContext, FlowContextSource } from '../onboarding-flow/flow-context.js';

export class ControllerTestHost extends LitElement {
  /** What the host renders; a test swaps it to change the DOM the controllers see. */
  view: () => TemplateResult | typeof nothing = () => nothing;
  override render() {
    return this.view();
  }
}
customElements.define('controller-test-host', ControllerTestHost);

export async function mountHost(): Promise<ControllerTestHost> {
  return fixture<ControllerTestHost>(html`<controller-test-host></controller-test-host>`);
}

/** Every `onboarding-*` event `host` dispatches, in order. */
export function recordEvents(host: HTMLElement): CustomEvent[] {
  const events: CustomEvent[] = [];
  for (const name of ONBOARDING_EVENTS) host.addEventListener(name, (e) => events.push(e as CustomEvent));
  return events;
}

/** A small real JPEG of one colour. */
export async function jpeg(colour = '#3a6', width = 64, height = 48): Promise<Blob> {
  const canvas = new OffscreenCanvas(width, height);
  const ctx = canvas.getContext('2d')!;
  ctx.fillStyle = colour;
  ctx.fillRect(0, 0, width, height);
  return canvas.convertToBlob({ type: 'image/jpeg', quality: 0.9 });
}

/** What processImage resolves with, for a real JPEG, with a live object URL. */
export async function processedImage(role: CaptureRole, colour?: string): Promise<ProcessedImage> {
  const blob = await jpeg(colour);
  const bytes = new Uint8Array(await blob.arrayBuffer());
  return {
    role,
    base64: bytesToBase64(bytes),
    mime: 'image/jpeg',
    bytes: bytes.length,
    width: 64,
    height: 48,
    previewUrl: URL.createObjectURL(blob),
    checks: { sharpness: 100, brightness: 120 },
    timings: { decode: 0, checks: 0, compress: 0, encode: 0 },
    processedIn: 'worker',
    processedBy: 'library',
  };
}

export { isRevoked } from '../onboarding-flow/test-helpers.js';

export interface Deferred<T> {
  promise: Promise<T>;
  resolve(value: T): void;
  reject(error: unknown): void;
}

export function deferred<T>(): Deferred<T> {
  let resolve!: (value: T) => void;
  let reject!: (error: unknown) => void;
  const promise = new Promise<T>((res, rej) => {
    resolve = res;
    reject = rej;
  });
  return { promise, resolve, reject };
}

/** Lets pending promise callbacks and one macrotask run. */
export const settle = () => new Promise((resolve) => setTimeout(resolve, 0));

/**
 * A flow context for a controller under test: English, no session, nothing kept across a reload
 * unless a test says so. `over` is read on each access, so a test may change it midway.
 */
export function testContext(over: () => Partial<FlowContext> = () => ({})): FlowContextSource {
  return {
    get current(): FlowContext {
      return { endpoint: '', secret: '', locale: 'en', messages: en, resumeKey: null, ...over() };
    },
  };
}
