/**
 * Digital document inspection is asynchronous by `key`
 * (docs/upstream-api.md#asynchronous-document-inspection): the submission answers the current
 * status, `SERVICE_DIGITAL_DOCUMENTOSCOPY_CONSULT` reads it later. A submission stays `IN_PROCESS`
 * for `processingMs`, then reads `APPROVED` (the one value the upstream shows).
 */
export interface DocumentoscopyCase {
  key: string;
  submittedAt: number;
  documentData: { name: string; cpf: string };
}

export class DocumentoscopyCases {
  readonly #cases = new Map<string, DocumentoscopyCase>();

  constructor(
    private readonly processingMs: number,
    private readonly now: () => number = Date.now,
  ) {}

  submit(entry: Omit<DocumentoscopyCase, 'submittedAt'>): DocumentoscopyCase {
    const stored = { ...entry, submittedAt: this.now() };
    this.#cases.set(entry.key, stored);
    return stored;
  }

  get(key: string): DocumentoscopyCase | undefined {
    return this.#cases.get(key);
  }

  statusOf(entry: DocumentoscopyCase): 'IN_PROCESS' | 'APPROVED' {
    return this.now() - entry.submittedAt >= this.processingMs ? 'APPROVED' : 'IN_PROCESS';
  }
}
