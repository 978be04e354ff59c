/** The Redis backend's onboarding primitives (key names: ./keys.ts). */
import { TERMINAL_STATUSES } from '@onboarding-kit/contract';
import type { OnboardingCutoffs } from '../rules/onboardings.js';
import { msOf } from '../rules/iso-time.js';
import type { StorePrimitives } from '../core/primitives.js';
import type { OnboardingRecord, StatusUpdate } from '../store.js';
import { PAGE, type RedisContext } from './context.js';
import { fromHash, MORE_KEY_FIELD, pairs, toHash } from './onboarding-hash.js';
import { ADD_ACCESS_KEY, APPLY_STATUS } from './scripts/onboarding-scripts.js';

type OnboardingPrimitives = Pick<
  StorePrimitives,
  'putOnboarding' | 'getOnboarding' | 'applyStatus' | 'addAccessKey' | 'listInProcess' | 'expireOnboardings'
>;

export function onboardingPrimitives(ctx: RedisContext): OnboardingPrimitives {
  const { conn, keys, instanceId, retention } = ctx;
  const { client } = conn;
  return {
    async putOnboarding(record: OnboardingRecord): Promise<void> {
      const token = record.tokenOnboarding;
      const key = keys.onboarding(token);
      const createdMs = msOf(record.createdAt);
      await conn.op(async () => {
        const m = client.multi().del(key).hSet(key, toHash(record));
        if (retention) m.pExpireAt(key, createdMs + retention.maxAgeMs);
        if (record.status === 'IN_PROCESS') m.sAdd(keys.inProcess, token);
        else m.sRem(keys.inProcess, token);
        m.zAdd(keys.created, { score: createdMs, value: token });
        if (record.finishedAt) m.zAdd(keys.finished, { score: msOf(record.finishedAt), value: token });
        else m.zRem(keys.finished, token);
        await m.exec();
      });
    },

    async getOnboarding(token: string): Promise<OnboardingRecord | null> {
      return fromHash(await conn.op(() => client.hGetAll(keys.onboarding(token))));
    },

    async applyStatus(token: string, update: StatusUpdate, at: string): Promise<{ record: OnboardingRecord; changed: boolean } | null> {
      const entry = JSON.stringify({ status: update.status, at, source: update.source });
      const reply = (await conn.run(
        APPLY_STATUS,
        [keys.onboarding(token), keys.inProcess, keys.finished],
        [
          token,
          update.status,
          at,
          String(msOf(at)),
          entry,
          update.externalId ?? '',
          TERMINAL_STATUSES.join(' '),
          keys.changes,
          instanceId,
          retention ? String(retention.finishedMs) : '',
        ],
      )) as [number, string[]] | null;
      const record = reply && fromHash(pairs(reply[1]));
      return record ? { record, changed: Number(reply[0]) === 1 } : null;
    },

    async addAccessKey(token: string, hash: string): Promise<boolean> {
      return Number(await conn.run(ADD_ACCESS_KEY, [keys.onboarding(token)], [MORE_KEY_FIELD + hash])) === 1;
    },

    listInProcess: () => listInProcess(ctx),

    expireOnboardings: (cutoffs) => expireOnboardings(ctx, cutoffs),
  };
}

/** The tokens of the onboardings still IN_PROCESS, dropping those whose record Redis expired. */
function listInProcess({ conn, keys }: RedisContext): Promise<string[]> {
  const { client } = conn;
  return conn.op(async () => {
    const tokens = await client.sMembers(keys.inProcess);
    if (tokens.length === 0) return [];
    const pipeline = client.multi();
    for (const t of tokens) pipeline.exists(keys.onboarding(t));
    const exists = (await pipeline.execAsPipeline()) as unknown as number[];
    // A record Redis expired by its TTL leaves its token behind in the set: drop it there too.
    const gone = tokens.filter((_, i) => Number(exists[i]) === 0);
    if (gone.length) await client.sRem(keys.inProcess, gone);
    return tokens.filter((_, i) => Number(exists[i]) === 1);
  });
}

/** Deletes the onboardings the cutoffs name, with their index entries, a page per transaction; returns how many. */
function expireOnboardings({ conn, keys }: RedisContext, { finishedBeforeMs, createdBeforeMs }: OnboardingCutoffs): Promise<number> {
  const { client } = conn;
  return conn.op(async () => {
    const [old, finished] = await Promise.all([
      client.zRange(keys.created, '-inf', `(${createdBeforeMs}`, { BY: 'SCORE' }),
      client.zRange(keys.finished, '-inf', `(${finishedBeforeMs}`, { BY: 'SCORE' }),
    ]);
    const tokens = [...new Set([...old, ...finished])];
    let deleted = 0;
    for (let i = 0; i < tokens.length; i += PAGE) {
      const m = client.multi();
      for (const t of tokens.slice(i, i + PAGE))
        m.del(keys.onboarding(t)).sRem(keys.inProcess, t).zRem(keys.created, t).zRem(keys.finished, t);
      const replies = (await m.exec()) as unknown as number[];
      // Every fourth reply is a DEL: count the records that were still there (TTLs may have taken some).
      for (let j = 0; j < replies.length; j += 4) deleted += Number(replies[j]);
    }
    return deleted;
  });
}
