/**
 * Test identities for the image services a session's instant checks call (packages/sandbox/README.md,
 * "Test identities"): the answer follows the `cpf` the query carries, so a test picks an outcome
 * by the person it onboards. A query without one of these CPFs is answered from its images.
 */
export type CheckBehaviour = 'mismatch' | 'no-face' | 'unreadable' | 'technical-failure' | 'other-person';

export const CHECK_IDENTITIES: Readonly<Record<string, CheckBehaviour>> = {
  '31827465026': 'mismatch',
  '42718396040': 'no-face',
  '53629147070': 'unreadable',
  '64530258092': 'technical-failure',
  '75441369060': 'other-person',
};

/** The same identities, formatted, for tests and docs. */
export const CHECK_TEST_IDENTITIES = {
  cpfChecksPass: '529.982.247-25',
  cpfFaceMismatch: '318.274.650-26',
  cpfNoFace: '427.183.960-40',
  cpfUnreadableDocument: '536.291.470-70',
  cpfChecksFail: '645.302.580-92',
  cpfOtherPersonDocument: '754.413.690-60',
} as const;

/** Services that look at a face: `no-face` answers `Face nao encontrada na base` there. */
const FACE_SERVICES = new Set(['SERVICE_FACE_INDEX', 'SERVICE_FACE_MATCH', 'SERVICE_VALIDATION_CNH', 'SERVICE_DIGITAL_DOCUMENTOSCOPY']);
/** Services that read a document: `unreadable` refuses there. */
const DOCUMENT_SERVICES = new Set([
  'SERVICE_OCR',
  'SERVICE_OCR_PROOF_OF_ADDRESS',
  'SERVICE_OCR_CNPJ_CARD',
  'SERVICE_OCR_EMANCIPATION',
  'SERVICE_DIGITAL_DOCUMENTOSCOPY',
]);

/** The refusal message of an unreadable document (the upstream refuses with a message; its wording is the sandbox's). */
export const UNREADABLE_MESSAGE = 'Documento ilegível ou de tipo incorreto';

export type ForcedAnswer = 'technical-failure' | 'no-face' | 'unreadable';

/** The answer a check identity forces on `service` before any result is made, or null to go on. */
export function forcedAnswer(behaviour: CheckBehaviour | undefined, service: string): ForcedAnswer | null {
  if (behaviour === 'technical-failure') return 'technical-failure';
  if (behaviour === 'no-face' && FACE_SERVICES.has(service)) return 'no-face';
  if (behaviour === 'unreadable' && DOCUMENT_SERVICES.has(service)) return 'unreadable';
  return null;
}
