import { nextTask } from '../lib/next-task.ts';

/**
 * Fetching the app's code ahead of running it. The build writes, into index.html, which chunks
 * the start-up ('startup': boot.tsx and what it imports) and each page need
 * (web/build/module-graph.ts). A `<link
 * rel="modulepreload">` fetches and compiles a chunk without running it, so everything the page
 * needs downloads at once, in parallel, while staged-boot.ts runs it a layer at a time.
 */

/** Same as MODULE_GRAPH_ELEMENT_ID in web/build/module-graph.ts. */
const ELEMENT_ID = 'module-graph';

type ModuleGraph = { files: string[]; modules: Record<string, number[]> };

function isModuleGraph(value: unknown): value is ModuleGraph {
  if (typeof value !== 'object' || value === null) return false;
  const { files, modules } = value as Partial<ModuleGraph>;
  return (
    Array.isArray(files) &&
    files.every((f) => typeof f === 'string') &&
    typeof modules === 'object' &&
    modules !== null &&
    Object.values(modules).every(
      (list) => Array.isArray(list) && list.every((i) => typeof files[i] === 'string'),
    )
  );
}

/** The map index.html carries, or null where there is none (the dev server, tests) or it is unreadable. */
export function readModuleGraph(doc: Document): ModuleGraph | null {
  const text = doc.getElementById(ELEMENT_ID)?.textContent;
  if (!text) return null;
  try {
    const value: unknown = JSON.parse(text);
    return isModuleGraph(value) ? value : null;
  } catch {
    return null;
  }
}

/**
 * Links put in per task. Each starts a fetch, 2–5 ms apiece in Lighthouse's trace on this machine
 * (bench P11, where a task counts as blocking past 12.5 ms before its 4× CPU slowdown).
 */
const LINKS_PER_TASK = 3;

/**
 * Starts fetching every chunk that `modules` ('startup', or a page's path under web/src such as
 * 'app/routes/PlanPage.tsx') need, in
 * that order, without running any; chunks already asked for are skipped. The links go in a few at
 * a time, a task apart: three dozen in one go made a task long enough to count as blocking.
 * Resolves to the files it asked for (none without a map: each import then fetches its own).
 */
export async function preloadModules(
  modules: readonly string[],
  { doc = document, base = '/' }: { doc?: Document; base?: string } = {},
): Promise<string[]> {
  const graph = readModuleGraph(doc);
  if (!graph) return [];
  const wanted = new Set(
    modules.flatMap((m) => (graph.modules[m] ?? []).map((i) => `${base}${graph.files[i]}`)),
  );
  for (const link of doc.querySelectorAll<HTMLLinkElement>('link[rel="modulepreload"]'))
    wanted.delete(link.getAttribute('href') ?? '');
  const hrefs = [...wanted];
  for (let i = 0; i < hrefs.length; i += LINKS_PER_TASK) {
    if (i > 0) await nextTask();
    const batch = doc.createDocumentFragment();
    for (const href of hrefs.slice(i, i + LINKS_PER_TASK)) {
      const link = doc.createElement('link');
      link.rel = 'modulepreload';
      link.href = href;
      batch.append(link);
    }
    doc.head.append(batch);
  }
  return hrefs;
}
