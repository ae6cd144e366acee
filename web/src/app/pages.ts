import { matchRoute, type Route } from './route-match.ts';

/** Every page is its own chunk, loaded on demand (App.tsx wraps each with lazyPage). */
export const pageModules = {
  plan: () => import('./routes/PlanPage.tsx'),
  share: () => import('./routes/SharePage.tsx'),
  runs: () => import('./routes/RunsPage.tsx'),
  run: () => import('./routes/RunPage.tsx'),
  history: () => import('./routes/HistoryPage.tsx'),
  historySeries: () => import('./routes/HistorySeriesPage.tsx'),
  fleet: () => import('./routes/FleetPage.tsx'),
};

const MODULE_OF: Record<Route['name'], keyof typeof pageModules | null> = {
  plan: 'plan',
  share: 'share',
  runs: 'runs',
  run: 'run',
  history: 'history',
  'history-series': 'historySeries',
  fleet: 'fleet',
  'fleet-plan': 'fleet',
  'not-found': null,
};

/**
 * The source of the page at `pathname`, as web/build/module-graph.ts names it in index.html's chunk
 * map (main.tsx fetches its chunks ahead), or null for a route without a page module.
 */
export function pageSourceOf(pathname: string): string | null {
  const name = MODULE_OF[matchRoute(pathname).name];
  return name ? PAGE_SOURCES[name] : null;
}

/** Each page module's file under web/src (module-graph.test.ts checks that each names a page module). */
export const PAGE_SOURCES: Record<keyof typeof pageModules, string> = {
  plan: 'app/routes/PlanPage.tsx',
  share: 'app/routes/SharePage.tsx',
  runs: 'app/routes/RunsPage.tsx',
  run: 'app/routes/RunPage.tsx',
  history: 'app/routes/HistoryPage.tsx',
  historySeries: 'app/routes/HistorySeriesPage.tsx',
  fleet: 'app/routes/FleetPage.tsx',
};
