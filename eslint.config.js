// `npm run lint`: ESLint's and typescript-eslint's recommended rules over the project's own
// code. Fixture inputs and outputs and the test corpus are user code, in the user's style: they
// are not linted here (test/lint.test.ts checks that an output has no finding its input had not).
import js from '@eslint/js';
import { defineConfig, globalIgnores } from 'eslint/config';
import tseslint from 'typescript-eslint';

/** What Node gives every module (the TypeScript files are checked by tsc, which knows them). */
const NODE = { process: 'readonly', console: 'readonly', Buffer: 'readonly', URL: 'readonly', setTimeout: 'readonly', clearTimeout: 'readonly' };

export default defineConfig([
  // .tmp/: the benchmark's generated corpora and the tests' scratch projects (git-ignored).
  globalIgnores(['dist/', '.tmp/', 'fixtures/', 'test/corpus/']),
  js.configs.recommended,
  tseslint.configs.recommended,
  {
    languageOptions: { globals: NODE },
    rules: {
      // The codemod escapes control characters on purpose: its regular expressions name them.
      'no-control-regex': 'off',
      // `_` marks what is left unused on purpose (a parameter a callback must take, a property omitted from a rest).
      '@typescript-eslint/no-unused-vars': [
        'error',
        { argsIgnorePattern: '^_', varsIgnorePattern: '^_', caughtErrorsIgnorePattern: '^_', ignoreRestSiblings: true },
      ],
    },
  },
  {
    // Plain CommonJS modules, kept so to be loaded by require (see scripts/build.js).
    files: ['**/*.cjs'],
    languageOptions: { sourceType: 'commonjs', globals: { ...NODE, require: 'readonly', module: 'writable', exports: 'writable', __dirname: 'readonly' } },
    rules: { '@typescript-eslint/no-require-imports': 'off' },
  },
]);
