/**
 * `GET /v1/sessions` in Redis. `sessions:listing` holds every session as `<created ms, 15 digits>:<id>`
 * at one score, so its lexical order is the listing's (rules/session-list.ts) and a page starts
 * right after the cursor in one range read; a reference's listing reads its own, small, sorted set
 * (`sessions:reference:<reference>`, by creation time) and orders it here. Members whose session
 * Redis expired are dropped as met, as the other indexes' are.
 */
import type { SessionQuery, SessionRecord } from '../backend-state.js';
import { listedAfter, listedBy, listingOrder, type SessionPosition } from '../rules/session-list.js';
import { PAGE, idOf, type RedisContext } from './context.js';
import { FILL_LISTING } from './scripts/session-scripts.js';

const digits = (ms: number): string => String(Math.max(0, Math.trunc(ms))).padStart(15, '0');
const listingMember = (p: SessionPosition): string => `${digits(p.createdMs)}:${p.id}`;
const positionOfMember = (member: string): SessionPosition => ({ createdMs: Number(member.slice(0, 15)), id: member.slice(16) });

/** The lexical range of `q` in `sessions:listing`, highest first; null when nothing can match. */
function lexRange(q: SessionQuery): { max: string; min: string } | null {
  const uppers: string[] = [];
  if (q.after) uppers.push(`(${listingMember(q.after)}`);
  if (q.createdBeforeMs !== undefined) {
    if (q.createdBeforeMs <= 0) return null;
    uppers.push(`(${digits(q.createdBeforeMs)}`);
  }
  // The lower of two exclusive bounds is the one to keep ('(' sorts the same in both).
  const max = uppers.length === 0 ? '+' : uppers.sort()[0]!;
  const min = q.createdAfterMs === undefined || q.createdAfterMs < 0 ? '-' : `[${digits(q.createdAfterMs + 1)}`;
  return { max, min };
}

/** The sessions of these ids in order, null where Redis expired one. */
async function bodies({ conn, keys }: RedisContext, ids: string[]): Promise<(SessionRecord | null)[]> {
  if (ids.length === 0) return [];
  const m = conn.client.multi();
  for (const id of ids) m.hGet(keys.k(`session:${id}`), 'body');
  const found = (await m.execAsPipeline()) as unknown as (string | null)[];
  return found.map((b) => (b ? (JSON.parse(b) as SessionRecord) : null));
}

async function allSessions(ctx: RedisContext, q: SessionQuery): Promise<SessionRecord[]> {
  const { conn, keys } = ctx;
  const range = lexRange(q);
  if (!range) return [];
  const key = keys.k('sessions:listing');
  await conn.script(FILL_LISTING, [], [keys.prefix]);
  const out: SessionRecord[] = [];
  let max = range.max;
  while (out.length < q.limit) {
    const members = await conn.client.zRange(key, max, range.min, { BY: 'LEX', REV: true, LIMIT: { offset: 0, count: PAGE } });
    if (members.length === 0) break;
    const found = await bodies(
      ctx,
      members.map((m) => positionOfMember(m).id),
    );
    const lapsed = members.filter((_, i) => !found[i]);
    if (lapsed.length > 0) await conn.client.zRem(key, lapsed);
    for (const s of found) if (s && listedBy(s, q) && out.length < q.limit) out.push(s);
    if (members.length < PAGE) break;
    max = `(${members[members.length - 1]!}`;
  }
  return out;
}

async function referenceSessions(ctx: RedisContext, q: SessionQuery & { reference: string }): Promise<SessionRecord[]> {
  const { conn, keys } = ctx;
  const key = keys.k(`sessions:reference:${q.reference}`);
  const scored = await conn.client.zRangeWithScores(
    key,
    q.createdBeforeMs === undefined ? '+inf' : `(${q.createdBeforeMs}`,
    q.createdAfterMs === undefined ? '-inf' : `(${q.createdAfterMs}`,
    {
      BY: 'SCORE',
      REV: true,
    },
  );
  const candidates = scored
    .map(({ value, score }) => ({ member: value, p: { createdMs: score, id: idOf(value) } }))
    .filter(({ p }) => q.after === undefined || listedAfter(p, q.after))
    .sort((x, y) => listingOrder(x.p, y.p));
  const out: SessionRecord[] = [];
  for (let i = 0; i < candidates.length && out.length < q.limit; i += PAGE) {
    const chunk = candidates.slice(i, i + PAGE);
    const found = await bodies(
      ctx,
      chunk.map((c) => c.p.id),
    );
    const lapsed = chunk.filter((_, j) => !found[j]).map((c) => c.member);
    if (lapsed.length > 0) await conn.client.zRem(key, lapsed);
    for (const s of found) if (s && listedBy(s, q) && out.length < q.limit) out.push(s);
  }
  return out;
}

/** rules/session-list.ts `pageOf`, read from the indexes. */
export function sessionsPage(ctx: RedisContext, q: SessionQuery): Promise<SessionRecord[]> {
  return ctx.conn.op(() => (q.reference !== undefined ? referenceSessions(ctx, { ...q, reference: q.reference }) : allSessions(ctx, q)));
}
