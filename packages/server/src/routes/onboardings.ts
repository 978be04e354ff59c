/**
 * The page API for onboardings: creation (validated entirely before anything goes upstream),
 * state, the event stream, and the optional PDF. Reads need the page's access key; a missing or
 * wrong key is answered exactly like an unknown token.
 */
import {
  isPdf,
  isTerminalStatus,
  maskTaxId,
  maxCreateBodyBytes,
  toDataUri,
  validateCreateOnboarding,
  IMAGE_ROLES,
  type CreateOnboardingResponse,
  type DocumentFile,
  type ImageRoleName,
  type OnboardingTokenRequest,
  type ValidCreateOnboarding,
} from '@onboarding-kit/contract';
import { Hono, type Context } from 'hono';
import { streamSSE } from 'hono/streaming';
import { bearer, hashSecret, keyMatches, newAccessKey } from '../http/access-key.js';
import { CompanionError, fromUpstream, notFound } from '../http/companion-error.js';
import type { CompanionEnv } from '../http/env.js';
import { readJsonBody } from '../http/json-body.js';
import { rateLimit } from '../middleware/rate-limit.js';
import type { StatusPoller } from '../relay/poller.js';
import type { StreamRegistry } from '../relay/stream-registry.js';
import type { OnboardingRecord, Store } from '../store/store.js';
import type { UpstreamClient } from '../upstream/upstream-client.js';
import { isUpstreamError } from '../upstream/upstream-error.js';
import { toState } from './onboarding-state.js';

export interface OnboardingRouteDeps {
  store: Store;
  upstream: UpstreamClient;
  poller: StatusPoller;
  streams: StreamRegistry;
  environment: string;
  imageMaxBytes: number;
  documentFileTypes: Record<ImageRoleName, string>;
  rateLimit: number;
  clientAddress: (c: Context) => string;
  reportPdf: boolean;
  sse: { keepAliveMs: number; retryMs: number };
}

const TOKEN_SHAPE = /^[A-Za-z0-9._~-]{1,128}$/;

export function onboardingRoutes(deps: OnboardingRouteDeps): Hono<CompanionEnv> {
  const app = new Hono<CompanionEnv>();

  /** The record when the token exists and the Bearer key is its key; otherwise the one 404. */
  async function authorise(c: Context<CompanionEnv>, token: string): Promise<OnboardingRecord> {
    const record = TOKEN_SHAPE.test(token) ? await deps.store.get(token) : null;
    if (!keyMatches(bearer(c.req.header('authorization')), record?.accessKeyHash)) throw notFound();
    return record!;
  }

  app.post('/', rateLimit({ limit: deps.rateLimit, clientAddress: deps.clientAddress, counters: deps.store }), async (c) => {
    const log = c.get('log');
    // Read inline, never kept in a variable: once the images are cleared below, nothing holds them.
    const limit = maxCreateBodyBytes(deps.imageMaxBytes);
    const validation = validateCreateOnboarding(await readJsonBody(c, limit, { requireJsonType: true, what: 'The onboarding' }), deps.imageMaxBytes);
    if (!validation.ok) {
      const { code, message, field } = validation.error;
      throw new CompanionError(validation.status, code, message, field ? { field } : {});
    }
    const valid = validation.value;
    const taxId = maskTaxId(valid.taxId.value);

    let created;
    try {
      created = await deps.upstream.createOnboarding(upstreamRequest(valid, deps.documentFileTypes));
    } catch (e) {
      if (!isUpstreamError(e)) throw e;
      log.warn('onboarding creation failed upstream', { op: e.operation, kind: e.kind, httpStatus: e.httpStatus, upstreamCode: e.code, externalId: e.externalId, taxId });
      throw fromUpstream(e, deps.environment);
    } finally {
      // Personal data is kept no longer than needed: the images go as soon as the upstream has them.
      valid.images = {};
    }

    const accessKey = newAccessKey();
    const now = new Date().toISOString();
    // A store that fails here answers 503 after the upstream created the onboarding: that one is
    // orphaned (its access key is lost with this request), and a page that tries again creates a
    // second. The record may even land late (a Redis command that timed out can still run): it
    // then stays IN_PROCESS, polled after a scan takes it over, until the retention sweep. Nothing
    // upstream can be undone, so this is accepted.
    try {
      await deps.store.create({ tokenOnboarding: created.tokenOnboarding, status: 'IN_PROCESS', createdAt: now, accessKeyHash: hashSecret(accessKey) });
    } catch (error) {
      // The one trace an operator has to reconcile the orphan with the upstream's own records.
      log.error('onboarding created upstream but not stored', { tokenOnboarding: created.tokenOnboarding, error });
      throw error;
    }
    deps.poller.track(created.tokenOnboarding);
    log.info('onboarding created', { tokenOnboarding: created.tokenOnboarding, taxId });
    const answer: CreateOnboardingResponse = { tokenOnboarding: created.tokenOnboarding, status: 'IN_PROCESS', dateHourProcess: created.dateHourProcess, accessKey };
    return c.json(answer, 201);
  });

  app.get('/:token', async (c) => {
    const record = await authorise(c, c.req.param('token'));
    return c.json(toState(record));
  });

  app.get('/:token/events', async (c) => {
    const token = c.req.param('token');
    await authorise(c, token);
    // Proxies such as nginx must pass events on as they come, not buffer them.
    c.header('X-Accel-Buffering', 'no');
    return streamSSE(c, async (stream) => {
      let changed = false;
      let finished = false;
      let wake: (() => void) | undefined;
      const poke = () => {
        wake?.();
        wake = undefined;
      };
      // Subscribe before the first read, so a change between the two cannot be missed.
      const unsubscribe = deps.store.subscribe(token, () => {
        changed = true;
        poke();
      });
      const stop = () => {
        finished = true;
        poke();
      };
      // On shutdown: end with a fresh `retry:` hint, so the page reconnects (to an instance still running).
      let reconnectIn: number | undefined;
      const unregister = deps.streams.add((retryMs) => {
        reconnectIn = retryMs;
        stop();
      });
      stream.onAbort(stop);
      const keepAlive = setInterval(() => void stream.write(': keep-alive\n\n').catch(stop), deps.sse.keepAliveMs);
      let last = '';
      const send = async (): Promise<boolean> => {
        const r = await deps.store.get(token);
        if (!r) return true;
        const data = JSON.stringify(toState(r));
        if (data !== last) {
          last = data;
          await stream.writeSSE({ event: 'status', data });
        }
        return isTerminalStatus(r.status);
      };
      try {
        await stream.write(`retry: ${deps.sse.retryMs}\n\n`);
        let done = await send();
        while (!done && !finished) {
          if (!changed) await new Promise<void>((resolve) => (wake = resolve));
          if (changed) {
            changed = false;
            done = await send();
          }
        }
        if (reconnectIn !== undefined && !done) await stream.write(`retry: ${reconnectIn}\n\n`).catch(() => {});
      } finally {
        clearInterval(keepAlive);
        unsubscribe();
        unregister();
      }
    }, async (error) => {
      // Usually the page went away mid-write; nothing to answer any more.
      c.get('log').debug('event stream ended with an error', { error });
    });
  });

  if (deps.reportPdf) {
    app.get('/:token/report.pdf', async (c) => {
      const token = c.req.param('token');
      await authorise(c, token);
      let res: Response;
      try {
        res = await deps.upstream.reportPdf(token);
      } catch (e) {
        if (!isUpstreamError(e)) throw e;
        c.get('log').warn('report PDF failed upstream', { kind: e.kind, httpStatus: e.httpStatus });
        throw fromUpstream(e, deps.environment);
      }
      const body = await pdfStream(res);
      if (!body) throw new CompanionError(502, 'upstream_error', `The verification service did not send a PDF (${deps.environment} environment).`);
      c.header('Content-Type', 'application/pdf');
      c.header('Content-Disposition', `attachment; filename="onboarding-${token}.pdf"`);
      c.header('Cache-Control', 'no-store');
      return c.body(body);
    });
  }

  return app;
}

/** The upstream creation body (docs/upstream-api.md#onboarding-creation): tax id, name, and each image as a data URI. */
function upstreamRequest(valid: ValidCreateOnboarding, fileTypes: Record<ImageRoleName, string>): OnboardingTokenRequest {
  const documentFiles: DocumentFile[] = [];
  for (const role of IMAGE_ROLES) {
    const image = valid.images[role];
    if (image) documentFiles.push({ documentFileType: fileTypes[role], document: toDataUri(image.base64, image.mime) });
  }
  return {
    [valid.taxId.kind]: valid.taxId.value,
    document: valid.taxId.value,
    ...(valid.name && { name: valid.name }),
    documentFiles,
  };
}

/**
 * Checks that the upstream body starts with `%PDF-` and returns a stream of the whole body (the
 * bytes read for the check first); `null` when it is not a PDF.
 */
async function pdfStream(res: Response): Promise<ReadableStream<Uint8Array> | null> {
  if (!res.body) return null;
  const reader = res.body.getReader();
  const head: Uint8Array[] = [];
  let size = 0;
  while (size < 5) {
    const { done, value } = await reader.read();
    if (done) break;
    head.push(value);
    size += value.byteLength;
  }
  const prefix = new Uint8Array(size);
  let o = 0;
  for (const h of head) {
    prefix.set(h, o);
    o += h.byteLength;
  }
  if (!isPdf(prefix)) {
    await reader.cancel().catch(() => {});
    return null;
  }
  let sentPrefix = false;
  return new ReadableStream<Uint8Array>({
    async pull(controller) {
      if (!sentPrefix) {
        sentPrefix = true;
        controller.enqueue(prefix);
        return;
      }
      const { done, value } = await reader.read();
      if (done) controller.close();
      else controller.enqueue(value);
    },
    cancel(reason) {
      return reader.cancel(reason);
    },
  });
}
