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
 * Starts downloading the chunk of the page at `pathname` (main.tsx, alongside the app's own code,
 * so the two arrive in one round trip instead of one after the other). Failures are left to the
 * page's lazy render, which retries and reports.
 */
export function warmPage(pathname: string): void {
  const name = MODULE_OF[matchRoute(pathname).name];
  if (name) pageModules[name]().catch(() => undefined);
}
