import { fileURLToPath } from 'node:url';

/** The repository root (bench/ sits directly in it). */
export const REPO_ROOT = fileURLToPath(new URL('../../', import.meta.url));
