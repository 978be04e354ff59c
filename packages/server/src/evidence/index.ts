export { buildEvidenceArchive } from './archive.js';
export type { EvidenceInput, EvidenceOptions } from './archive.js';
export { assertEvidencePassword, MIN_EVIDENCE_PASSWORD_LENGTH, MAX_EVIDENCE_PASSWORD_LENGTH } from './password.js';
export { EVIDENCE_FORMAT, HISTORY_ABSENT } from './manifest.js';
export type { EvidenceManifest, EvidenceHistoryEntry, HistorySource, ManifestFile, ManifestGap, SupportRequest } from './manifest.js';
export { peekPdf } from './pdf-stream.js';
export { measuringStream } from './measure.js';
