/**
 * The app's routes as pure data: which page a path is, and the path of each page. Kept apart from
 * router.tsx (no React) so main.tsx can start loading the page's chunk before the app's code.
 */

export type Route =
  | { name: 'plan' }
  | { name: 'share'; id: string }
  | { name: 'runs' }
  | { name: 'run'; id: string }
  | { name: 'history' }
  | { name: 'history-series'; series: string }
  | { name: 'fleet' }
  | { name: 'fleet-plan'; id: string }
  | { name: 'not-found'; path: string };

export const paths = {
  plan: () => '/',
  share: (id: string) => `/c/${encodeURIComponent(id)}`,
  runs: () => '/runs',
  run: (id: string) => `/runs/${encodeURIComponent(id)}`,
  history: () => '/history',
  fleet: () => '/fleet',
  fleetPlan: (id: string) => `/fleet/${encodeURIComponent(id)}`,
  /** Series names may hold `/`: encoded into one path segment (`/history/team%2Fpg`). */
  historySeries: (series: string, query: { branch?: string | null; run?: string | null } = {}) => {
    const q = new URLSearchParams();
    if (query.branch) q.set('branch', query.branch);
    if (query.run) q.set('run', query.run);
    const qs = q.toString();
    return `/history/${encodeURIComponent(series)}${qs ? `?${qs}` : ''}`;
  },
};

/** A path segment decoded, or null for a malformed escape (`%E0%A4%A`): such a link is not found, not a crash. */
function decodeSegment(segment: string): string | null {
  try {
    return decodeURIComponent(segment);
  } catch {
    return null;
  }
}

/** The pages whose last segment is an id: prefix → route. */
const ID_ROUTES: ReadonlyArray<readonly [RegExp, (id: string) => Route]> = [
  [/^\/c\/([^/]+)$/, (id) => ({ name: 'share', id })],
  [/^\/runs\/([^/]+)$/, (id) => ({ name: 'run', id })],
  [/^\/fleet\/([^/]+)$/, (id) => ({ name: 'fleet-plan', id })],
  [/^\/history\/(.+)$/, (series) => ({ name: 'history-series', series })],
];

export function matchRoute(pathname: string): Route {
  const path = pathname.replace(/\/+$/, '') || '/';
  if (path === '/') return { name: 'plan' };
  if (path === '/runs') return { name: 'runs' };
  if (path === '/history') return { name: 'history' };
  if (path === '/fleet') return { name: 'fleet' };
  for (const [pattern, route] of ID_ROUTES) {
    const m = pattern.exec(path);
    if (!m) continue;
    const decoded = decodeSegment(m[1]!);
    return decoded === null ? { name: 'not-found', path } : route(decoded);
  }
  return { name: 'not-found', path };
}
