// @ts-check
import js from '@eslint/js';
import globals from 'globals';
import reactHooks from 'eslint-plugin-react-hooks';
import tseslint from 'typescript-eslint';

/** Modules the pure domain package may never import: it must run unchanged in a browser. */
const impureModules = {
  patterns: [
    { group: ['node:*'], message: 'shared/ is pure: no Node built-ins (it runs in the browser too).' },
    {
      group: ['react', 'react-dom', 'react/*', 'react-dom/*', 'recharts'],
      message: 'shared/ is pure: UI code belongs in web/.',
    },
    {
      group: ['express', 'express/*', 'better-sqlite3', 'pg', 'pino'],
      message: 'shared/ is pure: server code belongs in server/.',
    },
  ],
  paths: [
    'fs',
    'path',
    'os',
    'crypto',
    'http',
    'https',
    'child_process',
    'worker_threads',
    'url',
    'zlib',
    'buffer',
    'stream',
    'util',
  ].map((name) => ({ name, message: 'shared/ is pure: no Node built-ins.' })),
};

export default tseslint.config(
  {
    ignores: [
      '**/node_modules/**',
      '**/dist/**',
      'data/**',
      'fixtures/**',
      'e2e/test-results/**',
      'e2e/playwright-report/**',
      'e2e/artifacts/**',
      'bench/.tmp/**',
      'shared/src/aws/data/**',
    ],
  },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    languageOptions: { globals: { ...globals.node } },
    rules: {
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
      '@typescript-eslint/consistent-type-imports': 'error',
      'no-restricted-syntax': [
        'error',
        {
          selector: "JSXAttribute[name.name='dangerouslySetInnerHTML']",
          message: 'Strings from uploads are rendered as text, never HTML.',
        },
      ],
    },
  },
  {
    files: ['shared/src/**/*.ts'],
    ignores: ['shared/src/**/*.test.ts', 'shared/src/**/*.bench.ts', 'shared/src/test-support/**'],
    languageOptions: { globals: { ...globals['shared-node-browser'] } },
    rules: { 'no-restricted-imports': ['error', impureModules] },
  },
  {
    files: ['web/src/**/*.{ts,tsx}'],
    languageOptions: { globals: { ...globals.browser } },
    plugins: { 'react-hooks': reactHooks },
    rules: {
      ...reactHooks.configs.recommended.rules,
      'no-restricted-imports': [
        'error',
        { patterns: [{ group: ['node:*'], message: 'The web app runs in the browser.' }] },
      ],
    },
  },
);
