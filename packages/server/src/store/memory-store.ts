/** The memory store, where the companion and its tests have always imported it from. */
export { MemoryStore, type MemoryStoreOptions } from './memory/memory-store.js';
