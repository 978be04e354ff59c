export type EngineName = 'chromium' | 'firefox' | 'webkit';
export declare const ENGINES: readonly EngineName[];
/** The engines ENGINES names (all three when unset). */
export declare function selectedEngines(value?: string): EngineName[];
