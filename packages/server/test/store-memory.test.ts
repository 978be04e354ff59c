import { MemoryStore } from '../src/store/memory-store.js';
import { describeStore } from './store-conformance.js';

// There is no second instance on a process's memory: the peer is the store itself.
describeStore('memory', async (clock) => {
  const store = new MemoryStore({ now: clock.now });
  return { store, openPeer: async () => store };
});
