/**
 * The hand-off of a session from the device that opened it (the origin) to another one
 * (docs/page-api.md#hand-off): a single-use link with a short code, claimed once by a device
 * that gets a secret of its own and becomes the session's holder; the origin follows, and may
 * take the session back while nothing has been sent. Every change is a compare-and-set on the
 * session's version, so of two devices claiming one link, or a claim racing a take-back, one wins.
 */
import { randomBytes } from 'node:crypto';
import {
  HANDOFF_CODE_ALPHABET,
  HANDOFF_LIMITS,
  normalizeHandoffCode,
  type HandoffClaim,
  type HandoffOffer,
  type SessionProgressReport,
} from '@onboarding-kit/contract';
import { hashSecret, keyMatches } from '../auth/access-key.js';
import { DomainError } from '../errors/domain-error.js';
import type { Logger } from '../logger.js';
import type { SessionHandoffAnswers, SessionRecord } from '../store/backend-state.js';
import { handoffKeyHash, holds, isOrigin, offerState, sessionHandedOff, withEvent, type PageCaller } from './handoff-rules.js';
import { countOffer } from './attempt-limits.js';
import { COMPANION_DEFAULTS } from '../config/defaults.js';
import type { SessionService } from '../sessions/session-service.js';
import { sessionCancelled, sessionExpired } from '../sessions/session-refusals.js';
import { effectiveStatus } from '../sessions/session-view.js';
import { claimLive } from '../store/index.js';

export interface HandoffServiceOptions {
  sessions: SessionService;
  logger: Logger;
  /** How long a link and its code live unused (default HANDOFF_LIMITS.ttlS; shorter only in tests). */
  ttlMs?: number;
  /** Offers one session may make within a link's life (default COMPANION_DEFAULTS.handoffOffersPerSession). */
  offersPerSession?: number;
}

/** What a claim presents: the link's token, or the short code as typed. */
export type ClaimInput = { token: string } | { code: string };

const handoffInvalid = () => new DomainError('handoff_invalid');
const handoffExpired = () => new DomainError('handoff_expired');
const handoffUsed = () => new DomainError('handoff_used');
const originOnly = () =>
  new DomainError('unauthorized', 'Only the page that opened this session can hand it off or take it back.', { status: 403 });
const alreadySent = () => new DomainError('session_used', 'This session has already been sent; it can no longer move between devices.');

/** Attempts at a unique live code before giving up (a clash is a one in ten billion event). */
const CODE_ATTEMPTS = 5;

export class HandoffService {
  readonly #sessions: SessionService;
  readonly #logger: Logger;
  readonly #ttlMs: number;
  readonly #offersPerSession: number;

  constructor(options: HandoffServiceOptions) {
    this.#sessions = options.sessions;
    this.#logger = options.logger;
    this.#ttlMs = options.ttlMs ?? HANDOFF_LIMITS.ttlS * 1000;
    this.#offersPerSession = options.offersPerSession ?? COMPANION_DEFAULTS.handoffOffersPerSession;
  }

  /**
   * `POST /v1/session/handoff`: a new link for the origin that holds an open, unsent session; any
   * earlier unused one stops working. `answers` (what the person answered here) replace any an
   * earlier offer carried; without them the phone is told none.
   */
  async offer(caller: PageCaller, origin: string, answers: SessionHandoffAnswers | null = null): Promise<HandoffOffer> {
    const store = this.#sessions.store;
    const { id } = caller.session;
    const check = (s: SessionRecord) => {
      if (!isOrigin(caller)) throw originOnly();
      if (!holds(s, caller)) throw sessionHandedOff();
      this.#requireUnsent(s);
    };
    check(caller.session);
    await countOffer(store, id, this.#offersPerSession).catch((error: unknown) => {
      this.#logger.warn('hand-off offers rate limited', { sessionId: id, limit: this.#offersPerSession });
      throw error;
    });
    const now = this.#sessions.now();
    const expiresAtMs = now + this.#ttlMs;
    const token = randomBytes(24).toString('base64url');
    const tokenHash = hashSecret(token);
    await store.putHandoffKey(handoffKeyHash('link', token), id, expiresAtMs);
    let code: string | undefined;
    for (let i = 0; i < CODE_ATTEMPTS && !code; i++) {
      const candidate = newHandoffCode();
      if (await store.putHandoffKey(handoffKeyHash('code', candidate), id, expiresAtMs)) code = candidate;
    }
    if (!code) throw new Error('no free hand-off code after several attempts');
    const codeHash = hashSecret(code);
    const expiresAt = new Date(expiresAtMs).toISOString();
    await this.#sessions.change(id, (s) => {
      check(s);
      const handoff = { ...s.handoff, offer: { tokenHash, codeHash, expiresAt, state: 'pending' as const } };
      const { handoffAnswers: _earlier, ...rest } = s;
      const next = { ...rest, handoff, ...(answers && { handoffAnswers: answers }) };
      return withEvent(next, { type: 'handoff.created', expiresAt }, new Date(this.#sessions.now()).toISOString());
    });
    this.#logger.info('hand-off offered', { sessionId: id, expiresAt, answers: answers !== null });
    const base = this.#sessions.publicBase(origin);
    return { url: `${base}/h/${token}`, shortUrl: `${base}/h`, code, expiresAt };
  }

  /**
   * `POST /v1/handoff/claim`: the link's token or short code, once, gives the device a secret of
   * its own, which then holds the session. The caller counts code attempts (rate limit) first.
   */
  async claim(input: ClaimInput): Promise<HandoffClaim> {
    const store = this.#sessions.store;
    const kind = 'token' in input ? 'link' : 'code';
    const presented = 'token' in input ? input.token : normalizeHandoffCode(input.code);
    if (!presented || presented.length > 128) throw handoffInvalid();
    // One store read, hit or miss: how long a guess takes must not tell a live code from an absent one.
    const first = await store.findHandoffSession(handoffKeyHash(kind, presented));
    if (!first) throw handoffInvalid();
    const sessionId = first.id;
    const matches = (s: SessionRecord) => {
      const offer = s.handoff?.offer;
      return keyMatches(presented, 'token' in input ? offer?.tokenHash : offer?.codeHash);
    };
    /** Throws what the link's state answers; returns whether it lapsed unused (then to be marked, and answered 410). */
    const judge = (s: SessionRecord): boolean => {
      if (!matches(s)) throw handoffInvalid();
      const now = this.#sessions.now();
      const state = offerState(s.handoff!.offer, now);
      if (state === 'claimed') throw handoffUsed();
      if (state === 'withdrawn') throw handoffInvalid();
      const status = effectiveStatus(s, now);
      if (status === 'expired') throw handoffExpired();
      if (status === 'cancelled') throw sessionCancelled();
      if (s.tokenOnboarding || status !== 'open' || claimLive(s, now, this.#sessions.claimTimeoutMs)) throw handoffUsed();
      return state === 'expired';
    };
    if (judge(first)) {
      await this.expireOfferIfDue(sessionId);
      throw handoffExpired();
    }
    const clientSecret = `${sessionId}_secret_${randomBytes(24).toString('base64url')}`;
    const deviceHash = hashSecret(clientSecret);
    // Known before the claim lands, so the winner's secret works the moment it does; a loser's holds nothing.
    if (!(await store.addSessionSecret(sessionId, 'device', deviceHash))) throw handoffInvalid();
    let lapsed = false;
    const claimed = await this.#sessions.change(sessionId, (s) => {
      lapsed = judge(s);
      if (lapsed) return null;
      const at = new Date(this.#sessions.now()).toISOString();
      return withEvent(
        { ...s, handoff: { offer: { ...s.handoff!.offer!, state: 'claimed' }, holderHash: deviceHash } },
        { type: 'handoff.claimed' },
        at,
      );
    });
    if (lapsed) await this.expireOfferIfDue(sessionId);
    if (lapsed || !claimed) throw handoffExpired();
    this.#logger.info('hand-off claimed', { sessionId });
    return { clientSecret, sessionId };
  }

  /** `POST /v1/session/handoff/reclaim`: the origin takes the session back (or withdraws a pending link) while nothing was sent. */
  async reclaim(caller: PageCaller): Promise<SessionRecord> {
    if (!isOrigin(caller)) throw originOnly();
    const changed = await this.#sessions.change(caller.session.id, (s) => {
      this.#requireUnsent(s);
      const offer = s.handoff?.offer;
      const pending = offerState(offer, this.#sessions.now()) === 'pending';
      if (s.handoff?.holderHash === undefined && !pending) return null;
      const handoff = { ...(offer && { offer: pending ? { ...offer, state: 'withdrawn' as const } : offer }) };
      // The answers were for the phone: back here, this page has its own.
      const { handoffAnswers: _carried, ...rest } = s;
      return withEvent({ ...rest, handoff }, { type: 'handoff.reclaimed' }, new Date(this.#sessions.now()).toISOString());
    });
    if (changed) this.#logger.info('hand-off taken back', { sessionId: changed.id });
    return changed ?? (await this.#sessions.store.getSession(caller.session.id)) ?? caller.session;
  }

  /** `POST /v1/session/progress`: the holder's latest step and photos, for the other device to follow. */
  async progress(caller: PageCaller, report: SessionProgressReport): Promise<void> {
    await this.#sessions.change(caller.session.id, (s) => {
      if (!holds(s, caller)) throw sessionHandedOff();
      if (effectiveStatus(s, this.#sessions.now()) !== 'open') return null;
      return withEvent(
        s,
        { type: 'capture.progress', step: report.step, photos: [...report.photos] },
        new Date(this.#sessions.now()).toISOString(),
      );
    });
  }

  /** Marks a pending link that lapsed unused as expired (`handoff.expired`), once across instances. */
  async expireOfferIfDue(id: string): Promise<void> {
    await this.#sessions.change(id, (s) => {
      const offer = s.handoff?.offer;
      return offer?.state === 'pending' && offerState(offer, this.#sessions.now()) === 'expired' ? this.#lapse(s) : null;
    });
  }

  #lapse(s: SessionRecord): SessionRecord {
    const handoff = { ...s.handoff, offer: { ...s.handoff!.offer!, state: 'expired' as const } };
    return withEvent({ ...s, handoff }, { type: 'handoff.expired' }, new Date(this.#sessions.now()).toISOString());
  }

  /** The session may still move: open, nothing sent, no creation under way. */
  #requireUnsent(s: SessionRecord): void {
    const now = this.#sessions.now();
    const status = effectiveStatus(s, now);
    if (status === 'expired') throw sessionExpired();
    if (status === 'cancelled') throw sessionCancelled();
    if (status !== 'open' || s.tokenOnboarding || claimLive(s, now, this.#sessions.claimTimeoutMs)) throw alreadySent();
  }
}

const CODE_SYMBOLS = [...HANDOFF_CODE_ALPHABET];

/** 8 symbols of the code alphabet, each uniform: bytes at or over the largest multiple of its size are drawn again. */
export function newHandoffCode(): string {
  const n = CODE_SYMBOLS.length;
  const limit = 256 - (256 % n);
  let code = '';
  while (code.length < HANDOFF_LIMITS.codeLength) {
    for (const b of randomBytes(HANDOFF_LIMITS.codeLength * 2)) {
      if (b < limit && code.length < HANDOFF_LIMITS.codeLength) code += CODE_SYMBOLS[b % n];
    }
  }
  return code;
}
