export { introStep } from './intro-step.js';
export { consentStep, cpfStep, documentTypeStep, type CpfProblem } from './form-steps.js';
export { stepHeading } from './heading.js';
export { sessionHeading, sessionStep } from './session-step.js';
export { stagesList } from './stages.js';
