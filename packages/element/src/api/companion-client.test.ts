/// <reference types="@onboarding-kit/testing/mocha-globals" />
import { expect } from '@open-wc/testing';
import type { OnboardingState } from '@onboarding-kit/contract';
import {
  cardJpeg,
  companionNamespace,
  controlDouble,
  decide,
  doubleState,
  realEndpoint,
  realRecord,
} from '../onboarding-flow/test-helpers.js';
import { bytesToBase64 } from '@onboarding-kit/contract';
import { CompanionError, createOnboarding, getOnboarding, normalizeEndpoint, streamStatus, watchStatus } from './index.js';

async function jpegBase64(): Promise<string> {
  return bytesToBase64(new Uint8Array(await (await cardJpeg()).arrayBuffer()));
}

async function failure(promise: Promise<unknown>): Promise<CompanionError> {
  try {
    await promise;
  } catch (error) {
    expect(error).to.be.instanceOf(CompanionError);
    return error as CompanionError;
  }
  throw new Error('expected a CompanionError');
}

describe('companion client', () => {
  let image = '';
  before(async () => {
    image = await jpegBase64();
  });

  // Against the real companion and sandbox, on another origin (CORS as an integrator's page has it).
  it('creates an onboarding with upload progress, then reads it with the Bearer key', async () => {
    const ns = companionNamespace();
    const base = normalizeEndpoint(await realEndpoint(ns));
    const progress: number[] = [];
    const created = await createOnboarding(
      base,
      { cpf: '529.982.247-25', images: { documentFront: image, selfie: image } },
      { onProgress: (p) => progress.push(p.loaded) },
    );
    expect(created.status).to.equal('IN_PROCESS');
    expect(created.accessKey).to.have.length.greaterThan(20);
    expect(progress.at(-1)).to.be.greaterThan(image.length * 2);
    const state = await getOnboarding(base, created.tokenOnboarding, created.accessKey);
    expect(state.tokenOnboarding).to.equal(created.tokenOnboarding);
    const wrongKey = await failure(getOnboarding(base, created.tokenOnboarding, 'not-the-key'));
    expect([wrongKey.code, wrongKey.status, wrongKey.retryable]).to.deep.equal(['not_found', 404, false]);
    // The key went only in Authorization headers, never in a URL.
    const { requests } = await realRecord(ns);
    expect(requests.filter((r) => r.method === 'GET').map((r) => r.authorization)).to.deep.equal([
      `Bearer ${created.accessKey}`,
      'Bearer not-the-key',
    ]);
    for (const r of requests) expect(r.url).to.not.contain(created.accessKey);
  });

  it('maps the contract error body to a typed error with code, status and field', async () => {
    const base = normalizeEndpoint(`${await realEndpoint(companionNamespace())}/v1`);
    const error = await failure(createOnboarding(base, { cpf: '529.982.247-25', images: { documentFront: image } }));
    expect([error.code, error.status, error.field]).to.deep.equal(['missing_image', 400, 'images.selfie']);
  });

  it('times out, aborts, and reports a cut connection as a network error (status 0)', async () => {
    const ns = companionNamespace();
    const base = normalizeEndpoint(`/test-companion/${ns}`);
    const body = { cpf: '529.982.247-25', images: { documentFront: image, selfie: image } };
    await controlDouble(ns, { holdUploads: true });
    const timeout = await failure(createOnboarding(base, body, { timeoutMs: 300 }));
    expect([timeout.code, timeout.status, timeout.retryable]).to.deep.equal(['timeout', 0, true]);
    const abort = new AbortController();
    const pending = createOnboarding(base, body, { signal: abort.signal });
    setTimeout(() => abort.abort(), 100);
    const aborted = await failure(pending);
    expect([aborted.code, aborted.retryable]).to.deep.equal(['aborted', false]);
    await controlDouble(ns, { holdUploads: false, failUploads: 'destroy' });
    const cut = await failure(createOnboarding(base, body));
    expect([cut.code, cut.status]).to.deep.equal(['network', 0]);
  });

  it('streams status events until the final one; abort stops the stream', async () => {
    const ns = companionNamespace();
    const base = normalizeEndpoint(await realEndpoint(ns));
    // The manual-review identity waits for a decision: the first event is surely IN_PROCESS, and
    // the decision comes only once the stream has shown it.
    const reviewed = await createOnboarding(base, { cpf: '987.654.321-00', images: { documentFront: image, selfie: image } });
    const seen: OnboardingState[] = [];
    const last = await streamStatus(base, reviewed.tokenOnboarding, reviewed.accessKey, (s) => {
      seen.push(s);
      if (seen.length === 1) void decide(reviewed.tokenOnboarding, 'REFUSED');
    });
    expect(seen.map((s) => s.status)).to.deep.equal(['IN_PROCESS', 'REFUSED']);
    expect(last).to.deep.equal(seen[1]);

    const manual = await createOnboarding(base, { cpf: '987.654.321-00', images: { documentFront: image, selfie: image } });
    const abort = new AbortController();
    const stream = streamStatus(base, manual.tokenOnboarding, manual.accessKey, () => abort.abort(), abort.signal);
    expect((await failure(stream)).code).to.equal('aborted');
    await decide(manual.tokenOnboarding, 'APPROVED');
  });

  it('watchStatus polls when the stream is refused and gives up in bounded time', async () => {
    const ns = companionNamespace();
    const base = normalizeEndpoint(`/test-companion/${ns}`);
    await controlDouble(ns, { events: 'fail' });
    const created = await createOnboarding(base, { cpf: '123.456.789-09', images: { documentFront: image, selfie: image } });
    const final = await watchStatus(base, created.tokenOnboarding, created.accessKey, {
      onStatus: () => undefined,
      poll: { initialDelayMs: 100, maxDelayMs: 200 },
    });
    expect([final.status, final.externalId]).to.deep.equal(['ERROR', 'EXT-ERR-7F3A9C']);

    // Undecided for as long as the test runs, however slow the machine.
    await controlDouble(ns, { processingMs: 1e9 });
    const manual = await createOnboarding(base, { cpf: '987.654.321-00', images: { documentFront: image, selfie: image } });
    // On a clock that moves only while the watch sleeps, the polls are exactly those that fit in
    // totalMs, however long each request takes: at 50, 150, 250, 350, 450 and 550 ms.
    let now = 0;
    const clock = { now: () => now, sleep: async (ms: number) => void (now += ms) };
    const gaveUp = await failure(
      watchStatus(base, manual.tokenOnboarding, manual.accessKey, {
        onStatus: () => undefined,
        poll: { initialDelayMs: 50, maxDelayMs: 100, totalMs: 600 },
        clock,
      }),
    );
    expect(gaveUp.code).to.equal('status_timeout');
    const polls = (await doubleState(ns)).requests.filter((r) => r.url.endsWith(`/onboardings/${manual.tokenOnboarding}`));
    expect(polls.length).to.equal(6);
    expect(now).to.equal(550);
  });

  it('watchStatus with its default timings still learns a manual review decided hours later, polling at most once a minute', async () => {
    const ns = companionNamespace();
    const base = normalizeEndpoint(`/test-companion/${ns}`);
    // Nothing decides by itself in real time: only the reviewer below, on the watch's clock.
    await controlDouble(ns, { events: 'fail', processingMs: 1e9 });
    const manual = await createOnboarding(base, { cpf: '987.654.321-00', images: { documentFront: image, selfie: image } });
    const sixHours = 6 * 60 * 60_000;
    let now = 0;
    const sleeps: number[] = [];
    const clock = {
      now: () => now,
      sleep: async (ms: number) => {
        sleeps.push(ms);
        now += ms;
        // The reviewer decides once six hours have passed on the watch's clock.
        if (now >= sixHours && now - ms < sixHours)
          await controlDouble(ns, { decide: { token: manual.tokenOnboarding, status: 'APPROVED' } });
      },
    };
    const final = await watchStatus(base, manual.tokenOnboarding, manual.accessKey, { onStatus: () => undefined, clock });
    expect(final.status).to.equal('APPROVED');
    expect(now).to.be.at.least(sixHours);
    expect(Math.max(...sleeps)).to.equal(60_000);
  });
});
