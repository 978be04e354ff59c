// ESLint over every source of the workspace: JavaScript's and typescript-eslint's recommended
// rules (syntax only: the type checker already runs in `npm run lint`, and type-aware rules would
// cost a second full program build on a 2-core machine), and the size limits that keep a file about
// one thing. Formatting is Biome's (biome.json), so no stylistic rule is enabled here.
import js from '@eslint/js';
import globals from 'globals';
import { defineConfig } from 'eslint/config';
import tseslint from 'typescript-eslint';

/** Tests, their helpers and fixtures: code whose only reader is a test run. */
const TESTS = ['**/*.{test,spec}.{ts,tsx,mts,mjs,js}', '**/test/**', 'test/**', '**/test-helpers.ts', 'packages/testing/**'];
/**
 * The benchmark harness: each section is one measured scenario read top to bottom, and it runs
 * only under `npm run bench`, so it is held to the tests' limits.
 */
const BENCH = ['bench/**'];

export default defineConfig(
  {
    ignores: ['**/dist/**', '**/node_modules/**', 'coverage/**', 'reports/**', '.stryker-tmp/**', 'test/artifacts/**', 'data/**'],
  },
  {
    files: ['**/*.{ts,tsx,mts,mjs,js}'],
    extends: [js.configs.recommended, tseslint.configs.recommended],
    languageOptions: {
      ecmaVersion: 2023,
      sourceType: 'module',
      globals: { ...globals.node, ...globals.browser },
    },
    linterOptions: { reportUnusedDisableDirectives: 'error' },
    rules: {
      // A `_` prefix marks a parameter a signature needs and the body does not, or a type that
      // exists only to fail compilation when two declarations drift apart.
      '@typescript-eslint/no-unused-vars': [
        'error',
        { argsIgnorePattern: '^_', varsIgnorePattern: '^_', caughtErrors: 'none', ignoreRestSiblings: true },
      ],
      // `interface X extends Y {}` is how a declaration merges into a global or a library type.
      '@typescript-eslint/no-empty-object-type': ['error', { allowInterfaces: 'with-single-extends' }],
      // A handler declared before the server that calls it and set once the app exists.
      'prefer-const': ['error', { ignoreReadBeforeAssign: true }],
      'max-lines': ['error', { max: 400 }],
      'max-lines-per-function': ['error', { max: 80 }],
    },
  },
  {
    // A test file is a list of scenarios, each read on its own: long bodies are tolerated, a file
    // stays within twice a product file's size.
    files: [...TESTS, ...BENCH],
    rules: {
      'max-lines': ['error', { max: 800 }],
      'max-lines-per-function': 'off',
    },
  },
  {
    // A stylesheet is one css`` template in a function: its length is that of the rules it holds,
    // with no logic to split (max-lines still holds).
    files: ['**/*.styles.ts'],
    rules: { 'max-lines-per-function': 'off' },
  },
  {
    files: TESTS,
    rules: {
      // Chai's property assertions (`expect(x).to.exist`) are expressions by design.
      '@typescript-eslint/no-unused-expressions': 'off',
    },
  },
);
