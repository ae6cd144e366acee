import { OpenAPIRegistry, OpenApiGeneratorV3 } from '@asteasolutions/zod-to-openapi';
import { Router } from 'express';
import { APP_VERSION } from '../../config.ts';
import { registerPaths } from './paths.ts';
import { error, registerComponents } from './registry.ts';

/**
 * The OpenAPI 3.0 document, generated (zod-to-openapi) from the same Zod schemas the server
 * validates with: the named schemas in registry.ts, the paths and their parameters in paths.ts.
 */
export function openApiDocument(): object {
  const registry = new OpenAPIRegistry();
  registerComponents(registry);
  registerPaths(registry);
  const document = new OpenApiGeneratorV3(registry.definitions).generateDocument({
    openapi: '3.0.3',
    info: {
      title: 'Blockwise API',
      version: APP_VERSION,
      description:
        "Archive fio results, analyze them against AWS EBS and instance limits, and share immutable comparisons. Errors are {error:{code,message,path?}} with stable codes; every route that reads the archive answers 503 store_unavailable with Retry-After while its database is unreachable, read-only or full, and each query parameter may be given once (a repeated one is 400 query_invalid). Writes and listings need Authorization: Bearer <token> once the archive has held a CI token (or always, with `serve --auth required`; never, with `--auth open`). Writes without a token from a page on another site (Sec-Fetch-Site cross-site/same-site, or a foreign Origin), or from a browser that addressed the server under a name that is not loopback, BLOCKWISE_PUBLIC_URL's or in BLOCKWISE_ALLOWED_HOSTS, are 403 cross_origin. Links in responses (url, rawUrl, runUrl, comparisonUrl) are paths such as /runs/ID, or absolute from the server's BLOCKWISE_PUBLIC_URL.",
    },
  });
  withStoreErrors(document.paths as Record<string, Record<string, Operation>>);
  return document;
}

type Operation = { responses: Record<string, unknown>; parameters?: unknown[] };

/**
 * What every API operation can answer besides its own responses: 503 store_unavailable (with
 * Retry-After) while the database is unreachable, read-only or full — every route that reads or
 * writes the archive, mapped in one place (errors.ts) — and, when it takes query parameters,
 * 400 query_invalid for one given twice.
 */
function withStoreErrors(paths: Record<string, Record<string, Operation>>): void {
  for (const [path, operations] of Object.entries(paths)) {
    if (!path.startsWith('/api/') || path === '/api/openapi.json' || path.startsWith('/api/catalog'))
      continue;
    for (const operation of Object.values(operations)) {
      operation.responses[503] ??= error(
        'store_unavailable: the archive is unreachable, read-only or full (Retry-After); or busy',
      );
      if (operation.parameters?.some((p) => (p as { in?: string }).in === 'query'))
        operation.responses[400] ??= error('query_invalid: a query parameter given twice, or malformed');
    }
  }
}

export function openApiRouter(): Router {
  const router = Router();
  let cached: string | null = null;
  router.get('/api/openapi.json', (_req, res) => {
    cached ??= JSON.stringify(openApiDocument());
    res.type('application/json').send(cached);
  });
  return router;
}
