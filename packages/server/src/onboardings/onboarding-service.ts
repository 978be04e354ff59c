/**
 * Onboardings: who may create one, its creation (one per session, or per Idempotency-Key without
 * one, a replay answered with the same onboarding), and who may read it. The routes
 * (./onboarding-routes.ts) read the request and write the answer; everything between is here.
 */
import { maskTaxId, type CreateOnboardingResponse, type ImageRoleName, type ValidCreateOnboardingBytes } from '@onboarding-kit/contract';
import { hashSecret, newAccessKey } from '../auth/access-key.js';
import { holds, sessionHandedOff, type PageCaller } from '../handoff/handoff-rules.js';
import { DomainError } from '../errors/domain-error.js';
import { fromUpstream, notFound } from '../errors/from-upstream.js';
import { CREATION_HOLD_MS, IDEMPOTENCY_TTL_MS } from '../config/defaults.js';
import { idempotencyConflict, idempotencyInProgress } from '../idempotency/idempotency-rules.js';
import type { LogFields, Logger } from '../logger.js';
import type { StatusPoller } from '../relay/poller.js';
import type { SessionService } from '../sessions/session-service.js';
import type { CheckService } from '../checks/check-service.js';
import type { IntegrityService } from '../integrity/integrity-service.js';
import { receivedItems } from '../integrity/integrity-service.js';
import type { ReceivedItem } from '../integrity/integrity-rules.js';
import { checkInputOf, type CheckInput } from '../checks/check-rules.js';
import { withCarriedName, withSessionName } from '../sessions/person-rules.js';
import type { SessionRecord } from '../store/backend-state.js';
import type { OnboardingRecord, Store } from '../store/index.js';
import type { EncodedJson, UpstreamClient } from '../upstream/upstream-client.js';
import { isUpstreamError } from '../upstream/upstream-error.js';
import {
  accessKeyOpens,
  checkAgainstSession,
  creationFingerprint,
  sessionUnauthorized,
  TOKEN_SHAPE,
  upstreamRequest,
} from './onboarding-rules.js';

export interface OnboardingServiceDeps {
  store: Store;
  upstream: Pick<UpstreamClient, 'createOnboarding'>;
  poller: Pick<StatusPoller, 'track'>;
  environment: string;
  documentFileTypes: Record<ImageRoleName, string>;
  /** Sessions, when the backend routes are on. */
  sessions?: SessionService;
  /** Refuse creations without a session (401). */
  sessionsRequired?: boolean;
  /** Runs a session's instant checks once its onboarding is created. */
  checks?: Pick<CheckService, 'start'>;
  /** Records a session's capture integrity once its onboarding is created. */
  integrity?: Pick<IntegrityService, 'verify'>;
}

/** Who creates: the page holding a session, or nobody in particular when sessions are optional. */
export interface Creator {
  session: SessionRecord | null;
  caller: PageCaller | null;
}

export interface CreationRequest extends Creator {
  /** What the creation took before its body was read (`claim`). */
  slot: Slot;
  valid: ValidCreateOnboardingBytes;
  idempotencyKey?: string;
  /** The request's logger. */
  log: Logger;
  /** Told of the upstream body before it goes (what it is made of is freed once it is written out). */
  sending(encoded: EncodedJson): void;
  /** Called once the upstream has answered, whatever it answered. */
  upstreamDone(): void;
}

export type CreationOutcome =
  | { kind: 'created'; answer: CreateOnboardingResponse; logFields: LogFields }
  | { kind: 'replayed'; answer: CreateOnboardingResponse };

/**
 * What a creation holds: the session it claimed before its body was read (or, with the key of the
 * session's onboarding, the replay to check once it is read), the key it reserved without a
 * session, and whether it went upstream (from then on, only the upstream's answer gives the claim back).
 */
export interface Slot {
  claimed?: SessionRecord;
  replayToCheck?: boolean;
  reservedKey?: string;
  sent?: boolean;
}

type UpstreamCreated = Awaited<ReturnType<UpstreamClient['createOnboarding']>>;

export class OnboardingService {
  constructor(private readonly deps: OnboardingServiceDeps) {}

  /** The record when the token exists and `presented` is one of its keys; otherwise the one 404. */
  async open(token: string, presented: string | undefined): Promise<OnboardingRecord> {
    const record = TOKEN_SHAPE.test(token) ? await this.deps.store.get(token) : null;
    if (!accessKeyOpens(presented, record)) throw notFound();
    return record!;
  }

  /**
   * Who may create: the page holding a session (its origin's client secret or capture token, or
   * the device it was handed off to), or anyone when sessions are optional.
   */
  async creator(presented: string | undefined): Promise<Creator> {
    const { sessions, sessionsRequired } = this.deps;
    const caller = presented !== undefined && sessions ? await sessions.authenticatePage(presented) : null;
    if (presented !== undefined && !caller) throw sessionUnauthorized();
    if (caller && !holds(caller.session, caller)) throw sessionHandedOff();
    const session = caller?.session ?? null;
    if (!session && sessionsRequired) {
      throw new DomainError('unauthorized', 'A session is required: the service provider opens one and gives the page its client secret.', {
        realm: 'onboarding-session',
      });
    }
    return { session, caller };
  }

  /**
   * One onboarding per session, taken before the body is read: the session's claim (a refusal
   * costs no upload, and a second creation on the session never reads its body), or with the key
   * of the session's onboarding, a replay to check against the body. Whatever fails before the
   * creation goes upstream gives the claim back (`abandon`).
   */
  async claim(creator: Creator, key: string | undefined): Promise<Slot> {
    const { session, caller } = creator;
    if (!session) return {};
    const claim = await this.deps.sessions!.claim(session, { ...(key && { idempotencyKey: key }), ...(caller && { caller }) });
    if (claim.kind === 'claimed') return { claimed: claim.session };
    return { replayToCheck: true };
  }

  /** A creation that failed before it went upstream: its claim, or its key, may be used again at once. */
  async abandon(slot: Slot): Promise<void> {
    if (slot.sent) return;
    slot.sent = true;
    if (slot.claimed) await this.deps.sessions!.release(slot.claimed);
    if (slot.reservedKey) await this.deps.store.releaseIdempotencyKey(slot.reservedKey).catch(() => undefined);
  }

  async create(asked: CreationRequest): Promise<CreationOutcome> {
    const request = asked.session
      ? { ...asked, valid: withCarriedName(withSessionName(asked.valid, asked.session), asked.session) }
      : asked;
    const { valid, session, slot } = request;
    const taxId = maskTaxId(valid.taxId.value);
    if (session) checkAgainstSession(valid, session);
    // Computed before the images go: it is what a replay is told apart by.
    const print = session || request.idempotencyKey ? creationFingerprint(valid) : '';
    const replayed = await this.checkReplay(request, print);
    if (replayed) return replayed;
    // Copied before the creation lets the photos go: the checks run on them after the answer.
    const checkInput = slot.claimed && this.deps.checks ? checkInputOf(valid, slot.claimed) : undefined;
    const received = slot.claimed && this.deps.integrity ? receivedItems(valid) : undefined;
    const created = await this.createUpstream(request, slot, taxId);
    return this.recordCreated(request, slot, created, { taxId, print, ...(checkInput && { checkInput }), ...(received && { received }) });
  }

  /** With its body read: a replay gets the same onboarding; without a session, the Idempotency-Key is reserved. */
  private async checkReplay(request: CreationRequest, print: string): Promise<CreationOutcome | undefined> {
    const { store, sessions } = this.deps;
    const { valid, session, caller, idempotencyKey: key, log, slot } = request;
    if (session) {
      if (!slot.replayToCheck) return undefined;
      const claim = await sessions!.claim(session, { ...(key && { idempotencyKey: key }), fingerprint: print, ...(caller && { caller }) });
      if (claim.kind === 'replay') return this.replay(claim.tokenOnboarding, valid, log);
      if (claim.kind === 'claimed') slot.claimed = claim.session;
      return undefined;
    }
    if (!key) return undefined;
    const reservedKey = `onboarding:${key}`;
    const held = await store.reserveIdempotencyKey(reservedKey, print, { ttlMs: IDEMPOTENCY_TTL_MS, pendingTtlMs: CREATION_HOLD_MS });
    if (held.state === 'reserved') {
      slot.reservedKey = reservedKey;
      return undefined;
    }
    if (held.fingerprint !== print) throw idempotencyConflict();
    if (held.state === 'pending') throw idempotencyInProgress();
    return this.replay(held.result, valid, log);
  }

  /** The upstream's creation; when it fails, the slot is given back. */
  private async createUpstream(request: CreationRequest, slot: Slot, taxId: string) {
    const { store, sessions } = this.deps;
    const { valid, log } = request;
    const { claimed, reservedKey } = slot;
    const encoded = upstreamRequest(valid, this.deps.documentFileTypes);
    slot.sent = true;
    request.sending(encoded);
    try {
      return await this.deps.upstream.createOnboarding(encoded);
    } catch (e) {
      // Nothing was created: the session, or the key, may be used again.
      if (claimed) await sessions!.release(claimed);
      if (reservedKey) await store.releaseIdempotencyKey(reservedKey).catch(() => undefined);
      if (!isUpstreamError(e)) throw e;
      log.warn('onboarding creation failed upstream', {
        op: e.operation,
        kind: e.kind,
        httpStatus: e.httpStatus,
        upstreamCode: e.code,
        externalId: e.externalId,
        taxId,
      });
      throw fromUpstream(e, this.deps.environment);
    } finally {
      // Personal data is kept no longer than needed: the images go as soon as the upstream has them.
      valid.images = {};
      delete valid.proofOfAddress;
      encoded.settle();
      request.upstreamDone();
    }
  }

  /** The record of an onboarding the upstream created, its slot completed, and the page's answer. */
  private async recordCreated(
    request: CreationRequest,
    { claimed, reservedKey }: Slot,
    created: UpstreamCreated,
    { taxId, print, checkInput, received }: { taxId: string; print: string; checkInput?: CheckInput; received?: ReceivedItem[] },
  ): Promise<CreationOutcome> {
    const { store, sessions } = this.deps;
    const accessKey = newAccessKey();
    const record = await this.storeRecord(request, created, accessKey, claimed);
    if (reservedKey) await store.completeIdempotencyKey(reservedKey, created.tokenOnboarding, IDEMPOTENCY_TTL_MS);
    const { documentReading: reading, integrity: claim } = request.valid;
    const integrity = claimed && received ? await this.deps.integrity!.verify(claimed, claim, received) : undefined;
    if (claimed) await sessions!.submitted(claimed, record, print, { ...(reading && { reading }), ...(integrity && { integrity }) });
    if (claimed?.checks && checkInput) this.deps.checks?.start(claimed.id, claimed.checks.requested, checkInput);
    this.deps.poller.track(created.tokenOnboarding);
    const answer: CreateOnboardingResponse = {
      tokenOnboarding: created.tokenOnboarding,
      status: 'IN_PROCESS',
      ...(created.dateHourProcess !== undefined && { dateHourProcess: created.dateHourProcess }),
      accessKey,
    };
    return {
      kind: 'created',
      answer,
      logFields: { tokenOnboarding: created.tokenOnboarding, taxId, ...(claimed && { sessionId: claimed.id }) },
    };
  }

  private async storeRecord(
    { log, valid }: CreationRequest,
    created: UpstreamCreated,
    accessKey: string,
    claimed: SessionRecord | undefined,
  ): Promise<OnboardingRecord> {
    // A store that fails here answers 503 after the upstream created the onboarding: that one is
    // orphaned (its access key is lost with this request), and a page that tries again creates a
    // second (unless it sent an Idempotency-Key, or holds a session: the claim then stands until
    // it lapses). The record may even land late (a Redis command that timed out can still run):
    // it then stays IN_PROCESS, polled after a scan takes it over, until the retention sweep.
    // Nothing upstream can be undone, so this is accepted.
    try {
      return await this.deps.store.create({
        tokenOnboarding: created.tokenOnboarding,
        status: 'IN_PROCESS',
        createdAt: new Date().toISOString(),
        accessKeyHash: hashSecret(accessKey),
        ...(claimed && { sessionId: claimed.id }),
        ...(valid.keptAnyway && { keptAnyway: valid.keptAnyway }),
      });
    } catch (error) {
      // The one trace an operator has to reconcile the orphan with the upstream's own records.
      log.error('onboarding created upstream but not stored', {
        tokenOnboarding: created.tokenOnboarding,
        ...(claimed && { sessionId: claimed.id }),
        error,
      });
      throw error;
    }
  }

  /** A repeated creation: the same onboarding with a new access key (earlier keys stay valid). */
  private async replay(token: string, valid: ValidCreateOnboardingBytes, log: Logger): Promise<CreationOutcome> {
    valid.images = {};
    const record = await this.deps.store.get(token);
    const accessKey = newAccessKey();
    // Gone by retention: the key outlived its onboarding, and there is nothing to open any more.
    if (!record || !(await this.deps.store.addAccessKey(token, hashSecret(accessKey)))) throw idempotencyConflict();
    log.info('onboarding creation replayed', { tokenOnboarding: token });
    return { kind: 'replayed', answer: { tokenOnboarding: token, status: record.status, accessKey } };
  }
}
