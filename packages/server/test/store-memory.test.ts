import { MemoryStore } from '../src/store/memory-store.js';
import { describeStore } from './store-conformance.js';

// There is no second instance on a process's memory: the peer is the store itself, or, opened with
// other options, another store on the same maps.
describeStore('memory', async (clock, options) => {
  const store = new MemoryStore({ now: clock.now, ...options });
  return {
    store,
    openPeer: async (peerOptions) => (peerOptions ? store.peer({ now: clock.now, ...peerOptions }) : store),
    rawState: async () => store.snapshot(),
  };
});
