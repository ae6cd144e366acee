import { afterEach, describe, expect, it } from 'vitest';
import { preloadModules, readModuleGraph } from './module-graph.ts';
import { pageModules, pageSourceOf, PAGE_SOURCES } from './pages.ts';

/** index.html's map as web/build/module-graph.ts writes it (this build's shape: boot and two pages share chunks). */
const GRAPH = {
  files: [
    'assets/boot-a.js',
    'assets/react-dom-b.js',
    'assets/schemas-c.js',
    'assets/PlanPage-d.js',
    'assets/SharePage-e.js',
  ],
  modules: {
    startup: [0, 1, 2],
    'app/routes/PlanPage.tsx': [3, 2],
    'app/routes/SharePage.tsx': [4, 2],
  },
};

function withMap(json: string) {
  const script = document.createElement('script');
  script.type = 'application/json';
  script.id = 'module-graph';
  script.textContent = json;
  document.head.append(script);
}

const preloaded = () =>
  [...document.querySelectorAll<HTMLLinkElement>('link[rel="modulepreload"]')].map((l) =>
    l.getAttribute('href'),
  );

afterEach(() => {
  for (const el of document.head.querySelectorAll('#module-graph, link[rel="modulepreload"]')) el.remove();
});

describe('preloadModules', () => {
  it('asks once for every chunk boot and the page need, none of another page', async () => {
    withMap(JSON.stringify(GRAPH));
    const asked = await preloadModules(['startup', 'app/routes/PlanPage.tsx']);
    expect(asked.sort()).toEqual([
      '/assets/PlanPage-d.js',
      '/assets/boot-a.js',
      '/assets/react-dom-b.js',
      '/assets/schemas-c.js',
    ]);
    expect(preloaded().sort()).toEqual(asked.sort());
  });

  it('skips chunks already asked for', async () => {
    withMap(JSON.stringify(GRAPH));
    await preloadModules(['startup']);
    expect(await preloadModules(['startup', 'app/routes/SharePage.tsx'])).toEqual(['/assets/SharePage-e.js']);
    expect(preloaded()).toHaveLength(4);
  });

  it('puts the links in three at a time, a task apart (one long task otherwise: bench P11)', async () => {
    const files = Array.from({ length: 14 }, (_, i) => `assets/chunk-${i}.js`);
    withMap(JSON.stringify({ files, modules: { startup: files.map((_, i) => i) } }));
    const done = preloadModules(['startup']);
    expect(preloaded()).toHaveLength(3);
    expect(await done).toHaveLength(14);
    expect(preloaded()).toEqual(files.map((f) => `/${f}`));
  });

  it.each([
    { name: 'no map (the dev server)', json: null },
    { name: 'not JSON', json: '{"files": [' },
    {
      name: 'an index past the file list',
      json: JSON.stringify({ files: ['a.js'], modules: { startup: [3] } }),
    },
    { name: 'files not strings', json: JSON.stringify({ files: [1], modules: {} }) },
  ])('$name: asks for nothing, each import then fetches its own', async ({ json }) => {
    if (json !== null) withMap(json);
    expect(readModuleGraph(document)).toBeNull();
    expect(await preloadModules(['startup'])).toEqual([]);
    expect(preloaded()).toEqual([]);
  });
});

describe('PAGE_SOURCES', () => {
  it('names an existing file for every page module', () => {
    expect(Object.keys(PAGE_SOURCES).sort()).toEqual(Object.keys(pageModules).sort());
    const pages = Object.keys(import.meta.glob('./routes/*.tsx')).map((f) => `app/${f.slice(2)}`);
    for (const source of Object.values(PAGE_SOURCES)) expect(pages).toContain(source);
  });

  it.each([
    { path: '/', source: 'app/routes/PlanPage.tsx' },
    { path: '/c/abc', source: 'app/routes/SharePage.tsx' },
    { path: '/fleet/x', source: 'app/routes/FleetPage.tsx' },
    { path: '/nope', source: null },
  ])('$path → $source', ({ path, source }) => {
    expect(pageSourceOf(path)).toBe(source);
  });
});
