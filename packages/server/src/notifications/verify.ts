/**
 * What a receiver of the companion's notifications needs, importable alone as
 * `@onboarding-kit/server/verify`: nothing here loads the rest of the companion or any `node:` module.
 */
export { NOTIFICATION_SIGNATURE_HEADER, type NotificationEvent, type NotificationType } from '@onboarding-kit/contract';
export { signNotification, verifyNotification, type VerifyNotificationOptions } from './signature.js';
