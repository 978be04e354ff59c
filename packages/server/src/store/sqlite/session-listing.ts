/**
 * `GET /v1/sessions` in SQLite: the query of each shape of listing (which filters it has), built
 * once and prepared once per connection, reading the index of its shape (schema version 5) in
 * the order of rules/session-list.ts: `created_ms` then `id`, both descending.
 */
import type { SessionQuery } from '../backend-state.js';
import type { Db, Statement } from './statements.js';

/** The query of `q`'s shape and its parameters, in order. */
export function listingQuery(q: SessionQuery): { shape: string; sql: string; params: unknown[] } {
  const where: string[] = [];
  const params: unknown[] = [];
  const add = (clause: string, ...values: unknown[]) => {
    where.push(clause);
    params.push(...values);
  };
  if (q.reference !== undefined) add('reference = ?', q.reference);
  if (q.status !== undefined) add('status = ?', q.status);
  if (q.createdAfterMs !== undefined) add('created_ms > ?', q.createdAfterMs);
  if (q.createdBeforeMs !== undefined) add('created_ms < ?', q.createdBeforeMs);
  if (q.after !== undefined) add('(created_ms < ? OR (created_ms = ? AND id < ?))', q.after.createdMs, q.after.createdMs, q.after.id);
  // A range on the primary key: every id that starts with the prefix sorts between it and it followed by 'g', past any hex digit.
  if (q.idPrefix !== undefined) add('id >= ? AND id < ?', q.idPrefix, `${q.idPrefix}g`);
  params.push(q.limit);
  const filter = where.length > 0 ? ` WHERE ${where.join(' AND ')}` : '';
  return {
    shape: where.join('|'),
    sql: `SELECT version, body FROM sessions${filter} ORDER BY created_ms DESC, id DESC LIMIT ?`,
    params,
  };
}

/** Prepared listing statements of one connection, by shape (at most 64 shapes exist). */
export class ListingStatements {
  readonly #prepared = new Map<string, Statement>();

  constructor(private readonly db: Db) {}

  statement(shape: string, sql: string): Statement {
    let s = this.#prepared.get(shape);
    if (!s) {
      s = this.db.prepare(sql) as unknown as Statement;
      this.#prepared.set(shape, s);
    }
    return s;
  }
}
