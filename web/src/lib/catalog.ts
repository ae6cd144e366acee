import type * as AnalysisModule from '@blockwise/shared/analysis';
import type * as CatalogModule from '@blockwise/shared/catalog';
import { useCallback, useEffect, useState } from 'react';
import { getCatalogData, getCatalogInfo } from './api-client.ts';
import { nextTask } from './next-task.ts';

/**
 * The AWS catalog (1,390 instance types, regional EBS prices) is ~200 KB of data: it is loaded
 * lazily, in its own chunk, after the page's first paint, with the analyses that resolve labels
 * against it (`@blockwise/shared/analysis`, which imports the catalog, so it is lazy too). One
 * promise per page load; every component that needs it shares it.
 */
export type Catalog = typeof CatalogModule & typeof AnalysisModule;

/** The two lazily loaded entries as one object: what `loadCatalog` resolves to (and tests build). */
export function joinCatalog(catalog: typeof CatalogModule, analysis: typeof AnalysisModule): Catalog {
  return { ...catalog, ...analysis };
}

let pending: Promise<Catalog> | null = null;
let loaded: Catalog | null = null;

export function loadCatalog(): Promise<Catalog> {
  // The data first (parsing ≈ 460 kB of JSON), then, a task later, the code that indexes it: run
  // together they made one task long enough to block input on a slow phone (bench P11).
  pending ??= import('@blockwise/shared/catalog-data')
    .then(() => nextTask())
    .then(() => Promise.all([import('@blockwise/shared/catalog'), import('@blockwise/shared/analysis')]))
    .then(
      async ([catalogModule, analysisModule]) => {
        const m = joinCatalog(catalogModule, analysisModule);
        await installServerCatalog(m);
        loaded = m;
        return m;
      },
      (error: unknown) => {
        pending = null; // a failed chunk load may succeed on retry
        throw error;
      },
    );
  return pending;
}

export type CatalogState =
  | { status: 'loading'; catalog: null; error: null }
  | { status: 'ready'; catalog: Catalog; error: null }
  | { status: 'error'; catalog: null; error: string };

const readyState = (catalog: Catalog): CatalogState => ({ status: 'ready', catalog, error: null });
const LOADING: CatalogState = { status: 'loading', catalog: null, error: null };

/**
 * The catalog, loaded once `wanted` (until then, and while it loads, the state is 'loading').
 * A page asks for it when something on it needs the catalog, not on every visit: parsing it is
 * the biggest piece of start-up work (bench P11). `retry` re-attempts a failed load.
 */
export function useCatalog(wanted = true): CatalogState & { retry: () => void } {
  const [state, setState] = useState<CatalogState>(() => (loaded ? readyState(loaded) : LOADING));
  const [attempt, setAttempt] = useState(0);
  useEffect(() => {
    if (state.status === 'ready' || !wanted) return;
    let live = true;
    loadCatalog().then(
      (c) => live && setState(readyState(c)),
      (e: unknown) =>
        live &&
        setState({
          status: 'error',
          catalog: null,
          error: `The AWS catalog could not be loaded (${e instanceof Error ? e.message : String(e)}).`,
        }),
    );
    return () => {
      live = false;
    };
  }, [attempt, state.status, wanted]);
  // Stable, so components memoized by their props keep their identity across renders.
  const retry = useCallback(() => {
    setState(LOADING);
    setAttempt((a) => a + 1);
  }, []);
  return { ...state, retry };
}

/**
 * The catalog the server plans with (`serve --catalog FILE`), installed over the built-in one so
 * the page prices with the server's numbers. No server answering (a static preview, a test) keeps
 * the built-in catalog; a server that names a catalog it then cannot send is an error (retry),
 * never a silent switch to other prices.
 */
async function installServerCatalog(m: Catalog): Promise<void> {
  let info;
  try {
    info = await getCatalogInfo();
  } catch {
    return;
  }
  if (info.builtIn) return;
  const checked = m.checkCatalogData(await getCatalogData());
  if (!checked.ok)
    throw new Error(`the server's catalog ${info.origin} is malformed (${checked.path}: ${checked.message})`);
  m.installCatalog(checked.value, info.origin);
}

/** "built-in catalog" or "cat.json, written 2026-11-24": where the prices beside a cost come from. */
export function catalogLabel(catalog: Catalog): string {
  const info = catalog.catalogInfo();
  return info.builtIn ? 'built-in catalog' : `${info.origin}, written ${info.generatedAt.slice(0, 10)}`;
}
