// The types of buildPaths.mjs, for the tests that read it.
export const packageRoot: URL;
export const SOURCE_DIRS: string[];
export const buildDir: URL;
export const buildStamp: string;
export const THREAD_ENTRIES: string[];
export function isBuildCurrent(): boolean;
