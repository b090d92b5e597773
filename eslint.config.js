import js from '@eslint/js';
import tseslint from 'typescript-eslint';

export default tseslint.config(
  { ignores: ['**/dist/**', '**/generated/**', '**/node_modules/**', '**/.data/**', 'conformance/pacts/**'] },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    // Type-aware: a promise nobody awaits or catches, or one handed where nothing waits for it, is a bug here.
    files: ['**/*.ts'],
    // One program for every package (tsconfig.check.json, the one `npm run lint` type-checks), not one per package.
    languageOptions: { parserOptions: { project: './tsconfig.check.json', tsconfigRootDir: import.meta.dirname } },
    rules: { '@typescript-eslint/no-floating-promises': 'error', '@typescript-eslint/no-misused-promises': 'error' },
  },
  {
    rules: {
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
      '@typescript-eslint/no-explicit-any': 'error',
      'no-console': 'off',
    },
  },
  {
    // The SDK's plain-JavaScript examples (ES module and CommonJS) run on Node as a merchant's code would.
    files: ['sdk/examples/*.mjs', 'sdk/examples/*.cjs'],
    languageOptions: { globals: { process: 'readonly', console: 'readonly', require: 'readonly', module: 'writable' } },
    rules: { '@typescript-eslint/no-require-imports': 'off' },
  },
  {
    // The conformance kit's command, a plain Node program.
    files: ['conformance/bin/*.js'],
    languageOptions: { globals: { process: 'readonly', URL: 'readonly', console: 'readonly' } },
  },
  {
    files: ['**/test/**/*.ts'],
    rules: { '@typescript-eslint/no-explicit-any': 'off' },
  },
);
