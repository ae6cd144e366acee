import { QueryClientProvider } from '@tanstack/react-query';
import { Suspense, useEffect, useRef } from 'react';
import { ErrorBoundary } from '../components/ErrorBoundary.tsx';
import { LoadingState } from '../components/States.tsx';
import { lazyPage } from '../lib/lazy-page.tsx';
import { createQueryClient } from '../lib/query.ts';
import { comparisonQuery } from '../features/share/api/comparison.ts';
import { pageModules } from './pages.ts';
import { Link, matchRoute, paths, useLocation, useRoute, type Route } from './router.tsx';
import { indexedDbFileStore } from './session/file-store.ts';
import { SessionProvider, browserStorage } from './session/SessionProvider.tsx';

// Every page is its own chunk: a share link does not download the planning forms, and the
// planning page's first paint needs neither Recharts nor the AWS catalog.
const PlanPage = lazyPage(pageModules.plan);
const SharePage = lazyPage(pageModules.share);
const RunsPage = lazyPage(pageModules.runs);
const RunPage = lazyPage(pageModules.run);
const HistoryPage = lazyPage(pageModules.history);
const HistorySeriesPage = lazyPage(pageModules.historySeries);
const FleetPage = lazyPage(pageModules.fleet);

const PAGES: Record<Route['name'], { preload: () => Promise<void> } | null> = {
  plan: PlanPage,
  share: SharePage,
  runs: RunsPage,
  run: RunPage,
  history: HistoryPage,
  'history-series': HistorySeriesPage,
  fleet: FleetPage,
  'fleet-plan': FleetPage,
  'not-found': null,
};

/**
 * Loads the code of the page at `pathname` (boot.tsx awaits it before the first render) and, for
 * a share link, its comparison: the server's HTML already shows the page's head, and React's first
 * draw should be the finished page, not a loading state over that head. The request is the one
 * the HTML preloads (`<link rel="preload">`); a failure is left to the page, which asks again.
 */
export function preloadPage(pathname: string): Promise<void> {
  const route = matchRoute(pathname);
  const code = PAGES[route.name]?.preload() ?? Promise.resolve();
  const data =
    route.name === 'share' ? queryClient.prefetchQuery(comparisonQuery(route.id)) : Promise.resolve();
  return Promise.all([code, data]).then(() => undefined);
}

function NotFound({ path }: { path: string }) {
  return (
    <div className="page">
      <h1 tabIndex={-1} id="page-title">
        Page not found
      </h1>
      <p>
        Nothing lives at <code>{path}</code>. <Link to={paths.plan()}>Start a planning session</Link> or{' '}
        <Link to={paths.runs()}>browse the archive</Link>.
      </p>
    </div>
  );
}

function Page({ route }: { route: Route }) {
  switch (route.name) {
    case 'plan':
      return <PlanPage />;
    case 'share':
      return <SharePage key={route.id} id={route.id} />;
    case 'runs':
      return <RunsPage />;
    case 'run':
      return <RunPage key={route.id} id={route.id} />;
    case 'history':
      return <HistoryPage />;
    case 'history-series':
      return <HistorySeriesPage key={route.series} series={route.series} />;
    case 'fleet':
      return <FleetPage />;
    case 'fleet-plan':
      return <FleetPage key={route.id} id={route.id} />;
    case 'not-found':
      return <NotFound path={route.path} />;
  }
}

/** After an in-app navigation, focus moves to the new page's heading (screen readers announce it). */
function useFocusOnNavigate(pathname: string) {
  const first = useRef(true);
  useEffect(() => {
    if (first.current) {
      first.current = false;
      return;
    }
    const id = window.setTimeout(
      () => document.getElementById('page-title')?.focus({ preventScroll: false }),
      0,
    );
    return () => window.clearTimeout(id);
  }, [pathname]);
}

function Shell() {
  const route = useRoute();
  const { pathname } = useLocation();
  useFocusOnNavigate(pathname);
  const current = (name: Route['name'] | Route['name'][]) =>
    (Array.isArray(name) ? name : [name]).includes(route.name) ? ('page' as const) : undefined;
  return (
    <>
      <a className="skip-link" href="#main">
        Skip to content
      </a>
      <header className="app-header">
        <Link to={paths.plan()} className="brand">
          <span className="brand__mark" aria-hidden="true">
            ▦
          </span>
          Blockwise
        </Link>
        <nav aria-label="Main">
          <ul className="nav">
            <li>
              <Link to={paths.plan()} aria-current={current('plan')}>
                Plan
              </Link>
            </li>
            <li>
              <Link to={paths.runs()} aria-current={current(['runs', 'run'])}>
                Archive
              </Link>
            </li>
            <li>
              <Link to={paths.history()} aria-current={current(['history', 'history-series'])}>
                History
              </Link>
            </li>
            <li>
              <Link to={paths.fleet()} aria-current={current(['fleet', 'fleet-plan'])}>
                Fleet
              </Link>
            </li>
          </ul>
        </nav>
      </header>
      <main id="main" className="app-main" tabIndex={-1}>
        <ErrorBoundary what="this page" resetKey={pathname}>
          <Suspense fallback={<LoadingState label="Loading…" />}>
            <Page route={route} />
          </Suspense>
        </ErrorBoundary>
      </main>
      <footer className="app-footer">
        <p>
          Blockwise — what storage to buy on AWS, and why. Every number names its unit; every price its
          region, date and source. Instance limits: AWS DescribeInstanceTypes and instance-type docs; EBS
          prices: AWS Price List.
        </p>
      </footer>
    </>
  );
}

/** One cache of server responses for the app's lifetime (lib/query.ts). */
const queryClient = createQueryClient();

/** The session's raw files, kept across reloads (null where the browser has no IndexedDB). */
const FILE_STORE = indexedDbFileStore();

export function App() {
  return (
    <QueryClientProvider client={queryClient}>
      <SessionProvider storage={browserStorage()} fileStore={FILE_STORE}>
        <Shell />
      </SessionProvider>
    </QueryClientProvider>
  );
}
