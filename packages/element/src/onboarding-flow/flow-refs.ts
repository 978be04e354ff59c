/** What the lazily loaded helpers of the photo steps read of the flow, handed over once they load. */
import type { CaptureController } from '../controllers/capture-controller.js';
import type { DetailsController } from '../controllers/details-controller.js';
import type { NavigationController } from '../controllers/navigation-controller.js';
import type { FlowContextSource } from './flow-context.js';
import type { FlowShape } from './steps.js';

export interface FlowRefs {
  context: FlowContextSource;
  nav: NavigationController;
  details: DetailsController;
  capture: () => CaptureController | null;
  /** What the session changes in the flow. */
  shape(): FlowShape;
  /** The document types offered, in order. */
  offeredTypes(): readonly string[];
}
