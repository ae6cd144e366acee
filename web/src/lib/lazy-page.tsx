import { lazy, type ComponentType } from 'react';

/**
 * A lazily loaded page that can also be loaded ahead of React's first render. `React.lazy`
 * suspends on its first render even when the module is already in memory, so the first commit
 * would show the loading fallback instead of the page; once `preload()` has resolved, the page
 * renders directly. main.tsx preloads the page of the URL being opened before it mounts the app:
 * until then the static frame in index.html stays on screen, and React's first commit is the page
 * itself (no spinner flash, no second largest-contentful-paint).
 */
export type LazyPage<P extends object> = ComponentType<P> & { preload: () => Promise<void> };

export function lazyPage<P extends object>(load: () => Promise<{ default: ComponentType<P> }>): LazyPage<P> {
  let loaded: ComponentType<P> | null = null;
  const remember = (m: { default: ComponentType<P> }) => {
    loaded = m.default;
    return m;
  };
  const Lazy = lazy(() => load().then(remember));
  const Page = (props: P) => {
    const Loaded = loaded;
    return Loaded ? <Loaded {...props} /> : <Lazy {...props} />;
  };
  return Object.assign(Page, {
    preload: () =>
      load().then(
        (m) => void remember(m),
        // A failed preload is not fatal: the lazy render retries and its ErrorBoundary reports.
        () => undefined,
      ),
  });
}
