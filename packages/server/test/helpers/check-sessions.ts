/** Sessions with instant checks on a companion of the test stack: opened, used by a page, read back until their checks end. */
import assert from 'node:assert/strict';
import { body } from '@onboarding-kit/testing/stack';
import type { CompanionApp } from '@onboarding-kit/server';
import type { CreateSessionResponse, SessionView } from '@onboarding-kit/contract';

export const CHECKS_API_KEY = 'sk_test_checks_0123456789abcdef0123456789';

/** A small PDF with its end marker (the sandbox's proof of address reads PDFs). */
export const PROOF_PDF = Buffer.from('%PDF-1.4\n1 0 obj\n<< /Type /Catalog >>\nendobj\ntrailer\n<< /Root 1 0 R >>\n%%EOF\n').toString(
  'base64',
);

export const ALL_CHECKS = ['ocr', 'face_match', 'cnh_validation', 'document_inspection'];

/** Fast inspection consultations, so a pending inspection ends within the test. */
export const FAST_INSPECTIONS = { firstDelayMs: 50, maxDelayMs: 200, giveUpAfterMs: 60_000, everyMs: 100 };

const api = (app: CompanionApp, path: string, init: RequestInit = {}) =>
  app.request(path, {
    ...init,
    headers: { authorization: `Bearer ${CHECKS_API_KEY}`, 'content-type': 'application/json', ...init.headers },
  });

export async function openSession(app: CompanionApp, payload: Record<string, unknown>): Promise<CreateSessionResponse> {
  const res = await api(app, '/v1/sessions', { method: 'POST', body: JSON.stringify(payload) });
  assert.equal(res.status, 201, await res.clone().text());
  return (await res.json()) as CreateSessionResponse;
}

/** The page's creation on the session, with the session's CPF, a document type and the given extras. */
export async function submit(app: CompanionApp, s: CreateSessionResponse, cpf: string, extra: Record<string, unknown> = {}) {
  const res = await app.request('/v1/onboardings', {
    method: 'POST',
    headers: { authorization: `Bearer ${s.clientSecret}`, 'content-type': 'application/json' },
    body: JSON.stringify(body({ cpf }, extra)),
  });
  assert.equal(res.status, 201, await res.clone().text());
  return (await res.json()) as { tokenOnboarding: string };
}

export async function viewOf(app: CompanionApp, id: string): Promise<SessionView> {
  const res = await api(app, `/v1/sessions/${id}`);
  assert.equal(res.status, 200);
  return (await res.json()) as SessionView;
}

/** The session's view once no check is pending. */
export async function checksDone(app: CompanionApp, id: string, timeoutMs = 30_000): Promise<SessionView> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const view = await viewOf(app, id);
    if (view.checks?.completedAt) return view;
    if (Date.now() > deadline) throw new Error(`checks of ${id} still pending: ${JSON.stringify(view.checks)}`);
    await new Promise((r) => setTimeout(r, 50));
  }
}
