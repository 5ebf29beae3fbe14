// One lint configuration for the whole workspace (runs in `npm test`, so in CI).
import js from '@eslint/js';
import tseslint from 'typescript-eslint';

const PACKAGE_INTERNALS = [{ group: ['@leadfinder/*/src/*', '@leadfinder/*/src'], message: 'Import the package index.' }];
const ADAPTER_SUBPATHS = [{
  group: ['@leadfinder/platform/*'],
  message: 'Adapters are wired by the composition root (services/cli/src/serve/); take the port as a parameter.',
}];
const DRIVERS = [{
  group: ['mongodb', '@nats-io/*', '@grpc/*', 'grpc-health-check', '@opentelemetry/sdk-*', '@opentelemetry/exporter-*'],
  message: 'Drivers live in @leadfinder/platform adapters only.',
}];

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
      // Packages are consumed through their public index (dependencies flow one way); the platform's
      // adapters only through its subpaths, and those only in the composition root and tests (below).
      'no-restricted-imports': ['error', { patterns: [...PACKAGE_INTERNALS, ...ADAPTER_SUBPATHS, ...DRIVERS] }],
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_', caughtErrors: 'none' }],
      '@typescript-eslint/consistent-type-imports': 'error',
      'no-console': 'off',
    },
  },
  {
    // The composition root wires adapters into roles: it may import the adapter subpaths.
    files: ['services/cli/src/serve/**'],
    rules: { 'no-restricted-imports': ['error', { patterns: [...PACKAGE_INTERNALS, ...DRIVERS] }] },
  },
  {
    // The adapters themselves are where drivers live.
    files: ['services/platform/src/adapters/**', 'services/platform/src/telemetry/sdk.ts', 'services/platform/src/telemetry/otlp-json.ts', 'services/platform/src/telemetry/otlp-batch-processor.ts', 'services/platform/src/telemetry/otlp-proto.ts', 'services/platform/src/telemetry/otlp-span-groups.ts', 'services/platform/src/telemetry/sampler.ts', 'services/platform/src/telemetry/testing.ts', 'services/platform/src/telemetry/server-metrics-producer.ts'],
    rules: { 'no-restricted-imports': ['error', { patterns: [...PACKAGE_INTERNALS] }] },
  },
  {
    files: ['**/*.test.ts', '**/test/**', 'test/**', 'bench/**'],
    rules: {
      '@typescript-eslint/no-non-null-assertion': 'off',
      'no-restricted-imports': ['error', { patterns: [...PACKAGE_INTERNALS] }],
    },
  },
);
