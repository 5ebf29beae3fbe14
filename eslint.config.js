// One lint configuration for the whole workspace (runs in `npm test`, so in CI).
import js from '@eslint/js';
import tseslint from 'typescript-eslint';

export default tseslint.config(
  {
    ignores: [
      '**/node_modules/**', '**/gen/**', 'test-artifacts/**', '.leadfinder/**', 'charts/**', 'deploy/**',
      '**/*.d.ts', 'services/edge/src/web/static/**',
    ],
  },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    languageOptions: {
      globals: { process: 'readonly', console: 'readonly', setTimeout: 'readonly', clearTimeout: 'readonly', URL: 'readonly' },
    },
    rules: {
      // Packages are consumed through their public index only (dependencies flow one way).
      'no-restricted-imports': ['error', { patterns: [{ group: ['@leadfinder/*/src/*', '@leadfinder/*/src'], message: 'Import the package index.' }] }],
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_', caughtErrors: 'none' }],
      '@typescript-eslint/consistent-type-imports': 'error',
      'no-console': 'off',
    },
  },
  {
    files: ['**/*.test.ts', 'test/**', 'bench/**'],
    rules: { '@typescript-eslint/no-non-null-assertion': 'off' },
  },
);
