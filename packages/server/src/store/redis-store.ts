/** The Redis store, where the package's entry point has always imported it from. */
export { RedisStore, type RedisStoreOptions } from './redis/redis-store.js';
