/**
 * The sandbox's documented test CPFs (packages/sandbox/README.md, "Test identities"): the embedded
 * sandbox decides each onboarding by its CPF, so the demo offers one shortcut per outcome.
 */
export interface TestIdentity {
  outcome: 'APPROVED' | 'REFUSED' | 'ERROR';
  cpf: string;
  note: string;
}

export const TEST_IDENTITIES: readonly TestIdentity[] = [
  { outcome: 'APPROVED', cpf: '529.982.247-25', note: 'the check passes' },
  { outcome: 'REFUSED', cpf: '111.444.777-35', note: 'a business refusal (the page explains it in its own words)' },
  { outcome: 'ERROR', cpf: '123.456.789-09', note: 'a technical error with a support code (externalId)' },
];

/**
 * The sandbox's manual-review identity: its onboarding stays IN_PROCESS until the control API
 * decides it. Any other CPF is decided by the sandbox on its own, so the page's decision buttons
 * apply to this one only.
 */
export const MANUAL_REVIEW_CPF = '987.654.321-00';

/** Where `npm start` mounts the embedded sandbox (demo/start.ts); absent with a real upstream. */
export const SANDBOX_CONTROL = '/sandbox/__sandbox';

/** One line of an event log: the event's detail as compact JSON. */
export function describeDetail(detail: unknown): string {
  if (detail === undefined || detail === null) return '';
  try {
    return JSON.stringify(detail);
  } catch {
    return String(detail);
  }
}
