/**
 * Onboardings (docs/upstream-api.md#onboarding-creation, docs/upstream-api.md#onboarding-status):
 * created IN_PROCESS, decided after `processingMs` by the test identities (one precise timer per
 * onboarding), or by a manual decision. Every change to a terminal status sends the
 * onboarding-report webhook.
 */
import { randomUUID } from 'node:crypto';
import { maskTaxId, type TaxId } from '@onboarding-kit/contract';
import { realClock, type SandboxClock } from './clock.js';
import { MSG } from './envelope.js';
import { ONBOARDING_IDENTITIES } from './identities.js';
import type { WebhookSender } from './webhooks.js';

export type Status = 'IN_PROCESS' | 'APPROVED' | 'REFUSED' | 'ERROR';
export type Decision = 'APPROVED' | 'REFUSED' | 'ERROR';

export interface OnboardingRecord {
  tokenOnboarding: string;
  status: Status;
  taxId: TaxId;
  name?: string;
  /** ISO 8601 UTC. */
  dateHourProcess: string;
  updatedAt: string;
  documentFiles: number;
  /** Set when an attached file is not a readable image: the onboarding is refused for it. */
  unreadableFile: boolean;
  externalId?: string;
  message?: string;
}

/** The onboarding report (docs/upstream-api.md#onboarding-report): `tokenOnboarding`, `status`, `fields`, `services`; plus `externalId` for ERROR. */
export interface OnboardingReportBody {
  tokenOnboarding: string;
  status: Status;
  fields: { name: string; value: string }[];
  services: { service: string; status: Status; message?: string }[];
  externalId?: string;
}

export class DecisionError extends Error {
  constructor(
    message: string,
    readonly reason: 'unknown' | 'not-in-process',
  ) {
    super(message);
  }
}

export class Onboardings {
  readonly #records = new Map<string, OnboardingRecord>();
  readonly #timers = new Map<string, unknown>();

  constructor(
    private readonly processingMs: number,
    private readonly webhooks: WebhookSender,
    private readonly clock: SandboxClock = realClock,
  ) {}

  create(input: { taxId: TaxId; name?: string; documentFiles: number; unreadableFile: boolean }): OnboardingRecord {
    const now = new Date(this.clock.now()).toISOString();
    const record: OnboardingRecord = {
      tokenOnboarding: randomUUID(),
      status: 'IN_PROCESS',
      taxId: input.taxId,
      dateHourProcess: now,
      updatedAt: now,
      documentFiles: input.documentFiles,
      unreadableFile: input.unreadableFile,
      ...(input.name && { name: input.name }),
    };
    this.#records.set(record.tokenOnboarding, record);
    const automatic = this.#automaticDecision(record);
    if (automatic) {
      const timer = this.clock.setTimeout(() => {
        this.#timers.delete(record.tokenOnboarding);
        void this.#apply(record, automatic.status, automatic.message);
      }, this.processingMs);
      this.#timers.set(record.tokenOnboarding, timer);
    }
    return record;
  }

  get(token: string): OnboardingRecord | undefined {
    return this.#records.get(token);
  }

  /** Every onboarding of one tax id (canonical value), oldest first. */
  byTaxId(value: string): OnboardingRecord[] {
    return [...this.#records.values()].filter((r) => r.taxId.value === value);
  }

  /** Manual review (docs/upstream-api.md#onboarding-status): any onboarding still IN_PROCESS; the webhook goes out immediately. */
  async decide(token: string, status: Decision): Promise<OnboardingRecord> {
    const record = this.#records.get(token);
    if (!record) throw new DecisionError('unknown tokenOnboarding', 'unknown');
    if (record.status !== 'IN_PROCESS') throw new DecisionError(`onboarding is already ${record.status}`, 'not-in-process');
    this.clock.clearTimeout(this.#timers.get(token));
    this.#timers.delete(token);
    await this.#apply(record, status, status === 'APPROVED' ? undefined : 'Decisão da revisão manual');
    return record;
  }

  report(record: OnboardingRecord): OnboardingReportBody {
    const fields: { name: string; value: string }[] = [{ name: record.taxId.kind, value: maskTaxId(record.taxId.value) }];
    if (record.name) fields.push({ name: 'name', value: record.name });
    return {
      tokenOnboarding: record.tokenOnboarding,
      status: record.status,
      fields,
      services: [{ service: 'SERVICE_DIGITAL_DOCUMENTOSCOPY', status: record.status, ...(record.message && { message: record.message }) }],
      ...(record.status === 'ERROR' && record.externalId && { externalId: record.externalId }),
    };
  }

  close(): void {
    for (const timer of this.#timers.values()) this.clock.clearTimeout(timer);
    this.#timers.clear();
  }

  #automaticDecision(record: OnboardingRecord): { status: Decision; message?: string } | null {
    if (record.unreadableFile) return { status: 'REFUSED', message: 'Documento ilegível: o arquivo enviado não é uma imagem válida' };
    switch (ONBOARDING_IDENTITIES[record.taxId.value]) {
      case 'MANUAL_REVIEW':
        return null;
      case 'REFUSED':
        return { status: 'REFUSED', message: 'Reprovado pelas regras do produto' };
      case 'ERROR':
        return { status: 'ERROR', message: MSG.failure };
      default:
        return { status: 'APPROVED' };
    }
  }

  async #apply(record: OnboardingRecord, status: Decision, message?: string): Promise<void> {
    record.status = status;
    record.updatedAt = new Date(this.clock.now()).toISOString();
    if (message) record.message = message;
    if (status === 'ERROR') record.externalId = randomUUID();
    await this.webhooks.send(this.report(record));
  }
}
