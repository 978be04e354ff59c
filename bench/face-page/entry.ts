/**
 * Browser side of the face-check benchmark (built by Vite into a temp dir). Exposes
 * `window.__faceBench`: the element's real selfie judgement (`judgeSelfieSource`: a 320 px grey
 * copy, the LBP cascade, the oval rules) against the image pipeline's own checks on the same
 * picture (`greyCopy` at 256 px, focus and brightness), the baseline every selfie already pays;
 * then the same judgement as the element asks for it, in the liveness worker.
 */
import { judgeSelfieSource } from '@onboarding-kit/element/internal/face-detector';
import { greyCopy, laplacianVariance, meanBrightness } from '@onboarding-kit/element/internal/image-quality';
import { ChallengeRun, livenessWorker } from '@onboarding-kit/element/internal/liveness';

export interface LivenessRun {
  /** The liveness worker's time per analysed frame (face-api's detector and landmarks), ms each, and where it looked. */
  frames: { ms: number; look: 'whole' | 'square' | 'square+count' }[];
  /** The longest the page's main thread was held while the challenge ran, ms. */
  longestBlock: number;
  /** The challenge's result on the still portrait when the run ended. */
  result: string;
  /** The longest block over the same time with the same video playing and no challenge: what the stand-in camera costs the page. */
  baselineBlock: number;
}

export interface FaceRun {
  /** judgeSelfieSource on the selfie, ms. */
  judge: number;
  /** The pipeline's checks (grey copy, focus, brightness) on the same selfie, ms. */
  checks: number;
  /** The selfie's JPEG judged in the liveness worker (as the element asks for it), ms end to end. */
  inWorker: number;
  /** The longest the page's event loop was held meanwhile, ms (gaps between timer turns). */
  longestBlock: number;
  verdict: string;
  faces: number;
}

declare global {
  interface Window {
    __faceBench: {
      /** Decodes the portrait and crops it to a 720x960 selfie (her face filling the oval); returns its size. */
      prepare(portraitBase64: string): Promise<{ width: number; height: number }>;
      /** One judgement and one baseline, in alternating order by `i`. */
      run(i: number): Promise<FaceRun>;
      /** The liveness challenge for `ms` on a live video of the portrait, as the selfie step runs it. */
      liveness(ms: number): Promise<LivenessRun>;
    };
  }
}

let selfie: ImageBitmap | undefined;
let selfieJpeg: Blob | undefined;

/** A 0 ms timer ticking until stopped: the longest gap between ticks is the longest the page was held. */
function blockMeter(): { stop(): number } {
  let longest = 0;
  let last = performance.now();
  let ticking = true;
  const tick = () => {
    const now = performance.now();
    longest = Math.max(longest, now - last);
    last = now;
    if (ticking) setTimeout(tick, 0);
  };
  setTimeout(tick, 0);
  return {
    stop() {
      ticking = false;
      tick();
      return longest;
    },
  };
}

window.__faceBench = {
  async prepare(portraitBase64) {
    const bytes = Uint8Array.from(atob(portraitBase64), (c) => c.charCodeAt(0));
    const portrait = await createImageBitmap(new Blob([bytes], { type: 'image/jpeg' }));
    const canvas = document.createElement('canvas');
    canvas.width = 720;
    canvas.height = 960;
    canvas.getContext('2d')!.drawImage(portrait, 135, 5, 180, 240, 0, 0, 720, 960);
    portrait.close();
    const jpeg = await new Promise<Blob>((resolve, reject) =>
      canvas.toBlob((b) => (b ? resolve(b) : reject(new Error('toBlob failed'))), 'image/jpeg', 0.9),
    );
    selfieJpeg = jpeg;
    selfie = await createImageBitmap(jpeg);
    return { width: selfie.width, height: selfie.height };
  },
  async run(i) {
    if (!selfie) throw new Error('prepare() first');
    const source = selfie;
    let judge = 0;
    let checks = 0;
    let verdict = '';
    let faces = 0;
    const judgeOnce = () => {
      const t0 = performance.now();
      const result = judgeSelfieSource(source);
      judge = performance.now() - t0;
      verdict = result.verdict;
      faces = result.faces.length;
    };
    const checksOnce = () => {
      const t0 = performance.now();
      const grey = greyCopy(source);
      if (laplacianVariance(grey) < 0 || meanBrightness(grey) < 0) throw new Error('impossible');
      checks = performance.now() - t0;
    };
    // Alternate the order so neither side always runs on a warmer page.
    for (const step of i % 2 ? [checksOnce, judgeOnce] : [judgeOnce, checksOnce]) {
      step();
      await new Promise((r) => setTimeout(r, 0));
    }
    // As the element asks for it, with a timer ticking beside it: the longest gap between ticks is the longest block.
    const meter = blockMeter();
    const t0 = performance.now();
    const judged = await livenessWorker().judge(selfieJpeg!);
    const inWorker = performance.now() - t0;
    const longestBlock = meter.stop();
    if (judged.verdict !== verdict) throw new Error(`the worker judged ${judged.verdict}, the page ${verdict}`);
    return { judge, checks, inWorker, longestBlock, verdict, faces };
  },
  async liveness(ms) {
    if (!selfie) throw new Error('prepare() first');
    const worker = livenessWorker();
    await worker.loadModel();
    const canvas = document.createElement('canvas');
    canvas.width = 480;
    canvas.height = 640;
    const ctx = canvas.getContext('2d')!;
    const draw = () => ctx.drawImage(selfie!, 0, 0, 480, 640);
    draw();
    const painter = setInterval(draw, 66);
    const video = document.createElement('video');
    video.muted = true;
    video.srcObject = canvas.captureStream(15);
    await video.play();
    // The same video for the same time with nothing analysed first: the page's cost of the stand-in itself.
    const idle = blockMeter();
    await new Promise((r) => setTimeout(r, ms));
    const baselineBlock = idle.stop();
    const meter = blockMeter();
    const run = new ChallengeRun(video, worker, () => undefined, ['turn-left', 'come-closer']);
    await new Promise((r) => setTimeout(r, ms));
    const outcome = await run.finish();
    const longestBlock = meter.stop();
    clearInterval(painter);
    video.srcObject = null;
    return { frames: run.frameTimes, longestBlock, result: outcome.liveness.result, baselineBlock };
  },
};
