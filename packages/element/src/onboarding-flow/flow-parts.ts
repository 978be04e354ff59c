/** What the views of `<onboarding-flow>` read: its controllers, and the element itself. */
import type { DetailsController } from '../controllers/details-controller.js';
import type { NavigationController } from '../controllers/navigation-controller.js';
import type { SessionController } from '../controllers/session-controller.js';
import type { HandoffController } from '../handoff/handoff-controller.js';
import type { ResolvedFlowContext } from './flow-context.js';
import type { LazyTextsController } from './lazy-texts.js';
import type { PhotoStepsController } from './photo-steps-controller.js';

export interface FlowParts {
  context: ResolvedFlowContext;
  nav: NavigationController;
  session: SessionController;
  details: DetailsController;
  photo: PhotoStepsController;
  handoff: HandoffController;
  texts: LazyTextsController;
  host: FlowHost;
}

/** What the view reads of the element itself. */
export interface FlowHost extends HTMLElement {
  manualCapture: boolean;
  documentTypes: string;
  controllerName: string | undefined;
  privacyUrl: string | undefined;
  start(): void;
}
