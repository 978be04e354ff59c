/**
 * A Web Test Runner plugin that keeps, per test session, the last server commands the page sent
 * (`executeServerCommand`, `setViewport`, `sendKeys`, ...): when each was sent, and whether and
 * when a plugin answered it.
 *
 * When a file stalls ("did not finish within ..."), WTR has neither its test results nor its
 * browser logs; the trail then says what the page last asked the server for and whether it is
 * still waiting, which tells a hung browser command (a screenshot, a key press) from a hung page.
 * `failureRecap({ notes: trail.describe })` prints it.
 */
import { withDeadline } from './deadline.mjs';

/**
 * @param {{ keep?: number, now?: () => number, deadlineMs?: number }} [options] `keep`: how many
 *   commands to keep per session; `deadlineMs`: a command no plugin has answered by then fails
 *   with an error that names it (none by default), so a hung browser command fails its test at
 *   once instead of holding it, and the tests after it, until their timeouts
 */
export function commandTrail(options = {}) {
  const keep = options.keep ?? 8;
  const now = options.now ?? Date.now;
  const deadlineMs = options.deadlineMs;
  /** @type {Map<string, { command: string, detail: string, sentAt: number, answeredAt?: number, by?: string, failed?: string }[]>} */
  const trails = new Map();
  let first;

  function sent(sessionId, command, payload) {
    let trail = trails.get(sessionId);
    if (!trail) trails.set(sessionId, (trail = []));
    trail.push({ command, detail: describePayload(payload), sentAt: now() });
    if (trail.length > keep) trail.shift();
  }

  function answered(sessionId, command, by, failed) {
    const entry = trails.get(sessionId)?.find((e) => e.command === command && e.answeredAt === undefined);
    if (!entry) return;
    entry.answeredAt = now();
    entry.by = by;
    if (failed) entry.failed = failed;
  }

  const plugin = {
    name: 'onboarding-kit-command-trail',
    serverStart({ config }) {
      // WTR asks each plugin in turn until one answers: the first one asked sees every command,
      // and the one that answers says so by its result.
      const answering = (config.plugins ?? []).filter((p) => p !== plugin && typeof p.executeCommand === 'function');
      first = answering[0];
      for (const p of answering) {
        const original = p.executeCommand.bind(p);
        p.executeCommand = async (args) => {
          const id = args.session?.id;
          if (p === first && id) sent(id, args.command, args.payload);
          try {
            const answer = original(args);
            const result = await (deadlineMs ? withDeadline(answer, `server command ${args.command}`, deadlineMs) : answer);
            if (result != null && id) answered(id, args.command, p.name);
            return result;
          } catch (error) {
            if (id) answered(id, args.command, p.name, error instanceof Error ? error.message : String(error));
            throw error;
          }
        };
      }
    },
    /** One session's trail, oldest first. */
    trail(sessionId) {
      return [...(trails.get(sessionId) ?? [])];
    },
    /**
     * The trail of one session as lines for a person: oldest first, each with the time it was
     * sent and how long its answer took, or that none came.
     * @param {{ id: string }} session
     */
    describe(session) {
      const trail = trails.get(session.id) ?? [];
      if (trail.length === 0) return ['no server command was sent'];
      const at = now();
      return [
        `its last server commands (of ${keep} kept):`,
        ...trail.map((e) => {
          const when = new Date(e.sentAt).toISOString().slice(11, 23);
          const what = `${e.command}${e.detail ? ` ${e.detail}` : ''}`;
          if (e.answeredAt === undefined) return `  ${when} ${what}: NO ANSWER after ${((at - e.sentAt) / 1000).toFixed(1)} s`;
          const took = `${((e.answeredAt - e.sentAt) / 1000).toFixed(1)} s`;
          return `  ${when} ${what}: ${e.failed ? `failed after ${took}: ${e.failed}` : `answered in ${took}`}`;
        }),
      ];
    },
  };
  return plugin;
}

function describePayload(payload) {
  if (payload == null || typeof payload !== 'object') return payload == null ? '' : String(payload).slice(0, 60);
  const text = JSON.stringify(payload);
  return text.length > 80 ? `${text.slice(0, 77)}...` : text;
}
