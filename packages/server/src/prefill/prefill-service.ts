/**
 * The document prefill (docs/page-api.md#document-prefill): the upstream's OCR reads the document
 * photos of a session that offers it, and what it reads is offered to the person to confirm. A
 * few per session; the latest result is kept (sealed, with the session) so the creation's `ocr`
 * check reuses it when the front photo is the same, and the upstream is not paid twice.
 */
import { CHECK_SERVICES, type DocumentPrefill, type Outcome } from '@onboarding-kit/contract';
import { DomainError } from '../errors/domain-error.js';
import { fromUpstream } from '../errors/from-upstream.js';
import type { Logger } from '../logger.js';
import type { SessionRecord } from '../store/backend-state.js';
import { isUpstreamError, outcomeFailureType, UpstreamError } from '../upstream/upstream-error.js';
import { checkResult } from '../checks/check-rules.js';
import { photoSha256 } from '../onboardings/photo-sha256.js';
import { prefillOf, unreadable, type ValidPrefill } from './prefill-rules.js';

export interface PrefillServiceOptions {
  sessions: {
    change(id: string, change: (s: SessionRecord) => SessionRecord | null): Promise<SessionRecord | null>;
    now(): number;
  };
  query(service: string, fields: Record<string, string>): Promise<Outcome>;
  environment: string;
  logger: Logger;
  /** Prefills per session. */
  max: number;
}

const OCR = CHECK_SERVICES.ocr;

export class PrefillService {
  constructor(private readonly o: PrefillServiceOptions) {}

  /** Whether the session offers a prefill and may still be sent from; refuses otherwise. */
  check(session: SessionRecord): void {
    if (!session.prefillFromDocument) throw new DomainError('prefill_unavailable');
    if (session.status !== 'open' || session.tokenOnboarding)
      throw new DomainError('session_used', 'This session has already been used for an onboarding; there is nothing left to prefill.');
  }

  async prefill(session: SessionRecord, valid: ValidPrefill): Promise<DocumentPrefill> {
    await this.#count(session.id);
    const fields: Record<string, string> = { documentType: valid.documentType, image1: valid.documentFront };
    if (valid.documentBack) fields.image2 = valid.documentBack;
    if (session.taxId?.kind === 'cpf') fields.cpf = session.taxId.value;
    let outcome: Outcome;
    try {
      outcome = await this.o.query(OCR, fields);
    } catch (error) {
      if (isUpstreamError(error)) throw fromUpstream(error, this.o.environment);
      throw error;
    }
    this.o.logger.info('document prefill', {
      sessionId: session.id,
      kind: outcome.kind,
      ...(outcome.externalId && { externalId: outcome.externalId }),
    });
    if (!outcome.ok && !unreadable(outcome)) throw this.#technical(outcome);
    await this.#keep(session.id, photoSha256(valid.documentFront), outcome);
    if (!outcome.ok || outcome.kind === 'no-data') {
      throw new DomainError('document_unreadable', undefined, {
        field: 'images.documentFront',
        ...(outcome.externalId && { externalId: outcome.externalId }),
      });
    }
    return prefillOf(outcome);
  }

  /** One more prefill counted on the session, by compare-and-set; 429 past the limit. */
  async #count(id: string): Promise<void> {
    const counted = await this.o.sessions.change(id, (s) => {
      const attempts = s.documentPrefill?.attempts ?? 0;
      return attempts >= this.o.max ? null : { ...s, documentPrefill: { ...s.documentPrefill, attempts: attempts + 1 } };
    });
    if (!counted)
      throw new DomainError('rate_limited', `This session has used its ${this.o.max} document prefills: type the data in instead.`);
  }

  /** The OCR's answer kept with the session, for the creation's `ocr` check to reuse on the same front photo. */
  async #keep(id: string, frontSha256: string, outcome: Outcome): Promise<void> {
    const result = checkResult('ocr', outcome, new Date(this.o.sessions.now()).toISOString());
    await this.o.sessions.change(id, (s) => ({
      ...s,
      documentPrefill: { attempts: s.documentPrefill?.attempts ?? 1, ocr: { frontSha256, result } },
    }));
  }

  #technical(outcome: Outcome): DomainError {
    const op = `POST /api/service-api ${OCR}`;
    return fromUpstream(
      new UpstreamError(
        outcome.kind === 'unauthorized' ? 'unauthorized' : 'failed',
        op,
        `The upstream reported a technical failure (${outcome.kind}).`,
        {
          ...(outcome.code !== undefined && { code: outcome.code }),
          ...(outcome.message !== undefined && { upstreamMessage: outcome.message }),
          ...(outcome.externalId && { externalId: outcome.externalId }),
          type: outcomeFailureType(outcome, op),
        },
      ),
      this.o.environment,
    );
  }
}
