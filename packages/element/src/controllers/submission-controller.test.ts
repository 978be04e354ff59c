/// <reference types="@onboarding-kit/testing/mocha-globals" />
import { bytesToBase64, DEFAULT_IMAGE_MAX_BYTES, type CreateOnboardingRequest } from '@onboarding-kit/contract';
import { expect, waitUntil } from '@open-wc/testing';
import { CompanionError, normalizeEndpoint, type CompanionErrorCode } from '../api/index.js';
import { en } from '../messages/index.js';
import { uploadErrorTexts } from '../messages/upload-error-texts.js';
import {
  CPF,
  companionNamespace,
  controlDouble,
  createdIn,
  decide,
  realEndpoint,
  realRecord,
  realState,
} from '../onboarding-flow/test-helpers.js';
import { SubmissionController } from './submission-controller.js';
import { uploadErrorIsRetryable, uploadErrorMessage, uploadErrorRole } from './upload-errors.js';
import { jpeg, mountHost, recordEvents, testContext } from './test-helpers.js';

async function photo(colour: string): Promise<string> {
  return bytesToBase64(new Uint8Array(await (await jpeg(colour)).arrayBuffer()));
}

/** `companion: 'real'`: the real companion and sandbox; `'double'`: the companion double, for fault injection. */
async function setup(cpf: string = CPF.approved, companion: 'real' | 'double' = 'double') {
  const host = await mountHost();
  const ns = companionNamespace();
  const request: CreateOnboardingRequest = {
    cpf,
    documentType: 'CNH',
    images: { documentFront: await photo('#3a6'), documentBack: await photo('#36a'), selfie: await photo('#a63') },
  };
  const state = { endpoint: normalizeEndpoint(companion === 'real' ? await realEndpoint(ns) : `/test-companion/${ns}`), request, sent: 0 };
  const steps: string[] = [];
  const announced: string[] = [];
  const submission = new SubmissionController(host, {
    context: testContext(() => ({ endpoint: state.endpoint })),
    pollOptions: () => ({ initialDelayMs: 100, maxDelayMs: 200, totalMs: 10_000 }),
    maxImageBytes: () => DEFAULT_IMAGE_MAX_BYTES,
    request: () => state.request,
    announce: (text) => announced.push(text),
    goTo: (step) => steps.push(step),
    sent: () => state.sent++,
  });
  return { host, ns, state, steps, announced, submission, events: recordEvents(host) };
}

const until = (predicate: () => boolean, message: string) => waitUntil(predicate, message, { timeout: 20_000, interval: 20 });
const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
const details = (events: CustomEvent[]) => events.map((e) => [e.type, e.detail]);

describe('SubmissionController', () => {
  it('uploads, follows the status to a final one and drops the access key', async function () {
    this.timeout(30_000);
    const { host, ns, state, steps, announced, submission, events } = await setup(CPF.refused, 'real');
    submission.send();
    expect(steps).to.deep.equal(['upload']);
    expect(submission.percent).to.equal(0);
    expect(announced).to.deep.equal([en.upload.progress(0)]);
    await until(() => submission.outcome !== null, 'no final status');
    const token = submission.tokenOnboarding!;
    expect(steps).to.deep.equal(['upload', 'processing', 'outcome']);
    expect(state.sent).to.equal(1);
    expect(submission.percent).to.equal(100);
    expect(submission.outcome).to.include({ tokenOnboarding: token, status: 'REFUSED' });
    expect(submission.canCheckAgain).to.equal(false);
    expect(details(events)).to.deep.equal([
      ['onboarding-submitted', { tokenOnboarding: token }],
      ['onboarding-complete', { tokenOnboarding: token, status: 'REFUSED' }],
    ]);
    const record = await realRecord(ns);
    expect(record.uploads).to.have.length(1);
    expect(record.uploads[0]!.body.images.selfie).to.equal(state.request.images.selfie);
    const key = record.onboardings[0]!.accessKey;
    expect(JSON.stringify([details(events), announced, host.outerHTML])).to.not.contain(key);
    // Only the Authorization header carried it.
    expect(record.requests.filter((r) => r.url.includes(key))).to.deep.equal([]);
    expect(record.requests.some((r) => r.authorization === `Bearer ${key}`)).to.equal(true);
  });

  it('a request the contract refuses is never sent and says why', async () => {
    const { ns, state, submission, events } = await setup(CPF.approved, 'real');
    state.request = { ...state.request, images: { documentFront: state.request.images.documentFront! } };
    submission.send();
    await until(() => submission.uploadError !== null, 'no error');
    const error = submission.uploadError!;
    expect(error.code).to.equal('missing_image');
    expect(uploadErrorRole(error)).to.equal('selfie');
    expect(submission.percent).to.equal(null);
    expect(details(events)).to.deep.equal([['onboarding-error', { code: 'missing_image', message: uploadErrorTexts.en.missing_image }]]);
    expect((await realRecord(ns)).requests).to.deep.equal([]);
  });

  it('a cancelled upload goes back to the review, and its late answer is ignored; sending again works', async function () {
    this.timeout(30_000);
    const { ns, steps, submission, events } = await setup();
    await controlDouble(ns, { holdUploads: true });
    submission.send();
    // The whole body was sent; the companion has not answered.
    await until(() => submission.percent === 100, 'progress never reached 100');
    submission.cancelUpload();
    expect(submission.percent).to.equal(null);
    expect(submission.cancelled).to.equal(true);
    expect(steps).to.deep.equal(['upload', 'review']);
    await pause(300);
    expect(details(events)).to.deep.equal([['onboarding-cancel', { step: 'upload' }]]);
    expect(submission.tokenOnboarding).to.equal(null);

    await controlDouble(ns, { holdUploads: false });
    submission.send();
    expect(submission.cancelled).to.equal(false);
    await until(() => submission.outcome !== null, 'no final status');
    expect(submission.outcome!.status).to.equal('APPROVED');
  });

  it('a status that cannot be read is "lost" until checked again', async function () {
    this.timeout(30_000);
    const { host, state, submission, events } = await setup();
    const working = state.endpoint;
    // The companion forgets the onboarding: reads answer 404.
    host.addEventListener('onboarding-submitted', () => (state.endpoint = normalizeEndpoint(`/test-companion/${companionNamespace()}`)));
    submission.send();
    await until(() => submission.processingProblem !== null, 'the watch never failed');
    expect(submission.processingProblem).to.equal('lost');
    expect(submission.canCheckAgain).to.equal(true);
    expect(details(events).at(-1)).to.deep.equal(['onboarding-error', { code: 'not_found', message: en.processing.lost }]);
    state.endpoint = working;
    void submission.watch();
    expect(submission.processingProblem).to.equal(null);
    await until(() => submission.outcome !== null, 'no final status after checking again');
    expect(submission.outcome!.status).to.equal('APPROVED');
  });

  it('the host leaving the document stops the watch; coming back resumes it', async function () {
    this.timeout(30_000);
    // The manual-review identity: decided by the test, while the host is away.
    const { host, ns, submission } = await setup(CPF.manual, 'real');
    submission.send();
    await until(() => submission.tokenOnboarding !== null, 'never submitted');
    const parent = host.parentElement!;
    host.remove();
    const { token, accessKey } = await createdIn(ns);
    await decide(token, 'APPROVED');
    expect((await realState(ns, token, accessKey)).status).to.equal('APPROVED');
    // A stream left open would have carried the decision by now (it travels as fast as the read above).
    await pause(300);
    expect(submission.outcome).to.equal(null);
    parent.append(host);
    await until(() => submission.outcome !== null, 'the watch never resumed');
    expect(submission.outcome!.status).to.equal('APPROVED');
  });

  it('reset while detached forgets the onboarding: nothing resumes', async function () {
    this.timeout(30_000);
    const { host, ns, submission, events } = await setup(CPF.manual, 'real');
    submission.send();
    await until(() => submission.tokenOnboarding !== null, 'never submitted');
    const parent = host.parentElement!;
    host.remove();
    submission.reset();
    parent.append(host);
    const { token } = await createdIn(ns);
    await decide(token, 'APPROVED');
    // A watch resumed by mistake would carry the decision within this.
    await pause(300);
    expect(submission.outcome).to.equal(null);
    expect(submission.tokenOnboarding).to.equal(null);
    expect(submission.canCheckAgain).to.equal(false);
    expect(events.map((e) => e.type)).to.deep.equal(['onboarding-submitted']);
  });

  it('an upload cut by the host leaving the document is reported when it comes back', async function () {
    this.timeout(30_000);
    const { host, ns, submission, events } = await setup();
    await controlDouble(ns, { holdUploads: true });
    submission.send();
    await until(() => submission.percent === 100, 'progress never reached 100');
    const parent = host.parentElement!;
    host.remove();
    parent.append(host);
    await controlDouble(ns, { holdUploads: false });
    expect(submission.uploadError?.code).to.equal('aborted');
    expect(details(events)).to.deep.equal([['onboarding-error', { code: 'aborted', message: uploadErrorTexts.en.generic }]]);
  });
});

describe('upload error messages', () => {
  // Codes outside the catalogue stand for those of a newer companion.
  const error = (code: string, status: number, field?: string) =>
    new CompanionError({ code: code as CompanionErrorCode, message: 'x', status, ...(field && { field }) });

  it('a known code has its own message; otherwise the HTTP status decides', () => {
    expect(uploadErrorMessage(error('invalid_cpf', 400), en, 'en')).to.equal(uploadErrorTexts.en.invalid_cpf);
    expect(uploadErrorMessage(error('network', 0), en, 'en')).to.equal(uploadErrorTexts.en.network);
    expect(uploadErrorMessage(error('upstream_unavailable', 503), en, 'en')).to.equal(uploadErrorTexts.en.upstream);
    expect(uploadErrorMessage(error('internal', 500), en, 'en')).to.equal(uploadErrorTexts.en.upstream);
    expect(uploadErrorMessage(error('http_error', 413), en, 'en')).to.equal(uploadErrorTexts.en.payload_too_large);
    expect(uploadErrorMessage(error('http_error', 429), en, 'en')).to.equal(uploadErrorTexts.en.rate_limited);
    // The companion's creations are all taken (503 busy, Retry-After): a wait, not the service's trouble.
    expect(uploadErrorMessage(error('busy', 503), en, 'en')).to.equal(uploadErrorTexts.en.busy);
    // The companion gave up on an upload that arrived too slowly: the connection is what to fix, and nothing was lost.
    expect(uploadErrorMessage(error('upload_too_slow', 408), en, 'en')).to.equal(uploadErrorTexts.en.timeout);
    expect(uploadErrorIsRetryable(error('upload_too_slow', 408))).to.equal(true);
    expect(uploadErrorMessage(error('generic', 400), en, 'en')).to.equal(uploadErrorTexts.en.generic);
    expect(uploadErrorMessage(error('something_new', 400), en, 'en')).to.equal(uploadErrorTexts.en.generic);
  });

  it('points at the photo a field names', () => {
    expect(uploadErrorRole(error('invalid_image', 400, 'images.documentBack'))).to.equal('documentBack');
    expect(uploadErrorRole(error('invalid_image', 400, 'images.passport'))).to.equal(null);
    expect(uploadErrorRole(error('invalid_cpf', 400, 'cpf'))).to.equal(null);
    expect(uploadErrorRole(null)).to.equal(null);
  });
});
