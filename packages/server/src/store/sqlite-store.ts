/** The SQLite store, where the package's entry point and the tests' child process have always imported it from. */
export { SqliteStore, type SqliteStoreOptions } from './sqlite/sqlite-store.js';
