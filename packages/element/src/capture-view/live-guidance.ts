/**
 * Keeps the capture view's live checks running for what it shows: started once the stream and the
 * frame's size are known, restarted when either changes, stopped while a photo is being taken,
 * and their hint and progress written back to the view.
 */
import { guideRect } from '../camera/guide-geometry.js';
import type { CaptureViewState } from './capture-view-template.js';
import { startGuidance, type GuidanceRun } from './guidance-run.js';

/** The part of the view the checks read and write. */
type GuidedView = Pick<
  CaptureViewState,
  'stream' | 'frame' | 'busy' | 'role' | 'autoCapture' | 'hint' | 'progress' | 'onShutter' | 'onSteadyCard' | 'onLiveVideo'
> & {
  readonly video: HTMLVideoElement | null;
};

export class LiveGuidance {
  readonly #view: GuidedView;
  #run: GuidanceRun | null = null;
  /** The stream and frame size the guidance runs for. */
  #runsFor: { stream: MediaStream; width: number; height: number } | null = null;

  constructor(view: GuidedView) {
    this.#view = view;
  }

  /** Runs the live checks for the current stream and frame, restarting them when either changes. */
  sync(): void {
    const view = this.#view;
    const { stream, frame } = view;
    const video = view.video;
    const wanted = !!stream && !!frame && !!video && !view.busy;
    const same = wanted && this.#runsFor?.stream === stream && this.#runsFor.width === frame.width && this.#runsFor.height === frame.height;
    if (same) {
      this.#run?.setAutoCapture(view.autoCapture);
      return;
    }
    this.stop();
    if (!wanted) return;
    this.#runsFor = { stream, width: frame.width, height: frame.height };
    view.onLiveVideo(video);
    this.#run = startGuidance(video, {
      role: view.role,
      guide: guideRect(view.role, frame.width, frame.height),
      frame,
      autoCapture: view.autoCapture,
      onUpdate: ({ hint, progress }) => {
        view.hint = hint;
        view.progress = progress;
      },
      onAutoCapture: () => {
        if (!view.busy) view.onShutter(true);
      },
      onSteadyCard: () => {
        if (!view.busy && view.video) view.onSteadyCard(view.video);
      },
    });
  }

  stop(): void {
    if (this.#run) this.#view.onLiveVideo(null);
    this.#run?.stop();
    this.#run = null;
    this.#runsFor = null;
    this.#view.hint = null;
    this.#view.progress = 0;
  }
}
