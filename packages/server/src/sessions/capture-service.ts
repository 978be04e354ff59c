/**
 * The capture link's exchange (docs/page-api.md#page-secrets): the hosted page trades its URL's
 * capture token, once, for a page secret of its own. The exchange is a compare-and-set on the
 * session, so of several exchanges of one token (two tabs, a copy of the URL from a history)
 * exactly one gets a secret; every other, then or later, is refused.
 */
import type { CaptureExchange } from '@onboarding-kit/contract';
import { hashSecret } from '../auth/access-key.js';
import { DomainError } from '../errors/domain-error.js';
import { newPageSecret } from './new-session.js';
import { captureExchanged } from './page-secret-rules.js';
import type { SessionService } from './session-service.js';
import { sessionCancelled, sessionExpired } from './session-refusals.js';
import { effectiveStatus } from './session-view.js';

const noSuchLink = () => new DomainError('not_found', 'No such session link.');
const captureOpened = () =>
  new DomainError(
    'session_used',
    'This link was opened already: continue where it was first opened, or ask the service provider for a new one.',
    { status: 410 },
  );

/** `POST /v1/session/exchange`: the page secret for an open, unused session's capture token never exchanged before. */
export async function exchangeCapture(sessions: SessionService, captureToken: string): Promise<CaptureExchange> {
  const found = await sessions.store.findSessionBySecret('capture', hashSecret(captureToken));
  if (!found) throw noSuchLink();
  const status = effectiveStatus(found, sessions.now());
  if (status === 'expired') throw sessionExpired();
  if (status === 'cancelled') throw sessionCancelled();
  if (status !== 'open' || found.tokenOnboarding) throw new DomainError('session_used', undefined, { status: 410 });
  const changed = await sessions.change(found.id, (s) =>
    captureExchanged(s, captureToken) ? null : { ...s, exchangedCaptures: [...(s.exchangedCaptures ?? []), hashSecret(captureToken)] },
  );
  // The token was exchanged before, or by a request racing this one: that one alone holds the secret.
  if (!changed) throw captureOpened();
  const pageSecret = newPageSecret(found.id);
  if (!(await sessions.store.addSessionSecret(found.id, 'page', hashSecret(pageSecret)))) throw noSuchLink();
  return { pageSecret, sessionId: found.id };
}
