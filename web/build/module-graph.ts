import { relative } from 'node:path';
import type { Plugin } from 'vite';

/** What Rollup/Rolldown tells about one output chunk (the fields this needs). */
export type ChunkFacts = {
  type: 'chunk' | 'asset';
  fileName: string;
  isEntry?: boolean;
  isDynamicEntry?: boolean;
  facadeModuleId?: string | null;
  imports?: readonly string[];
};

/**
 * For each lazily imported module under `srcDir` (the app's start-up code and its pages), every
 * chunk its evaluation needs: its own and, transitively, the chunks it imports statically.
 * Files are listed once and referred to by index, so the map stays small in index.html:
 * `{ files: ['assets/boot-x.js', …], modules: { 'app/boot.tsx': [0, 3, 4], … } }`.
 */
export function mapModuleChunks(
  bundle: Record<string, ChunkFacts>,
  srcDir: string,
  include: (module: string) => boolean,
): ModuleGraph {
  const files: string[] = [];
  const indexOf = new Map<string, number>();
  const fileIndex = (name: string) => {
    let i = indexOf.get(name);
    if (i === undefined) {
      i = files.push(name) - 1;
      indexOf.set(name, i);
    }
    return i;
  };
  const closure = (start: string): number[] => {
    const seen = new Set<string>();
    const visit = (name: string) => {
      // The entry chunk is already running when the map is read.
      if (seen.has(name) || bundle[name]?.isEntry) return;
      seen.add(name);
      for (const dep of bundle[name]?.imports ?? []) visit(dep);
    };
    visit(start);
    return [...seen].map(fileIndex);
  };
  const modules: Record<string, number[]> = {};
  for (const chunk of Object.values(bundle).sort((a, b) => a.fileName.localeCompare(b.fileName))) {
    if (chunk.type !== 'chunk' || !chunk.isDynamicEntry || !chunk.facadeModuleId) continue;
    const module = relative(srcDir, chunk.facadeModuleId).split('\\').join('/');
    if (module.startsWith('..') || !include(module)) continue;
    modules[module] = closure(chunk.fileName);
  }
  return { files, modules };
}

export type ModuleGraph = { files: string[]; modules: Record<string, number[]> };

/** The id of the script element in index.html that carries the map (web/src/app/module-graph.ts reads it). */
export const MODULE_GRAPH_ELEMENT_ID = 'module-graph';

/**
 * Writes the chunk map of the app's start-up code and pages into index.html as a JSON data block
 * (never executed, so the server's CSP is not involved). The browser can then fetch a page's
 * chunks up front without running them (`<link rel="modulepreload">`), and run them later, a
 * layer at a time (web/src/app/staged-boot.ts). Without the map (the dev server), nothing is
 * fetched ahead: each import fetches what it needs.
 */
export function moduleGraphPlugin(srcDir: string): Plugin {
  return {
    name: 'blockwise:module-graph',
    apply: 'build',
    transformIndexHtml: {
      order: 'post',
      handler(_html, ctx) {
        if (!ctx.bundle) return [];
        const graph = mapModuleChunks(
          ctx.bundle as unknown as Record<string, ChunkFacts>,
          srcDir,
          (module) => module === 'app/boot.tsx' || module.startsWith('app/routes/'),
        );
        // `<` escaped: the JSON sits inside a script element.
        const json = JSON.stringify(graph).replaceAll('<', '\\u003c');
        return [
          {
            tag: 'script',
            attrs: { type: 'application/json', id: MODULE_GRAPH_ELEMENT_ID },
            children: json,
            injectTo: 'head',
          },
        ];
      },
    },
  };
}
