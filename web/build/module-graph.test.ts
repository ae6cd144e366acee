import { describe, expect, it } from 'vitest';
import { mapModuleChunks, STARTUP, type ChunkFacts } from './module-graph.ts';

const chunk = (fileName: string, facts: Partial<ChunkFacts> = {}): ChunkFacts => ({
  type: 'chunk',
  fileName,
  imports: [],
  ...facts,
});

// The shape of this app's build: an entry that imports boot and a layer of shared code
// dynamically, and two pages sharing React and the schemas with boot.
const bundle: Record<string, ChunkFacts> = Object.fromEntries(
  [
    chunk('assets/index-a.js', {
      isEntry: true,
      facadeModuleId: '/w/src/main.tsx',
    }),
    chunk('assets/units-j.js', {
      isDynamicEntry: true,
      facadeModuleId: '/shared/src/units.ts',
      imports: ['assets/zod-e.js'],
    }),
    chunk('assets/boot-b.js', {
      isDynamicEntry: true,
      facadeModuleId: '/w/src/app/boot.tsx',
      imports: ['assets/react-c.js', 'assets/schemas-d.js', 'assets/index-a.js'],
    }),
    chunk('assets/react-c.js'),
    chunk('assets/schemas-d.js', { imports: ['assets/zod-e.js'] }),
    chunk('assets/zod-e.js'),
    chunk('assets/PlanPage-f.js', {
      isDynamicEntry: true,
      facadeModuleId: '/w/src/app/routes/PlanPage.tsx',
      imports: ['assets/react-c.js', 'assets/schemas-d.js'],
    }),
    chunk('assets/SharePage-g.js', {
      isDynamicEntry: true,
      facadeModuleId: '/w/src/app/routes/SharePage.tsx',
      imports: ['assets/react-c.js'],
    }),
    chunk('assets/Chart-h.js', {
      isDynamicEntry: true,
      facadeModuleId: '/w/src/components/Chart.tsx',
      imports: ['assets/react-c.js'],
    }),
    { type: 'asset', fileName: 'assets/index-i.css' } satisfies ChunkFacts,
  ].map((c) => [c.fileName, c]),
);

describe('mapModuleChunks', () => {
  const graph = mapModuleChunks(bundle, '/w/src', {
    startupModule: 'app/boot.tsx',
    isPage: (m) => m.startsWith('app/routes/'),
  });
  const filesOf = (module: string) => graph.modules[module]?.map((i) => graph.files[i]).sort();

  it.each([
    {
      module: STARTUP,
      files: ['assets/boot-b.js', 'assets/react-c.js', 'assets/schemas-d.js', 'assets/zod-e.js'],
    },
    {
      module: 'app/routes/PlanPage.tsx',
      files: ['assets/PlanPage-f.js', 'assets/react-c.js', 'assets/schemas-d.js', 'assets/zod-e.js'],
    },
    { module: 'app/routes/SharePage.tsx', files: ['assets/SharePage-g.js', 'assets/react-c.js'] },
  ])('$module needs its chunks and every chunk they import, transitively', ({ module, files }) => {
    expect(filesOf(module)).toEqual(files);
  });

  it('start-up is boot and its imports; layer-only chunks, lazy components and assets stay out', () => {
    expect(Object.keys(graph.modules).sort()).toEqual([
      'app/routes/PlanPage.tsx',
      'app/routes/SharePage.tsx',
      STARTUP,
    ]);
    expect(graph.files).not.toContain('assets/index-a.js');
    expect(graph.files).not.toContain('assets/Chart-h.js');
    expect(filesOf(STARTUP)).not.toContain('assets/PlanPage-f.js');
    expect(graph.files).not.toContain('assets/units-j.js');
  });

  it('lists each file once', () => {
    expect(new Set(graph.files).size).toBe(graph.files.length);
  });
});
