/** The throwaway redis-server of the Redis store's tests lives in the shared test support. */
import { after, before } from 'node:test';
import { createClient } from 'redis';
import { startRedisServer, type RedisServer } from '@onboarding-kit/testing/redis-server';

export { startRedisServer, freePort, type RedisServer } from '@onboarding-kit/testing/redis-server';

export type RawRedis = ReturnType<typeof createClient>;

/**
 * A redis-server for the test file that calls this, with a plain client on it for what a test
 * plants or reads behind the store's back: started before the file's tests, stopped after them.
 */
export function redisForFile(): { readonly server: RedisServer; readonly raw: RawRedis } {
  let server: RedisServer | undefined;
  let raw: RawRedis | undefined;
  before(async () => {
    server = await startRedisServer();
    raw = createClient({ url: server.url });
    await raw.connect();
  });
  after(async () => {
    await raw?.close();
    await server?.stop();
  });
  return {
    get server() {
      return server!;
    },
    get raw() {
      return raw!;
    },
  };
}
