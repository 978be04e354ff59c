/**
 * The Redis backend's standalone query requests. Keys, under the store's prefix: `query:<id>`:
 * hash of `body` (the request without its outcome, JSON), `status` and `outcome` (sealed at
 * rest); `query-key:<key>`: the id of the key's newest request; sorted sets `queries:due`
 * (pending, by next check), `queries:outcomes` (held outcomes, by completion) and
 * `queries:created` (every request, by creation), which retention reads. No TTL: retention purges.
 */
import type { StorePrimitives } from '../core/primitives.js';
import { msOf } from '../rules/iso-time.js';
import { endQuery, queryDue, rescheduled, withoutOutcome, type QueryCutoffs, type StoredQueryRequest } from '../rules/query-requests.js';
import { optionalMs, PAGE, type RedisContext } from './context.js';
import { DELETE_QUERY, ERASE_QUERY_OUTCOME, INSERT_QUERY, WRITE_PENDING_QUERY } from './scripts/query-scripts.js';

type QueryPrimitives = Pick<
  StorePrimitives,
  'insertQuery' | 'getQuery' | 'queryByKey' | 'endQuery' | 'rescheduleQuery' | 'dueQueries' | 'purgeQueries'
>;

const bodyOf = (r: StoredQueryRequest): string => {
  const { outcome: _outcome, ...rest } = r;
  return JSON.stringify(rest);
};

/** The key names of ./query-requests.ts's records and indexes. */
function queryKeys({ keys }: RedisContext) {
  return {
    request: (id: string) => keys.k(`query:${id}`),
    pointer: (key: string | undefined) => keys.k(`query-key:${key ?? ''}`),
    due: keys.k('queries:due'),
    outcomes: keys.k('queries:outcomes'),
    created: keys.k('queries:created'),
  };
}

async function read(ctx: RedisContext, id: string): Promise<StoredQueryRequest | null> {
  const [body, outcome] = await ctx.conn.client.hmGet(queryKeys(ctx).request(id), ['body', 'outcome']);
  if (!body) return null;
  const rest = JSON.parse(body) as StoredQueryRequest;
  return outcome ? { ...rest, outcome } : rest;
}

/** Reads, lets the rule decide, and writes only if the request is still pending. */
async function writePending(ctx: RedisContext, id: string, decide: (r: StoredQueryRequest) => StoredQueryRequest | null): Promise<boolean> {
  const { conn } = ctx;
  const k = queryKeys(ctx);
  const next = await conn.op(async () => {
    const current = await read(ctx, id);
    return current && decide(current);
  });
  if (!next) return false;
  const written = await conn.run(
    WRITE_PENDING_QUERY,
    [k.request(id), k.due, k.outcomes],
    [
      bodyOf(next),
      next.status,
      next.outcome ?? '',
      next.status === 'pending' && next.nextCheckMs !== undefined ? String(next.nextCheckMs) : '',
      optionalMs(next.completedAt),
      id,
    ],
  );
  return Number(written) === 1;
}

/** Deletes the requests created before the cutoff, then erases the outcomes held since before theirs. */
async function purgeQueries(ctx: RedisContext, { outcomesCompletedBeforeMs, createdBeforeMs }: QueryCutoffs, at: string): Promise<number> {
  const { conn } = ctx;
  const k = queryKeys(ctx);
  let touched = 0;
  const old = await conn.op(() => conn.client.zRange(k.created, '-inf', `(${createdBeforeMs}`, { BY: 'SCORE' }));
  for (let i = 0; i < old.length; i += PAGE) {
    const flags = await Promise.all(
      old.slice(i, i + PAGE).map(async (id) => {
        const r = await conn.op(() => read(ctx, id));
        return conn.run(DELETE_QUERY, [k.request(id), k.pointer(r?.key), k.due, k.outcomes, k.created], [id, String(createdBeforeMs)]);
      }),
    );
    touched += flags.filter((f) => Number(f) === 1).length;
  }
  const held = await conn.op(() => conn.client.zRange(k.outcomes, '-inf', `(${outcomesCompletedBeforeMs}`, { BY: 'SCORE' }));
  for (let i = 0; i < held.length; i += PAGE) {
    const flags = await Promise.all(
      held.slice(i, i + PAGE).map(async (id) => {
        const r = await conn.op(() => read(ctx, id));
        if (!r) return 0;
        return conn.run(
          ERASE_QUERY_OUTCOME,
          [k.request(id), k.outcomes],
          [id, String(outcomesCompletedBeforeMs), bodyOf(withoutOutcome(r, at))],
        );
      }),
    );
    touched += flags.filter((f) => Number(f) === 1).length;
  }
  return touched;
}

export function queryPrimitives(ctx: RedisContext): QueryPrimitives {
  const { conn } = ctx;
  const k = queryKeys(ctx);
  return {
    async insertQuery(r) {
      const inserted = await conn.run(
        INSERT_QUERY,
        [k.request(r.id), k.pointer(r.key), k.due, k.outcomes, k.created],
        [
          bodyOf(r),
          r.status,
          r.outcome ?? '',
          r.nextCheckMs !== undefined ? String(r.nextCheckMs) : '',
          optionalMs(r.completedAt),
          r.id,
          String(msOf(r.createdAt)),
          r.key !== undefined ? '1' : '0',
        ],
      );
      return Number(inserted) === 1;
    },

    getQuery: (id) => conn.op(() => read(ctx, id)),

    queryByKey: (key) =>
      conn.op(async () => {
        const id = await conn.client.get(k.pointer(key));
        return id ? read(ctx, id) : null;
      }),

    endQuery: (id, end) => writePending(ctx, id, (r) => endQuery(r, end)),

    rescheduleQuery: (id, nextCheckMs, checks) => writePending(ctx, id, (r) => rescheduled(r, nextCheckMs, checks)),

    dueQueries: (nowMs, limit) =>
      conn.op(async () => {
        const ids = await conn.client.zRange(k.due, '-inf', nowMs, { BY: 'SCORE', LIMIT: { offset: 0, count: limit } });
        const found = await Promise.all(ids.map((id) => read(ctx, id)));
        return found.filter((r): r is StoredQueryRequest => r !== null && queryDue(r, nowMs));
      }),

    purgeQueries: (cutoffs, at) => purgeQueries(ctx, cutoffs, at),
  };
}
