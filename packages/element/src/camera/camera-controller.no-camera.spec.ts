/// <reference types="@onboarding-kit/testing/mocha-globals" />
/** Runs in the `no-camera` WTR group: each engine without any (fake) capture device. */
import { expect, fixture, html } from '@open-wc/testing';
import { currentEngine } from '@onboarding-kit/testing/engine';
import { LitElement } from 'lit';
import { CameraController } from './camera-controller.js';

class NoCameraHost extends LitElement {
  camera = new CameraController(this);
}
customElements.define('no-camera-host', NoCameraHost);

describe('CameraController on a machine without a camera', () => {
  it("start() ends in state 'error' with code 'no-camera' (a real NotFoundError; WebKit: OverconstrainedError)", async () => {
    const host = await fixture<NoCameraHost>(html`<no-camera-host></no-camera-host>`);
    const devices = await navigator.mediaDevices.enumerateDevices();
    expect(devices.filter((d) => d.kind === 'videoinput')).to.have.length(0);
    await host.camera.start('environment');
    expect(host.camera.state).to.equal('error');
    expect(host.camera.error?.code).to.equal('no-camera');
    // WebKit says OverconstrainedError even to `video: true` when there is no camera.
    expect((host.camera.error?.cause as DOMException).name).to.equal(
      currentEngine() === 'webkit' ? 'OverconstrainedError' : 'NotFoundError',
    );
    expect(host.camera.stream).to.equal(null);
  });
});
