import type { TestRunnerPlugin } from '@web/test-runner';
/** The frame page and the `gallery-*` server commands; `root` is the repository's root directory. */
export declare function galleryPlugin(options: { root: string }): TestRunnerPlugin;
