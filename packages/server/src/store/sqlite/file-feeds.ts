/** Stores on one file in one process share their feeds, so each hears the changes another made. */
import { realpathSync } from 'node:fs';
import { resolve } from 'node:path';
import { ChangeFeed } from '../core/change-feed.js';
import { SessionFeed } from '../core/session-feed.js';

export interface Feeds {
  feed: ChangeFeed;
  sessionFeed: SessionFeed;
}

const feeds = new Map<string, Feeds & { users: number }>();

/** The file's feeds (a `:memory:` database has its own); `drop` when the store closes. */
export function takeFeeds(path: string): Feeds & { drop(): void } {
  if (path === ':memory:') return { feed: new ChangeFeed(), sessionFeed: new SessionFeed(), drop: () => {} };
  const key = fileKey(path);
  const entry = feeds.get(key) ?? { feed: new ChangeFeed(), sessionFeed: new SessionFeed(), users: 0 };
  entry.users++;
  feeds.set(key, entry);
  return {
    feed: entry.feed,
    sessionFeed: entry.sessionFeed,
    drop: () => {
      if (--entry.users <= 0) feeds.delete(key);
    },
  };
}

function fileKey(path: string): string {
  try {
    return realpathSync(path);
  } catch {
    return resolve(path);
  }
}
