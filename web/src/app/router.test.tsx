import { act, fireEvent, render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it } from 'vitest';
import { Link, matchRoute, navigate, paths, useRoute } from './router.tsx';

describe('matchRoute', () => {
  it.each([
    ['/', { name: 'plan' }],
    ['', { name: 'plan' }],
    ['/runs', { name: 'runs' }],
    ['/runs/', { name: 'runs' }],
    ['/runs/AAAAAAAAAAAAAAAAAAAAAA', { name: 'run', id: 'AAAAAAAAAAAAAAAAAAAAAA' }],
    ['/c/abc_DEF-123', { name: 'share', id: 'abc_DEF-123' }],
    ['/history', { name: 'history' }],
    ['/history/', { name: 'history' }],
    ['/history/pg-data-volume', { name: 'history-series', series: 'pg-data-volume' }],
    ['/history/team%2Fpg', { name: 'history-series', series: 'team/pg' }],
    ['/history/team/pg', { name: 'history-series', series: 'team/pg' }],
    ['/history/%E0%A4%A', { name: 'not-found', path: '/history/%E0%A4%A' }],
    // A malformed escape in an id is a page that does not exist, not a URIError (a blank app).
    ['/fleet/%E0%A4%A', { name: 'not-found', path: '/fleet/%E0%A4%A' }],
    ['/c/%E0%A4%A', { name: 'not-found', path: '/c/%E0%A4%A' }],
    ['/runs/%E0%A4%A', { name: 'not-found', path: '/runs/%E0%A4%A' }],
    ['/fleet', { name: 'fleet' }],
    ['/fleet/FFFFFFFFFFFFFFFFFFFFFF', { name: 'fleet-plan', id: 'FFFFFFFFFFFFFFFFFFFFFF' }],
    ['/historyx', { name: 'not-found', path: '/historyx' }],
    ['/c/a/b', { name: 'not-found', path: '/c/a/b' }],
  ])('%s', (path, route) => {
    expect(matchRoute(path)).toEqual(route);
  });

  it('builds paths the matcher reads back', () => {
    expect(matchRoute(paths.share('x_y'))).toEqual({ name: 'share', id: 'x_y' });
    expect(matchRoute(paths.run('r1'))).toEqual({ name: 'run', id: 'r1' });
    const url = new URL(
      paths.historySeries('team/pg', { branch: 'feature/x', run: 'r1' }),
      'http://localhost',
    );
    expect(url.pathname).toBe('/history/team%2Fpg');
    expect(matchRoute(url.pathname)).toEqual({ name: 'history-series', series: 'team/pg' });
    expect(url.searchParams.get('branch')).toBe('feature/x');
  });
});

function Where() {
  const route = useRoute();
  return (
    <>
      <p>route: {route.name}</p>
      <Link to="/runs">Archive</Link>
      <Link to={`/c/pair/${'B'.repeat(22)}/${'R'.repeat(22)}`}>Compare</Link>
    </>
  );
}

describe('navigation', () => {
  afterEach(() => window.history.replaceState(null, '', '/'));

  it('follows links and back/forward without reloading', async () => {
    window.history.replaceState(null, '', '/');
    render(<Where />);
    expect(screen.getByText('route: plan')).toBeDefined();
    await userEvent.click(screen.getByRole('link', { name: 'Archive' }));
    expect(screen.getByText('route: runs')).toBeDefined();
    act(() => navigate('/c/abc'));
    expect(screen.getByText('route: share')).toBeDefined();
  });

  it('leaves a link to a path no page owns to the browser (the server answers /c/pair/…)', () => {
    window.history.replaceState(null, '', '/runs');
    render(<Where />);
    // fireEvent answers false when a handler prevented the default action (the browser's navigation).
    expect(fireEvent.click(screen.getByRole('link', { name: 'Archive' }))).toBe(false);
    expect(fireEvent.click(screen.getByRole('link', { name: 'Compare' }))).toBe(true);
  });
});
