/**
 * The evidence archive: a zip (optionally AES-256 encrypted) holding the onboarding report JSON,
 * the PDF, the status history, the session's instant checks, document reading and capture integrity
 * (with the challenge's keyframes) when it has them,
 * and a manifest of SHA-256 hashes, produced as a stream. The PDF
 * flows from its source through the hash and zip.js to the output one chunk at a time, so the
 * archive of a 96 MiB PDF needs no more memory than that of a small one.
 */
import { stripReport, type DocumentReading, type KeptAnyway, type SessionChecks, type SessionIntegrity } from '@onboarding-kit/contract';
import { assertEvidencePassword } from './password.js';
import { measureBytes, measuringStream } from './measure.js';
import {
  EVIDENCE_FORMAT,
  HISTORY_ABSENT,
  historyDocument,
  supportRequest,
  type EvidenceHistoryEntry,
  type EvidenceManifest,
  type ManifestFile,
  type ManifestGap,
} from './manifest.js';
import { peekPdf, pdfPeekReason } from './pdf-stream.js';

export interface EvidenceInput {
  tokenOnboarding: string;
  externalId?: string;
  environment: string;
  /** When the onboarding was created (ISO 8601); absent when this companion has no record of it. */
  createdAt?: string;
  kitVersion: string;
  /** The upstream JSON report; its non-contract fields and nulls are removed before archiving. */
  report: unknown | undefined;
  /** Why the report is missing (safe to show: it goes into the manifest). */
  reportError?: string;
  /** The upstream PDF; checked to start with `%PDF` while it streams. */
  pdf: ReadableStream<Uint8Array> | undefined;
  /** Why the PDF is missing (safe to show: it goes into the manifest). */
  pdfError?: string;
  /** Status changes, oldest first; `null` when this companion has no record of the onboarding (a manifest gap). */
  history: readonly EvidenceHistoryEntry[] | null;
  status: string;
  /** The upstream service involved, named in `support.json` for an ERROR. */
  service?: string;
  /** The photos kept anyway as the creation declared them (`{}`: none); absent when this companion has no record of the onboarding. */
  keptAnyway?: KeptAnyway;
  /** The instant checks of the onboarding's session (`checks.json`), when it asked for some. */
  checks?: SessionChecks;
  /** What the page read from the document photos (`document-reading.json`), a record, when it read something. */
  documentReading?: DocumentReading;
  /** The capture integrity of the onboarding's session (`integrity.json`), once its onboarding was created. */
  integrity?: SessionIntegrity;
  /** The liveness challenge's keyframes, JPEG in base64 (`keyframe-1.jpg`, ...). */
  keyframes?: readonly string[];
}

export interface EvidenceOptions {
  /** Encrypts every entry with AES-256 (a passphrase that passes the rules of ./passphrase-rules.ts). */
  password?: string;
  /** When the archive is produced; defaults to now. */
  now?: Date;
  /** Stops producing the archive (the output stream errors, the PDF source is cancelled). */
  signal?: AbortSignal;
}

// zip.js is loaded by the first archive, not when this module is imported: a companion that never
// builds one (most never do) does not pay its memory (about 14 MB resident).
let zipJs: Promise<typeof import('@zip.js/zip.js')> | undefined;
const loadZip = () => (zipJs ??= import('@zip.js/zip.js'));

const encoder = new TextEncoder();
const json = (value: unknown): Uint8Array => encoder.encode(`${JSON.stringify(value, null, 2)}\n`);

/**
 * Builds the archive as a stream of zip bytes. Throws a 400 `invalid_password` `CompanionError`
 * at once for an unusable password; any failure while streaming (for example the PDF source
 * breaking off) errors the returned stream, because a zip with a half-written entry is no evidence.
 */
export function buildEvidenceArchive(input: EvidenceInput, options: EvidenceOptions = {}): ReadableStream<Uint8Array> {
  if (options.password !== undefined) assertEvidencePassword(options.password);
  const now = options.now ?? new Date();

  // zip.js writes into `zipOutput`; `gate` lets this module error the stream the caller reads.
  const zipOutput = new TransformStream<Uint8Array, Uint8Array>();
  let gate!: TransformStreamDefaultController<Uint8Array>;
  const output = zipOutput.readable.pipeThrough(
    new TransformStream<Uint8Array, Uint8Array>({
      start(controller) {
        gate = controller;
      },
    }),
  );

  const abort = new AbortController();
  const onAbort = () => abort.abort(options.signal?.reason);
  if (options.signal?.aborted) onAbort();
  else options.signal?.addEventListener('abort', onAbort, { once: true });

  // Whoever reads the PDF source when the archive fails must let go of it, or the upstream
  // connection stays open, stalled, until it times out.
  const sources: Array<(reason: unknown) => Promise<void>> = [(reason) => input.pdf?.cancel(reason).catch(() => {}) ?? Promise.resolve()];
  void writeArchive(zipOutput.writable, input, { ...options, now }, abort.signal, sources)
    .catch(async (error: unknown) => {
      abort.abort(error);
      await Promise.all(sources.map((release) => release(error)));
      try {
        gate.error(error);
      } catch {
        // The reader has gone already (cancelled the download): nothing left to tell.
      }
    })
    .finally(() => options.signal?.removeEventListener('abort', onAbort));
  return output;
}

/** The archive being written: its entries so far, and what could not be archived and why. */
interface ArchiveEntries {
  addBytes(name: string, bytes: Uint8Array): Promise<void>;
  addStream(name: string, stream: ReadableStream<Uint8Array>): Promise<void>;
  gap(gap: ManifestGap): void;
}

async function writeArchive(
  writable: WritableStream<Uint8Array>,
  input: EvidenceInput,
  options: EvidenceOptions & { now: Date },
  signal: AbortSignal,
  sources: Array<(reason: unknown) => Promise<void>>,
): Promise<void> {
  const { Uint8ArrayReader, ZipWriter } = await loadZip();
  const archivedAt = options.now.toISOString();
  const zip = new ZipWriter(writable, {
    // Main thread, native CompressionStream: nothing to configure in an integrator's process.
    useWebWorkers: false,
    lastModDate: options.now,
    signal,
    ...(options.password !== undefined && { password: options.password, encryptionStrength: 3 as const }),
  });
  const files: ManifestFile[] = [];
  const gaps: ManifestGap[] = [];
  const entries: ArchiveEntries = {
    async addBytes(name, bytes) {
      await zip.add(name, new Uint8ArrayReader(bytes));
      files.push({ name, ...measureBytes(bytes) });
    },
    async addStream(name, stream) {
      const measure = measuringStream();
      await zip.add(name, stream.pipeThrough(measure.stream));
      files.push({ name, ...measure.result() });
    },
    gap: (gap) => void gaps.push(gap),
  };

  await addReport(entries, input);
  await addPdf(entries, input, sources);
  await addHistory(entries, input);
  if (input.checks) await entries.addBytes('checks.json', json(input.checks));
  if (input.documentReading) await entries.addBytes('document-reading.json', json(input.documentReading));
  if (input.integrity) await entries.addBytes('integrity.json', json(input.integrity));
  for (const [i, keyframe] of (input.keyframes ?? []).entries())
    await entries.addBytes(`keyframe-${i + 1}.jpg`, Buffer.from(keyframe, 'base64'));
  if (input.status === 'ERROR') await addSupportRequest(entries, input, archivedAt);

  const manifest: EvidenceManifest = {
    format: EVIDENCE_FORMAT,
    tokenOnboarding: input.tokenOnboarding,
    ...(input.externalId && { externalId: input.externalId }),
    environment: input.environment,
    status: input.status,
    ...(input.createdAt && { createdAt: input.createdAt }),
    archivedAt,
    kitVersion: input.kitVersion,
    ...(input.keptAnyway && { keptAnyway: { ...input.keptAnyway } }),
    encryption: options.password !== undefined ? 'AES-256' : 'none',
    files,
    gaps,
  };
  await zip.add('manifest.json', new Uint8ArrayReader(json(manifest)));
  await zip.close();
}

async function addReport(entries: ArchiveEntries, input: EvidenceInput): Promise<void> {
  if (input.report !== undefined) {
    await entries.addBytes('report.json', json(stripReport(input.report)));
  } else {
    entries.gap({ name: 'report.json', reason: input.reportError ?? 'report unavailable upstream' });
  }
}

/** The PDF, streamed once its first bytes show it is one; its source joins those let go of on failure. */
async function addPdf(entries: ArchiveEntries, input: EvidenceInput, sources: Array<(reason: unknown) => Promise<void>>): Promise<void> {
  if (!input.pdf) {
    entries.gap({ name: 'report.pdf', reason: input.pdfError ?? 'PDF unavailable upstream' });
    return;
  }
  const peek = await peekPdf(input.pdf);
  if (!peek.ok) {
    entries.gap({ name: 'report.pdf', reason: pdfPeekReason(peek.reason) });
    return;
  }
  sources.push(peek.abandon);
  await entries.addStream('report.pdf', peek.stream);
}

async function addHistory(entries: ArchiveEntries, input: EvidenceInput): Promise<void> {
  if (input.history) {
    await entries.addBytes('status-history.json', json(historyDocument(input.history)));
  } else {
    entries.gap({ name: 'status-history.json', reason: HISTORY_ABSENT });
  }
}

/** What an operator sends the upstream's support about an onboarding that ended in ERROR. */
async function addSupportRequest(entries: ArchiveEntries, input: EvidenceInput, archivedAt: string): Promise<void> {
  await entries.addBytes(
    'support.json',
    json(
      supportRequest({
        tokenOnboarding: input.tokenOnboarding,
        environment: input.environment,
        history: input.history ?? [],
        archivedAt,
        ...(input.externalId && { externalId: input.externalId }),
        ...(input.service && { service: input.service }),
      }),
    ),
  );
  if (!input.externalId) entries.gap({ name: 'support.json', reason: 'the upstream gave no externalId for this ERROR' });
}
