/** The throwaway redis-server of the Redis store's tests lives in the shared test support. */
export { startRedisServer, freePort, type RedisServer } from '@onboarding-kit/testing/redis-server';
