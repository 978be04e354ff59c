export { createSandbox } from './sandbox.js';
export { serveSandbox, type ServedSandbox } from './serve.js';
export type { Sandbox } from './sandbox-types.js';
export type { SandboxEnv } from './context.js';
export type { SandboxStats } from './stats.js';
export { DEFAULTS, NO_FAULTS, type AliasMap, type Faults, type SandboxClock, type SandboxOptions } from './options.js';
export { NO_FACE_PNG_BASE64, NO_FACE_PNG_SHA256, SAMPLE_PNG_BASE64 } from './images.js';
export { TEST_IDENTITIES } from './identities.js';
export { writePdf } from './pdf.js';
