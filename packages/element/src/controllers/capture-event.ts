/**
 * What the page learns of a photo: of an accepted one (`onboarding-capture`), its measures and how
 * it was prepared, never the picture itself, which stays with the element until it is sent; of
 * one the browser could not compress, why, since that refusal says nothing about the picture.
 */
import type { CaptureRole } from '../image/pipeline.js';
import { OnboardingCaptureEvent, OnboardingErrorEvent } from '../events.js';
import { failureReason } from './photo-refusal.js';

type Measured = Pick<OnboardingCaptureEvent['detail'], 'bytes' | 'width' | 'height' | 'processedIn' | 'processedBy'>;

export function captureEvent(role: CaptureRole, image: Measured, keptAnyway: boolean): OnboardingCaptureEvent {
  const { bytes, width, height, processedIn, processedBy } = image;
  return new OnboardingCaptureEvent({ role, bytes, width, height, processedIn, processedBy, ...(keptAnyway && { keptAnyway: true }) });
}

export function compressionFailedEvent(message: string, error: unknown): OnboardingErrorEvent {
  return new OnboardingErrorEvent({ code: 'image_compression-failed', message, reason: failureReason(error) });
}
