/**
 * The Redis backend's notification outbox. Keys, under the store's prefix: `outbox:<id>`: hash of
 * `base` (what never changes, JSON), `try` (what each try sets, JSON), `state`, `createdMs`,
 * `member`; sorted sets `outbox:state:<state>` by creation time, `outbox:due` (pending only) by
 * next try, `outbox:settled` (delivered, failed) by last change; counter `outbox:seq`. No TTL: a
 * pending notification must not vanish; the purge removes settled ones.
 */
import type { OutboxEntry, OutboxState, OutboxUpdate } from '../backend-state.js';
import { msOf } from '../rules/iso-time.js';
import { applyOutboxUpdate, isDue, listed, outboxBase, outboxChangedMs, outboxTry } from '../rules/outbox.js';
import type { StorePrimitives } from '../core/primitives.js';
import { PAGE, idOf, optionalMs, type RedisContext } from './context.js';
import type { RedisKeys } from './keys.js';
import { ENQUEUE, OUTBOX_STATES, PURGE_OUTBOX, REWRITE_OUTBOX_BODY, UPDATE_OUTBOX } from './scripts/outbox-scripts.js';

type OutboxPrimitives = Pick<
  StorePrimitives,
  'insertEntry' | 'dueEntries' | 'updateEntry' | 'getEntry' | 'rewriteEntryBody' | 'listEntries'
> & {
  /** Deletes settled entries last changed before the cutoff; returns how many. */
  purgeEntries(outboxBeforeMs: number): Promise<number>;
};

/** A state as the scripts name it: its 1-based position among the state sets. */
const position = (state: OutboxState): string => String(OUTBOX_STATES.indexOf(state) + 1);

/** Keys of the outbox scripts: entry, due, settled, then the state sets. */
const outboxKeys = (keys: RedisKeys, id: string): string[] => [
  keys.k(`outbox:${id}`),
  keys.k('outbox:due'),
  keys.k('outbox:settled'),
  ...OUTBOX_STATES.map((s) => keys.k(`outbox:state:${s}`)),
];

/** The entries of these ids, in their order (null where there is none), read in one round trip. */
async function readEntries({ conn, keys }: RedisContext, ids: string[]): Promise<(OutboxEntry | null)[]> {
  if (ids.length === 0) return [];
  const m = conn.client.multi();
  for (const id of ids) m.hmGet(keys.k(`outbox:${id}`), ['base', 'try']);
  const rows = (await m.execAsPipeline()) as unknown as (string | null)[][];
  return rows.map(([base, tried]) =>
    base && tried ? applyOutboxUpdate(JSON.parse(base) as OutboxEntry, JSON.parse(tried) as OutboxUpdate) : null,
  );
}

/** Pending entries due by `nowMs`, at most `limit`, in queue order. */
function dueEntries(ctx: RedisContext, nowMs: number, limit: number): Promise<OutboxEntry[]> {
  const { conn, keys } = ctx;
  return conn.op(async () => {
    const due = await conn.client.zRange(keys.k('outbox:due'), '-inf', nowMs, { BY: 'SCORE' });
    if (due.length === 0) return [];
    // Due by next try, served by queue order: creation time, then the insertion number the member starts with.
    const created = await conn.client.zmScore(keys.k('outbox:state:pending'), due);
    const order = due
      .map((member, i) => ({ member, created: created[i] }))
      .filter((x): x is { member: string; created: number } => x.created !== null && x.created !== undefined)
      .sort((x, y) => x.created - y.created || (x.member < y.member ? -1 : 1));
    // Members whose entry is gone or says later take no place: read on until `limit` are due or none is left.
    const out: OutboxEntry[] = [];
    let from = 0;
    while (from < order.length && out.length < limit) {
      const batch = order.slice(from, from + limit - out.length).map((x) => idOf(x.member));
      from += batch.length;
      for (const e of await readEntries(ctx, batch)) if (e !== null && isDue(e, nowMs)) out.push(e);
    }
    return out;
  });
}

/** Entries in `state` that the listing rule keeps (`failingOnly`: pending ones with tries), newest first, at most `limit`. */
function listEntries(ctx: RedisContext, state: OutboxState, failingOnly: boolean, limit: number): Promise<OutboxEntry[]> {
  const { conn, keys } = ctx;
  return conn.op(async () => {
    const out: OutboxEntry[] = [];
    for (let offset = 0; out.length < limit; offset += PAGE) {
      const members = await conn.client.zRange(keys.k(`outbox:state:${state}`), '+inf', '-inf', {
        BY: 'SCORE',
        REV: true,
        LIMIT: { offset, count: PAGE },
      });
      for (const e of await readEntries(ctx, members.map(idOf))) if (e && listed(e, state, failingOnly) && out.length < limit) out.push(e);
      if (members.length < PAGE) break;
    }
    return out;
  });
}

export function outboxPrimitives(ctx: RedisContext): OutboxPrimitives {
  const { conn, keys } = ctx;
  const { client } = conn;

  return {
    async insertEntry(e: OutboxEntry): Promise<boolean> {
      const queued = await conn.run(
        ENQUEUE,
        [...outboxKeys(keys, e.id), keys.k('outbox:seq')],
        [
          e.state,
          position(e.state),
          String(msOf(e.createdAt)),
          String(e.nextAttemptMs),
          String(outboxChangedMs(e)),
          JSON.stringify(outboxBase(e)),
          JSON.stringify(outboxTry(e)),
          e.id,
        ],
      );
      return Number(queued) === 1;
    },

    dueEntries: (nowMs, limit) => dueEntries(ctx, nowMs, limit),

    async updateEntry(id: string, u: OutboxUpdate): Promise<boolean> {
      const written = await conn.run(UPDATE_OUTBOX, outboxKeys(keys, id), [
        u.state,
        position(u.state),
        String(u.nextAttemptMs),
        optionalMs(u.deliveredAt ?? u.lastAttemptAt),
        JSON.stringify(u),
      ]);
      return Number(written) === 1;
    },

    async getEntry(id: string): Promise<OutboxEntry | null> {
      return (await conn.op(() => readEntries(ctx, [id])))[0] ?? null;
    },

    async rewriteEntryBody(id: string, body: string): Promise<boolean> {
      return Number(await conn.run(REWRITE_OUTBOX_BODY, [keys.k(`outbox:${id}`)], [body])) === 1;
    },

    listEntries: (state, failingOnly, limit) => listEntries(ctx, state, failingOnly, limit),

    async purgeEntries(outboxBeforeMs: number): Promise<number> {
      const settled = await conn.op(() => client.zRange(keys.k('outbox:settled'), '-inf', `(${outboxBeforeMs}`, { BY: 'SCORE' }));
      let gone = 0;
      for (let i = 0; i < settled.length; i += PAGE) {
        const flags = await Promise.all(
          settled.slice(i, i + PAGE).map((m) => conn.run(PURGE_OUTBOX, outboxKeys(keys, idOf(m)), [m, String(outboxBeforeMs)])),
        );
        gone += flags.filter((f) => Number(f) === 1).length;
      }
      return gone;
    },
  };
}
