/**
 * A view of the store whose `applyStatus` also tells `hook` of each real change, whoever applies
 * it (the webhook route, the poller), with the update that made it (its report's `services` included). The hook runs before the change is answered for, so a
 * session's completion is queued before the upstream's webhook gets its 2xx; a hook that fails is
 * logged only, and the session sweep catches up on what it missed.
 */
import type { Logger } from '../logger.js';
import type { OnboardingRecord, StatusUpdate, Store } from '../store/index.js';

export function withStatusHook<S extends Store>(
  store: S,
  hook: (record: OnboardingRecord, update: StatusUpdate) => Promise<void>,
  logger: Logger,
): S {
  const applyStatus: Store['applyStatus'] = async (token, update) => {
    const result = await store.applyStatus(token, update);
    if (result?.changed) {
      await hook(result.record, update).catch((error: unknown) =>
        logger.warn('status change not followed up; the session sweep will', { tokenOnboarding: token, error }),
      );
    }
    return result;
  };
  return new Proxy(store, {
    get(target, prop) {
      if (prop === 'applyStatus') return applyStatus;
      const value: unknown = Reflect.get(target, prop, target);
      return typeof value === 'function' ? (value as (...args: unknown[]) => unknown).bind(target) : value;
    },
  });
}
