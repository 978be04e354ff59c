/**
 * The pages' side of the demo backend (demo/backend.ts), which plays the integrator's backend:
 * the session it rendered into the page, new sessions it opens on request (a test identity,
 * a fresh start), and the signed notifications its receiver verified. The page only ever holds
 * client secrets; it learns a session's id from the companion's page API, as the element does.
 */
import type { PageSession } from '@onboarding-kit/contract';

/** What the demo receiver answers for one verified notification (demo/backend.ts). */
export interface DemoNotification {
  id: string;
  type: string;
  createdAt: string;
  receivedAt: string;
  sessionId?: string;
  sessionStatus?: string;
  onboardingStatus?: string;
  externalId?: string;
  verified: boolean;
  deliveries: number;
}

/** The session the backend rendered into this page for this visit (null when it could not open one). */
export function renderedSession(element?: Element | null): string | null {
  return element?.getAttribute('session') || document.querySelector<HTMLMetaElement>('meta[name="onboarding-session"]')?.content || null;
}

/** Asks the demo backend for a new session (a CPF fixes whom it is for); answers its client secret. */
export async function openSession(input: { cpf?: string; locale?: string; page: string }): Promise<string> {
  const res = await fetch('/demo/session', {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(input),
  });
  const answer = (await res.json().catch(() => null)) as { clientSecret?: string; error?: { message: string } } | null;
  if (res.status !== 201 || typeof answer?.clientSecret !== 'string')
    throw new Error(answer?.error?.message ?? `the demo backend answered ${res.status}`);
  return answer.clientSecret;
}

/**
 * The id of the session a client secret opens, read from the companion (`GET /v1/session`) as
 * soon as the page has the secret: once the session is used, its secret may open nothing more.
 */
export async function sessionIdOf(endpoint: string, clientSecret: string): Promise<string | null> {
  const res = await fetch(`${endpoint.replace(/\/+$/, '')}/session`, { headers: { authorization: `Bearer ${clientSecret}` } }).catch(
    () => null,
  );
  return res?.ok ? ((await res.json()) as PageSession).id : null;
}

/** One line of the event log for a notification. */
export function describeNotification(n: DemoNotification): string {
  const parts = [
    `id ${n.id}`,
    n.sessionStatus && `session ${n.sessionStatus}`,
    n.onboardingStatus && `onboarding ${n.onboardingStatus}`,
    n.externalId && `externalId ${n.externalId}`,
    n.verified && 'signature verified',
    n.deliveries > 1 && `delivered ${n.deliveries} times`,
  ];
  return parts.filter(Boolean).join(' · ');
}

const FINAL_TYPES = new Set(['session.completed', 'session.expired']);
const POLL_MS = 1500;

/**
 * Follows the notifications of the sessions it is given, each told once to `onNotification`. A
 * page follows its session once it sent an onboarding, and stops once the last notification
 * (completed or expired) came: no polling while nothing is expected.
 */
export function watchNotifications(
  onNotification: (n: DemoNotification) => void,
  onElsewhere?: () => void,
): { follow(sessionId: string): void } {
  const following = new Set<string>();
  const told = new Set<string>();
  let scheduled = false;

  // One poll at a time: a session followed while a poll runs is picked up by the next one.
  function schedule(): void {
    if (scheduled || following.size === 0) return;
    scheduled = true;
    setTimeout(
      () =>
        void poll().finally(() => {
          scheduled = false;
          schedule();
        }),
      POLL_MS,
    );
  }

  async function poll(): Promise<void> {
    for (const id of [...following]) {
      const res = await fetch(`/demo/notifications?session=${encodeURIComponent(id)}`).catch(() => null);
      if (!res?.ok) continue;
      const { receiving, data } = (await res.json()) as { receiving: boolean; data: DemoNotification[] };
      if (!receiving) {
        // ONBOARDING_NOTIFY_URL sends them elsewhere: nothing will ever come here.
        following.clear();
        onElsewhere?.();
        return;
      }
      for (const n of data) {
        if (told.has(n.id)) continue;
        told.add(n.id);
        onNotification(n);
        if (FINAL_TYPES.has(n.type)) following.delete(id);
      }
    }
  }

  return {
    follow(sessionId) {
      following.add(sessionId);
      schedule();
    },
  };
}
