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

/** The map's key for the app's start-up (boot.tsx and what it imports). */
export const STARTUP = 'startup';

/**
 * Which chunks the browser needs to run the app's start-up and each page, all of them fetched up
 * front. `STARTUP` is `startupModule` (boot.tsx) and every chunk it imports, transitively; each
 * page (a lazily imported module under `srcDir` that `isPage` accepts, by its path there:
 * 'app/routes/PlanPage.tsx') likewise. The entry chunk itself is running when the map is read:
 * never listed. The few small chunks only staged-boot.ts's layers import (shared's index
 * modules) are left to their own import: preloading them too measured worse (share page, four
 * Lighthouse runs each, 2026-11-25: 0.84–0.89 against 0.88–0.96), more links to put in for
 * chunks that arrive in time anyway.
 * Files are listed once and referred to by index, so the map stays small in index.html:
 * `{ files: ['assets/boot-x.js', …], modules: { startup: [0, 3, 4], 'app/routes/PlanPage.tsx': [5, 3] } }`.
 */
export function mapModuleChunks(
  bundle: Record<string, ChunkFacts>,
  srcDir: string,
  { startupModule, isPage }: { startupModule: string; isPage: (module: string) => boolean },
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
    if (module.startsWith('..')) continue;
    if (module === startupModule) modules[STARTUP] = closure(chunk.fileName);
    else if (isPage(module)) modules[module] = closure(chunk.fileName);
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
        const graph = mapModuleChunks(ctx.bundle as unknown as Record<string, ChunkFacts>, srcDir, {
          startupModule: 'app/boot.tsx',
          isPage: (module) => module.startsWith('app/routes/'),
        });
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
