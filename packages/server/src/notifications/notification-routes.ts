/**
 * The outbox for an operator (docs/backend-api.md#notifications): which deliveries are failing or
 * gave up, and a replay of one. Mounted by the companion under `/v1/admin`, behind its auth; this
 * factory adds none of its own.
 */
import { Hono } from 'hono';
import { DomainError } from '../errors/domain-error.js';
import type { CompanionEnv } from '../http/env.js';
import { NOTIFICATION_FILTERS, type NotificationFilter, type Notifier } from './outbox.js';

export interface NotificationAdminDeps {
  notifier: Pick<Notifier, 'list' | 'replay'>;
}

const NOTIFICATION_LIST = { defaultLimit: 50, maxLimit: 200 } as const;

export function notificationAdminRoutes(deps: NotificationAdminDeps): Hono<CompanionEnv> {
  const app = new Hono<CompanionEnv>();

  app.get('/notifications', async (c) => {
    const state = c.req.query('state') ?? 'failing';
    if (!(NOTIFICATION_FILTERS as readonly string[]).includes(state)) {
      throw new DomainError('invalid_field', `state must be one of ${NOTIFICATION_FILTERS.join(', ')}.`, { field: 'state' });
    }
    const rawLimit = c.req.query('limit');
    const limit = rawLimit === undefined ? NOTIFICATION_LIST.defaultLimit : /^\d{1,4}$/.test(rawLimit) ? Number(rawLimit) : NaN;
    if (!(limit >= 1 && limit <= NOTIFICATION_LIST.maxLimit)) {
      throw new DomainError('invalid_field', `limit must be a whole number from 1 to ${NOTIFICATION_LIST.maxLimit}.`, { field: 'limit' });
    }
    const data = await deps.notifier.list(state as NotificationFilter, limit);
    c.header('Cache-Control', 'no-store');
    return c.json({ data });
  });

  app.post('/notifications/:id/replay', async (c) => {
    const id = c.req.param('id');
    const replayed = id.length <= 200 ? await deps.notifier.replay(id) : null;
    if (!replayed) throw new DomainError('not_found', 'No such notification.');
    c.header('Cache-Control', 'no-store');
    return c.json({ data: replayed }, 202);
  });

  return app;
}
