import { builtInCatalog, type CatalogData } from '@blockwise/shared/catalog';
import { renderHook, waitFor } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { catalogLabel, loadCatalog } from './catalog.ts';

afterEach(() => vi.unstubAllGlobals());

/** The built-in catalog with us-east-1 re-priced from a 2026-11-01 offer: what `catalog update` writes. */
function refreshed(): CatalogData {
  const base = builtInCatalog();
  const id = 'AmazonEC2/us-east-1/20261101000000';
  const usEast1 = base.ebs['us-east-1']!;
  return {
    ...base,
    generatedAt: '2026-11-24T10:00:00.000Z',
    sources: {
      ...base.sources,
      [id]: {
        id,
        kind: 'aws-price-list',
        what: 'AWS Price List, AmazonEC2 offer 20261101000000 for us-east-1',
        location:
          'https://pricing.us-east-1.amazonaws.com/offers/v1.0/aws/AmazonEC2/20261101000000/us-east-1/index.json',
        publicationDate: '2026-11-01T00:00:00Z',
        fetchedAt: '2026-11-24T10:00:00.000Z',
      },
    },
    ebs: {
      ...base.ebs,
      'us-east-1': {
        ...usEast1,
        source: id,
        rates: { ...usEast1.rates, gp3: { ...usEast1.rates.gp3, storage: 0.07 } },
      },
    },
  };
}

describe('the web app prices with the catalog its server loaded', () => {
  it('installs the server’s catalog when it is not the built-in one, and names it', async () => {
    const calls: string[] = [];
    vi.stubGlobal('fetch', async (url: string) => {
      calls.push(url);
      if (url === '/api/catalog')
        return Response.json({
          origin: 'cat.json',
          builtIn: false,
          generatedAt: '2026-11-24T10:00:00.000Z',
          pricesFrom: '2022-02-10',
          pricesTo: '2026-11-01',
          ebsRegions: 63,
          ec2Regions: 1,
          instanceTypes: 1390,
          etag: '"x"',
        });
      if (url === '/api/catalog/data') return Response.json(refreshed());
      return new Response(null, { status: 404 });
    });
    const catalog = await loadCatalog();
    expect(calls).toEqual(['/api/catalog', '/api/catalog/data']);
    const card = catalog.rateCardFor('us-east-1')!;
    expect(card).toMatchObject({ date: '2026-11-01', gp3: { storage: 0.07 } });
    expect(catalogLabel(catalog)).toBe('cat.json, written 2026-11-24');
  });
});

describe('useCatalog(wanted)', () => {
  it('loads nothing until wanted, then loads', async () => {
    vi.resetModules();
    // A fresh module: no catalog loaded by an earlier test in this file.
    const fresh = await import('./catalog.ts');
    const fetch = vi.fn(async () => new Response(null, { status: 404 }));
    vi.stubGlobal('fetch', fetch);
    const { result, rerender } = renderHook(({ wanted }) => fresh.useCatalog(wanted), {
      initialProps: { wanted: false },
    });
    await new Promise((resolve) => setTimeout(resolve, 20));
    expect(result.current.status).toBe('loading');
    expect(fetch).not.toHaveBeenCalled(); // not even the server's catalog info
    rerender({ wanted: true });
    await waitFor(() => expect(result.current.status).toBe('ready'));
    expect(result.current.catalog?.listInstanceTypes()).toHaveLength(1390);
  });
});
