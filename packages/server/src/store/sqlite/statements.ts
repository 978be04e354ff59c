/** The SQLite backend's statements, prepared once per connection (tables: ./schema.ts). */
import type Database from 'libsql';

export type Db = Database.Database;

const OUTBOX_COLUMNS = 'id, type, body, order_key, created_at, state, attempts, next_attempt_ms, last_attempt_at, last_error, delivered_at';

/** What the backend uses of a prepared statement. */
export interface Statement {
  run(...params: unknown[]): { changes: number };
  get(...params: unknown[]): unknown;
  all(...params: unknown[]): unknown[];
}

const SQL = {
  ping: 'SELECT 1 AS ok',
  getOnboarding:
    'SELECT token, status, created_at, updated_at, external_id, access_key_hash, finished_at, session_id, kept_anyway FROM onboardings WHERE token = ?',
  getHistory: 'SELECT status, at, source FROM status_history WHERE token = ? ORDER BY seq',
  insertOnboarding: `INSERT INTO onboardings (token, status, created_at, created_ms, updated_at, external_id, access_key_hash, finished_at, finished_ms, session_id, kept_anyway)
    VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
  insertHistory: 'INSERT INTO status_history (token, seq, status, at, source) VALUES (?, ?, ?, ?, ?)',
  deleteOnboarding: 'DELETE FROM onboardings WHERE token = ?',
  deleteHistory: 'DELETE FROM status_history WHERE token = ?',
  updateStatus: 'UPDATE onboardings SET status = ?, updated_at = ?, external_id = ?, finished_at = ?, finished_ms = ? WHERE token = ?',
  updateExternalId: 'UPDATE onboardings SET external_id = ? WHERE token = ?',
  inProcess: "SELECT token FROM onboardings WHERE status = 'IN_PROCESS'",
  expireHistory: 'DELETE FROM status_history WHERE token IN (SELECT token FROM onboardings WHERE finished_ms < ?1 OR created_ms < ?2)',
  expireAccessKeys:
    'DELETE FROM onboarding_access_keys WHERE token IN (SELECT token FROM onboardings WHERE finished_ms < ?1 OR created_ms < ?2)',
  expireOnboardings: 'DELETE FROM onboardings WHERE finished_ms < ?1 OR created_ms < ?2',
  getAccessKeys: 'SELECT hash FROM onboarding_access_keys WHERE token = ? ORDER BY rowid',
  insertAccessKey: 'INSERT OR IGNORE INTO onboarding_access_keys (token, hash) VALUES (?, ?)',
  deleteAccessKeys: 'DELETE FROM onboarding_access_keys WHERE token = ?',

  getLease: 'SELECT owner, expires_ms FROM leases WHERE name = ?',
  putLease:
    'INSERT INTO leases (name, owner, expires_ms) VALUES (?1, ?2, ?3) ON CONFLICT (name) DO UPDATE SET owner = excluded.owner, expires_ms = excluded.expires_ms',
  deleteLease: 'DELETE FROM leases WHERE name = ?',
  sweepLeases: 'DELETE FROM leases WHERE expires_ms <= ?',
  getWindow: 'SELECT count, reset_ms FROM rate_windows WHERE key = ?',
  putWindow:
    'INSERT INTO rate_windows (key, count, reset_ms) VALUES (?1, ?2, ?3) ON CONFLICT (key) DO UPDATE SET count = excluded.count, reset_ms = excluded.reset_ms',
  sweepWindows: 'DELETE FROM rate_windows WHERE reset_ms <= ?',
  getPlaces: 'SELECT holder, expires_ms FROM places WHERE key = ?',
  deletePlaces: 'DELETE FROM places WHERE key = ?',
  insertPlace: 'INSERT INTO places (key, holder, expires_ms) VALUES (?, ?, ?)',
  sweepPlaces: 'DELETE FROM places WHERE expires_ms <= ?',

  insertSession:
    'INSERT OR IGNORE INTO sessions (id, version, reference, status, created_ms, expires_ms, ended_ms, body) VALUES (?, ?, ?, ?, ?, ?, ?, ?)',
  getSession: 'SELECT version, body FROM sessions WHERE id = ?',
  replaceSession:
    'UPDATE sessions SET version = ?1, reference = ?2, status = ?3, created_ms = ?4, expires_ms = ?5, ended_ms = ?6, body = ?7 WHERE id = ?8',
  sessionsByReference: 'SELECT version, body FROM sessions WHERE reference = ? ORDER BY created_ms DESC, rowid DESC LIMIT ?',
  sessionsByStatus: 'SELECT version, body FROM sessions WHERE status = ?1 AND expires_ms < ?2 ORDER BY expires_ms, rowid LIMIT ?3',
  // A hash already issued keeps its first owner (128 random bits: only a replayed call repeats one).
  insertSecret: 'INSERT OR IGNORE INTO session_secrets (hash, kind, session_id) VALUES (?, ?, ?)',
  getSecret: 'SELECT kind, session_id FROM session_secrets WHERE hash = ?',
  purgeSecrets: 'DELETE FROM session_secrets WHERE session_id IN (SELECT id FROM sessions WHERE ended_ms < ?1 OR created_ms < ?2)',
  purgeSessions: 'DELETE FROM sessions WHERE ended_ms < ?1 OR created_ms < ?2',
  getHandoffKey: 'SELECT session_id, live_until_ms FROM handoff_keys WHERE hash = ?',
  // One probe of each primary key, hit or miss: an absent key looks up the session '' (none has it).
  getHandoffSession: `SELECT version, body FROM sessions WHERE id = coalesce((SELECT session_id FROM handoff_keys WHERE hash = ?), '')`,
  putHandoffKey: `INSERT INTO handoff_keys (hash, session_id, live_until_ms) VALUES (?1, ?2, ?3)
    ON CONFLICT (hash) DO UPDATE SET session_id = excluded.session_id, live_until_ms = excluded.live_until_ms`,
  revokeSecrets: 'DELETE FROM session_secrets WHERE session_id = ?',
  revokeHandoffKeys: 'DELETE FROM handoff_keys WHERE session_id = ?',
  purgeHandoffKeys: 'DELETE FROM handoff_keys WHERE session_id IN (SELECT id FROM sessions WHERE ended_ms < ?1 OR created_ms < ?2)',

  getIdempotency: 'SELECT fingerprint, result, expires_ms FROM idempotency_keys WHERE key = ?',
  putIdempotency: `INSERT INTO idempotency_keys (key, fingerprint, result, expires_ms) VALUES (?1, ?2, ?3, ?4)
    ON CONFLICT (key) DO UPDATE SET fingerprint = excluded.fingerprint, result = excluded.result, expires_ms = excluded.expires_ms`,
  deleteIdempotency: 'DELETE FROM idempotency_keys WHERE key = ?',
  sweepIdempotency: 'DELETE FROM idempotency_keys WHERE expires_ms <= ?',

  getAttested: 'SELECT nonce, expires_ms FROM attested_hashes WHERE sha256 = ?',
  putAttested: `INSERT INTO attested_hashes (sha256, nonce, expires_ms) VALUES (?1, ?2, ?3)
    ON CONFLICT (sha256) DO UPDATE SET nonce = excluded.nonce, expires_ms = excluded.expires_ms`,
  sweepAttested: 'DELETE FROM attested_hashes WHERE expires_ms <= ?',

  enqueue: `INSERT INTO outbox (id, type, body, order_key, created_at, created_ms, state, attempts, next_attempt_ms, last_attempt_at, last_error, delivered_at, changed_ms)
    VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?) ON CONFLICT (id) DO NOTHING`,
  dueNotifications: `SELECT ${OUTBOX_COLUMNS} FROM outbox WHERE state = 'pending' AND next_attempt_ms <= ?1 ORDER BY created_ms, seq LIMIT ?2`,
  updateNotification: `UPDATE outbox SET state = ?1, attempts = ?2, next_attempt_ms = ?3, last_attempt_at = ?4, last_error = ?5, delivered_at = ?6,
    changed_ms = COALESCE(?7, created_ms) WHERE id = ?8`,
  getNotification: `SELECT ${OUTBOX_COLUMNS} FROM outbox WHERE id = ?`,
  rewriteNotificationBody: 'UPDATE outbox SET body = ? WHERE id = ?',
  listNotifications: `SELECT ${OUTBOX_COLUMNS} FROM outbox WHERE state = ?1 AND (?2 = 0 OR attempts > 0) ORDER BY created_ms DESC, seq DESC LIMIT ?3`,
  purgeOutbox: "DELETE FROM outbox WHERE state <> 'pending' AND changed_ms < ?",

  insertQuery: `INSERT INTO query_requests (id, inspection_key, status, created_ms, completed_ms, next_check_ms, body, outcome)
    VALUES (?, ?, ?, ?, ?, ?, ?, ?) ON CONFLICT (id) DO NOTHING`,
  getQuery: 'SELECT body, outcome FROM query_requests WHERE id = ?',
  // A key names its newest request (rowid breaks ties of one millisecond).
  queryByKey: 'SELECT body, outcome FROM query_requests WHERE inspection_key = ? ORDER BY created_ms DESC, rowid DESC LIMIT 1',
  replaceQuery: 'UPDATE query_requests SET status = ?1, completed_ms = ?2, next_check_ms = ?3, body = ?4, outcome = ?5 WHERE id = ?6',
  dueQueries: `SELECT body, outcome FROM query_requests WHERE status = 'pending' AND next_check_ms <= ?1 ORDER BY next_check_ms, rowid LIMIT ?2`,
  deleteQueries: 'DELETE FROM query_requests WHERE created_ms < ?',
  erasableQueries: 'SELECT body, outcome FROM query_requests WHERE outcome IS NOT NULL AND completed_ms < ?',
};

export type Statements = Record<keyof typeof SQL, Statement>;

export function prepareStatements(db: Db): Statements {
  return Object.fromEntries(Object.entries(SQL).map(([name, sql]) => [name, db.prepare(sql) as unknown as Statement])) as Statements;
}
