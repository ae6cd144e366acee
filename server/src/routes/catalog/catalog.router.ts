import { createHash } from 'node:crypto';
import { gzipSync } from 'node:zlib';
import { Router } from 'express';
import { activeCatalog, catalogInfo, formatCatalog, type CatalogData } from '@blockwise/shared/catalog';
import type { StorelessContext } from '../../context.ts';
import { acceptsGzip } from '../../http/compressed-assets.ts';
import { rateLimit } from '../../http/rate-limit.ts';

/**
 * The catalog this server plans with (`serve --catalog FILE` or BLOCKWISE_CATALOG, else the
 * built-in one), so the web app prices with the same numbers and shows their date and source:
 * GET /api/catalog says which catalog it is (small); GET /api/catalog/data is the file itself,
 * which the web app fetches only when it is not the built-in one it already has.
 */
export function catalogRouter(ctx: StorelessContext): Router {
  const router = Router();
  const reads = rateLimit(ctx.limiters.reads);
  let cached: { catalog: CatalogData; body: Buffer; gzip: Buffer; etag: string } | undefined;
  const encoded = () => {
    const catalog = activeCatalog();
    if (cached?.catalog !== catalog) {
      const body = Buffer.from(formatCatalog(catalog));
      const etag = `"${createHash('sha256').update(body).digest('base64url').slice(0, 27)}"`;
      cached = { catalog, body, gzip: gzipSync(body, { level: 9 }), etag };
    }
    return cached;
  };

  router.get('/api/catalog', reads, (_req, res) => {
    const info = catalogInfo();
    // The server's file path is not the public's business: its name says enough.
    const origin = info.builtIn ? 'built-in' : (info.origin.split(/[\\/]/).pop() ?? 'catalog');
    res.setHeader('Cache-Control', 'no-cache');
    res.json({ ...info, origin, etag: encoded().etag });
  });

  router.get('/api/catalog/data', reads, (req, res) => {
    const { body, gzip, etag } = encoded();
    res.setHeader('ETag', etag);
    res.setHeader('Cache-Control', 'no-cache');
    res.setHeader('Vary', 'Accept-Encoding');
    if (req.headers['if-none-match'] === etag) {
      res.status(304).end();
      return;
    }
    res.type('application/json');
    if (acceptsGzip(req.headers['accept-encoding'])) {
      res.setHeader('Content-Encoding', 'gzip');
      res.end(gzip);
    } else {
      res.end(body);
    }
  });
  return router;
}
