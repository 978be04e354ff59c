/// <reference types="@onboarding-kit/testing/mocha-globals" />
import { expect } from '@open-wc/testing';
import { CameraError, mapCameraError, type CameraErrorCode } from './camera-controller.js';

describe('mapCameraError', () => {
  const cases: Array<[string, CameraErrorCode]> = [
    ['NotAllowedError', 'denied'],
    ['PermissionDeniedError', 'denied'],
    ['SecurityError', 'denied'],
    ['NotFoundError', 'no-camera'],
    ['DevicesNotFoundError', 'no-camera'],
    ['NotReadableError', 'in-use'],
    ['TrackStartError', 'in-use'],
    ['AbortError', 'in-use'],
    ['OverconstrainedError', 'constraints'],
    ['ConstraintNotSatisfiedError', 'constraints'],
    ['NotSupportedError', 'unsupported'],
    ['InvalidStateError', 'unknown'],
    ['UnknownError', 'unknown'],
  ];
  for (const [name, code] of cases) {
    it(`DOMException ${name} -> ${code}, keeping the cause`, () => {
      const cause = new DOMException('boom', name);
      const error = mapCameraError(cause);
      expect(error).to.be.instanceOf(CameraError);
      expect(error).to.be.instanceOf(Error);
      expect(error.code).to.equal(code);
      expect(error.cause).to.equal(cause);
      expect(error.name).to.equal('CameraError');
      expect(error.message).to.be.a('string').and.not.equal('');
    });
  }

  it("Chromium's own OverconstrainedError -> constraints", async () => {
    const error = await navigator.mediaDevices.getUserMedia({ video: { deviceId: { exact: 'no-such-camera' } } }).then(
      (s) => (s.getTracks().forEach((t) => t.stop()), null),
      (e: unknown) => e,
    );
    expect(mapCameraError(error).code).to.equal('constraints');
  });

  it('TypeError in a secure context -> unsupported', () => {
    expect(isSecureContext).to.equal(true);
    expect(mapCameraError(new TypeError('x')).code).to.equal('unsupported');
  });

  it('TypeError on an insecure page -> insecure-context', () => {
    // isSecureContext is an own accessor of window: put the original back afterwards.
    const original = Object.getOwnPropertyDescriptor(window, 'isSecureContext')!;
    Object.defineProperty(window, 'isSecureContext', { configurable: true, get: () => false });
    try {
      expect(mapCameraError(new TypeError('x')).code).to.equal('insecure-context');
    } finally {
      Object.defineProperty(window, 'isSecureContext', original);
    }
    expect(isSecureContext).to.equal(true);
  });

  it('anything else -> unknown; a CameraError passes through unchanged', () => {
    expect(mapCameraError('weird').code).to.equal('unknown');
    expect(mapCameraError(new Error('x')).code).to.equal('unknown');
    const original = new CameraError('in-use', 'busy');
    expect(mapCameraError(original)).to.equal(original);
  });
});
