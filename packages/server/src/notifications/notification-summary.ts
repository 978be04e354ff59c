/** What the admin routes see of the outbox: its entries summarized, filtered by state. */
import type { NotificationEvent, NotificationType } from '@onboarding-kit/contract';
import type { OutboxEntry, OutboxState } from '../store/backend-state.js';

/** What the admin routes list: `failing` is pending after at least one failed try. */
export type NotificationFilter = 'failing' | OutboxState;
export const NOTIFICATION_FILTERS: readonly NotificationFilter[] = ['failing', 'failed', 'pending', 'delivered'];

export interface NotificationSummary {
  id: string;
  type: NotificationType;
  state: OutboxState;
  orderKey: string;
  attempts: number;
  createdAt: string;
  lastAttemptAt: string | null;
  lastError: string | null;
  /** When the next try is due (pending only). */
  nextAttemptAt: string | null;
  deliveredAt: string | null;
  /** The event exactly as sent. */
  event: NotificationEvent;
}

export function summarize(e: OutboxEntry): NotificationSummary {
  return {
    id: e.id,
    type: e.type,
    state: e.state,
    orderKey: e.orderKey,
    attempts: e.attempts,
    createdAt: e.createdAt,
    lastAttemptAt: e.lastAttemptAt ?? null,
    lastError: e.lastError ?? null,
    nextAttemptAt: e.state === 'pending' ? new Date(e.nextAttemptMs).toISOString() : null,
    deliveredAt: e.deliveredAt ?? null,
    event: JSON.parse(e.body) as NotificationEvent,
  };
}
