import { useSyncExternalStore, type AnchorHTMLAttributes, type MouseEvent } from 'react';
import { matchRoute, type Route } from './route-match.ts';

/**
 * A tiny history-API router (no dependency): the app has six pages. `matchRoute` is pure (tested);
 * `navigate` pushes a history entry and notifies subscribers; `Link` is a real <a href> (open in a
 * new tab, copy link, middle click all work) that navigates in-app on a plain left click.
 */

export { matchRoute, paths, type Route } from './route-match.ts';

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

/**
 * A link to a path no page of the app owns (the server answers it: the regression check's
 * /c/pair/… link freezes a comparison and redirects to it) is followed by the browser, not drawn
 * in-app as "not found".
 */
export function Link({ to, onClick, ...rest }: LinkProps) {
  const handle = (event: MouseEvent<HTMLAnchorElement>) => {
    onClick?.(event);
    if (
      event.defaultPrevented ||
      matchRoute(new URL(to, 'http://localhost').pathname).name === 'not-found' ||
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
