import { useSyncExternalStore, type AnchorHTMLAttributes, type MouseEvent } from 'react';

/**
 * A tiny history-API router (no dependency): the app has six pages. `matchRoute` is pure (tested);
 * `navigate` pushes a history entry and notifies subscribers; `Link` is a real <a href> (open in a
 * new tab, copy link, middle click all work) that navigates in-app on a plain left click.
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

const listeners = new Set<() => void>();
const NAVIGATE_EVENT = 'blockwise:navigate';

function subscribe(listener: () => void): () => void {
  listeners.add(listener);
  window.addEventListener('popstate', listener);
  window.addEventListener(NAVIGATE_EVENT, listener);
  return () => {
    listeners.delete(listener);
    window.removeEventListener('popstate', listener);
    window.removeEventListener(NAVIGATE_EVENT, listener);
  };
}

const snapshot = () => `${window.location.pathname}${window.location.search}${window.location.hash}`;

export function navigate(to: string, options: { replace?: boolean } = {}): void {
  if (options.replace) window.history.replaceState(null, '', to);
  else window.history.pushState(null, '', to);
  window.dispatchEvent(new Event(NAVIGATE_EVENT));
  if (!options.replace) window.scrollTo?.(0, 0);
}

export type Location = { pathname: string; search: string; hash: string; href: string };

/** The current location; re-renders on navigate() and on back/forward. */
export function useLocation(): Location {
  const href = useSyncExternalStore(subscribe, snapshot, () => '/');
  const url = new URL(href, 'http://localhost');
  return { pathname: url.pathname, search: url.search, hash: url.hash, href };
}

export function useRoute(): Route {
  return matchRoute(useLocation().pathname);
}

type LinkProps = AnchorHTMLAttributes<HTMLAnchorElement> & { to: string };

export function Link({ to, onClick, ...rest }: LinkProps) {
  const handle = (event: MouseEvent<HTMLAnchorElement>) => {
    onClick?.(event);
    if (
      event.defaultPrevented ||
      event.button !== 0 ||
      event.metaKey ||
      event.ctrlKey ||
      event.shiftKey ||
      event.altKey ||
      rest.target === '_blank'
    )
      return;
    event.preventDefault();
    navigate(to);
  };
  return <a href={to} onClick={handle} {...rest} />;
}
