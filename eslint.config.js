// @ts-check
import js from '@eslint/js';
import { readdirSync } from 'node:fs';
import importX from 'eslint-plugin-import-x';
import { createTypeScriptImportResolver } from 'eslint-import-resolver-typescript';
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

/**
 * Front-end boundaries: a feature (web/src/features/<name>/) imports web/src/components,
 * web/src/lib, @blockwise/shared and itself, never another feature — what two features share
 * moves to components/ or lib/. One zone per feature folder, read from disk, so a new feature is
 * covered without editing this file. The layers below go one way: web/src/lib and
 * web/src/components never import a feature (their tests neither: a test of a feature sits in
 * the feature). (web/src/test/boundaries.test.ts proves the rules fire.)
 */
const webFeatures = readdirSync(new URL('./web/src/features', import.meta.url), { withFileTypes: true })
  .filter((entry) => entry.isDirectory())
  .map((entry) => entry.name);
const featureBoundaries = {
  basePath: import.meta.dirname,
  zones: webFeatures
    .map((feature) => ({
      target: `./web/src/features/${feature}`,
      from: './web/src/features',
      except: [`./${feature}`],
      message: `features/${feature} may import components/, lib/, @blockwise/shared and itself, not another feature: move what both need to web/src/components or web/src/lib.`,
    }))
    .concat(
      ['lib', 'components'].map((layer) => ({
        target: `./web/src/${layer}`,
        from: './web/src/features',
        except: [],
        message: `web/src/${layer} is below the features: it may not import web/src/features (move the code it needs down to lib/ or components/, or the test next to the feature).`,
      })),
    ),
};

/**
 * Server layers: routes (server/src/routes/<resource>/) sit on top; each imports http/,
 * presenters/ (a resource's wire shape), services/ (current analysis, regression gate, fleet
 * planning), store/, ingest/, the files at the routes/ root (request validators) and itself —
 * never another route folder: what two routes share moves down to presenters/ or services/.
 * Below the routes nothing imports them (app.ts, the one place that mounts them, is outside these
 * folders). One zone per route folder, read from disk like the web features. (server/src/layers.test.ts
 * proves the rules fire.)
 */
const serverRoutes = readdirSync(new URL('./server/src/routes', import.meta.url), { withFileTypes: true })
  .filter((entry) => entry.isDirectory())
  .map((entry) => entry.name);
const serverLayers = {
  basePath: import.meta.dirname,
  zones: serverRoutes
    .map((route) => ({
      target: `./server/src/routes/${route}`,
      from: serverRoutes.filter((other) => other !== route).map((other) => `./server/src/routes/${other}`),
      message: `routes/${route} may import http/, presenters/, services/, store/, ingest/ and itself, not another route folder: move what both need to server/src/presenters or server/src/services.`,
    }))
    .concat(
      ['http', 'presenters', 'services', 'store', 'ingest', 'catalog', 'cli'].map((layer) => ({
        target: `./server/src/${layer}`,
        from: './server/src/routes',
        except: [],
        message: `server/src/${layer} is below the routes: it may not import server/src/routes (move the code it needs to presenters/, services/ or http/).`,
      })),
    ),
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
  {
    files: ['web/src/{features,lib,components}/**/*.{ts,tsx}'],
    plugins: { 'import-x': importX },
    rules: { 'import-x/no-restricted-paths': ['error', featureBoundaries] },
  },
  {
    files: ['server/src/**/*.ts'],
    plugins: { 'import-x': importX },
    rules: { 'import-x/no-restricted-paths': ['error', serverLayers] },
  },
  {
    // No import cycles anywhere in the packages: a cycle makes module order decide whether a value
    // is initialized, and it blurs which layer owns a rule. Type-only imports are erased at build
    // time and the rule skips them; scripts/check-import-cycles.mjs (npm test's lint stage) covers those too.
    files: ['{shared,server,web}/src/**/*.{ts,tsx}'],
    plugins: { 'import-x': importX },
    settings: {
      'import-x/resolver-next': [
        createTypeScriptImportResolver({
          project: ['shared/tsconfig.json', 'server/tsconfig.json', 'web/tsconfig.json'],
          noWarnOnMultipleProjects: true,
        }),
      ],
    },
    rules: { 'import-x/no-cycle': 'error' },
  },
);
