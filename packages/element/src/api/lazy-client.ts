/**
 * The companion client as the package exports it: each call fetches the client on first use
 * (it comes with the photo steps, `onboarding-flow.photo-steps.js` beside the script-tag
 * bundles), so that a page that only shows the consent and data steps never downloads it. Same
 * signatures as src/api/companion-client.ts and src/api/status-watch.ts (every one answers a
 * promise); errors are the exported {@link CompanionError}.
 */
import type * as Client from './companion-client.js';
import type * as Watch from './status-watch.js';
import { loadPhotoSteps } from '../onboarding-flow/load-photo-steps.js';

/** `POST {base}/onboardings` with upload progress (see companion-client.ts). */
export const createOnboarding = (...args: Parameters<typeof Client.createOnboarding>): ReturnType<typeof Client.createOnboarding> =>
  loadPhotoSteps().then((kit) => kit.createOnboarding(...args));

/** `GET {base}/onboardings/{token}` (see companion-client.ts). */
export const getOnboarding = (...args: Parameters<typeof Client.getOnboarding>): ReturnType<typeof Client.getOnboarding> =>
  loadPhotoSteps().then((kit) => kit.getOnboarding(...args));

/** The status stream of an onboarding, `onStatus` called for each status (see companion-client.ts). */
export const streamStatus = (...args: Parameters<typeof Client.streamStatus>): ReturnType<typeof Client.streamStatus> =>
  loadPhotoSteps().then((kit) => kit.streamStatus(...args));

/** Follows an onboarding until a final status: the stream, then polling (see status-watch.ts). */
export const watchStatus = (...args: Parameters<typeof Watch.watchStatus>): ReturnType<typeof Watch.watchStatus> =>
  loadPhotoSteps().then((kit) => kit.watchStatus(...args));
