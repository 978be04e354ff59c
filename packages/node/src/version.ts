/** Sent in `User-Agent`; test/package.test.ts holds it equal to package.json's version. */
export const SDK_VERSION = '0.1.0';
