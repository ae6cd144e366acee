import request from 'supertest';
import {
  builtInCatalog,
  installBuiltInCatalog,
  installCatalog,
  type CatalogData,
} from '@blockwise/shared/catalog';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { makeTestApp, type TestApp } from '../../testing/test-app.ts';

let t: TestApp;
beforeAll(async () => {
  t = await makeTestApp();
});
afterAll(() => t.close());
afterEach(() => installBuiltInCatalog());

/** The built-in catalog with one price changed and dated 2026-11-01: what a refresh gives. */
function refreshed(): CatalogData {
  const base = builtInCatalog();
  const source = {
    id: 'AmazonEC2/us-east-1/20261101000000',
    kind: 'aws-price-list' as const,
    what: 'AWS Price List, AmazonEC2 offer 20261101000000 for us-east-1',
    location:
      'https://pricing.us-east-1.amazonaws.com/offers/v1.0/aws/AmazonEC2/20261101000000/us-east-1/index.json',
    publicationDate: '2026-11-01T00:00:00Z',
    fetchedAt: '2026-11-24T10:00:00.000Z',
  };
  const usEast1 = base.ebs['us-east-1']!;
  return {
    ...base,
    generatedAt: '2026-11-24T10:00:00.000Z',
    sources: { ...base.sources, [source.id]: source },
    ebs: {
      ...base.ebs,
      'us-east-1': {
        ...usEast1,
        source: source.id,
        rates: { ...usEast1.rates, gp3: { ...usEast1.rates.gp3, storage: 0.07 } },
      },
    },
  };
}

describe('GET /api/catalog: the catalog the server plans with', () => {
  it('built in: says so, with its price dates', async () => {
    const res = await request(t.app).get('/api/catalog').expect(200);
    expect(res.body).toMatchObject({
      origin: 'built-in',
      builtIn: true,
      // Local / Wavelength Zones from the 2022 extract, Regions from the 2024 pricing-page file.
      pricesFrom: '2022-02-10',
      pricesTo: '2024-07-18',
      ebsRegions: 70,
    });
  });

  it('a loaded file: its name (not the server’s path), and /data serves it, gzip’d and with an ETag', async () => {
    installCatalog(refreshed(), '/srv/blockwise/catalogs/cat.json');
    const info = await request(t.app).get('/api/catalog').expect(200);
    expect(info.body).toMatchObject({ origin: 'cat.json', builtIn: false, pricesTo: '2026-11-01' });
    // supertest inflates the gzip'd body itself.
    const data = await request(t.app).get('/api/catalog/data').set('Accept-Encoding', 'gzip').expect(200);
    expect(data.headers['content-encoding']).toBe('gzip');
    const body = data.body as CatalogData;
    expect(body.ebs['us-east-1']!.rates.gp3.storage).toBe(0.07);
    expect(data.headers.etag).toBe(info.body.etag);
    await request(t.app).get('/api/catalog/data').set('If-None-Match', info.body.etag).expect(304);
  });
});
