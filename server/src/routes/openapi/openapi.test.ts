import type { Express } from 'express';
import request from 'supertest';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { makeTestApp, type TestApp } from '../../testing/test-app.ts';
import { openApiDocument } from './openapi.ts';

type Parameter = { name: string; in: string; required?: boolean; schema?: Record<string, unknown> };
type Operation = { responses: Record<string, unknown>; parameters?: Parameter[] };
type Document = {
  openapi: string;
  paths: Record<string, Record<string, Operation>>;
  components: Record<string, Record<string, unknown>>;
};

type Layer = {
  route?: { path: string | string[]; methods: Record<string, boolean> };
  handle?: { stack?: Layer[] };
};

/**
 * Every `METHOD /path` the Express app answers with a handler of its own, found by walking its
 * router stack (routers are mounted without a prefix, so their route paths are absolute).
 * `router.all` layers are the 405 answers for the other methods: not operations.
 */
function mountedRoutes(app: Express): string[] {
  const found: string[] = [];
  const walk = (stack: Layer[]) => {
    for (const layer of stack) {
      if (layer.route) {
        const paths = Array.isArray(layer.route.path) ? layer.route.path : [layer.route.path];
        for (const path of paths)
          for (const [method, on] of Object.entries(layer.route.methods))
            if (on && method !== '_all')
              found.push(`${method.toUpperCase()} ${path.replace(/:(\w+)/g, '{$1}')}`);
      } else if (layer.handle?.stack) walk(layer.handle.stack);
    }
  };
  walk((app as unknown as { router: { stack: Layer[] } }).router.stack);
  return found;
}

const isApi = (route: string) => / \/api\/|^GET \/(healthz|metrics)$/.test(route);

function documentedOperations(doc: Document): string[] {
  return Object.entries(doc.paths).flatMap(([path, operations]) =>
    Object.keys(operations).map((method) => `${method.toUpperCase()} ${path}`),
  );
}

/** Every `$ref` in the document, with where it is. */
function refs(value: unknown, at = '#'): [string, string][] {
  if (Array.isArray(value)) return value.flatMap((v, i) => refs(v, `${at}/${i}`));
  if (typeof value !== 'object' || value === null) return [];
  return Object.entries(value).flatMap(([key, v]) =>
    key === '$ref' && typeof v === 'string' ? [[at, v] as [string, string]] : refs(v, `${at}/${key}`),
  );
}

function resolve(doc: Document, ref: string): unknown {
  if (!ref.startsWith('#/')) return undefined;
  return ref
    .slice(2)
    .split('/')
    .reduce<unknown>((node, key) => (node as Record<string, unknown> | undefined)?.[key], doc);
}

let t: TestApp;
let doc: Document;
beforeAll(async () => {
  t = await makeTestApp();
  doc = (await request(t.app).get('/api/openapi.json')).body as Document;
});
afterAll(() => t.close());

describe('the OpenAPI document and the routes the app mounts', () => {
  it('documents every API route the app mounts, and nothing it does not', () => {
    const mounted = mountedRoutes(t.app).filter(isApi);
    expect(mounted.length).toBeGreaterThan(10);
    expect(documentedOperations(doc).sort()).toEqual([...new Set(mounted)].sort());
  });

  it('is served as generated', () => {
    expect(doc).toEqual(JSON.parse(JSON.stringify(openApiDocument())));
    expect(doc.openapi).toBe('3.0.3');
  });
});

describe('the OpenAPI document is well-formed', () => {
  it('every operation has responses, each with a description', () => {
    for (const [path, operations] of Object.entries(doc.paths))
      for (const [method, operation] of Object.entries(operations)) {
        expect(Object.keys(operation.responses).length, `${method} ${path}`).toBeGreaterThan(0);
        for (const [status, response] of Object.entries(operation.responses))
          expect(response, `${method} ${path} ${status}`).toHaveProperty('description');
      }
  });

  it('every $ref resolves', () => {
    const all = refs(doc);
    expect(all.length).toBeGreaterThan(20);
    for (const [at, ref] of all) expect(resolve(doc, ref), `${at}: ${ref}`).toBeDefined();
  });

  it('every path template variable is a required path parameter, and only those are', () => {
    for (const [path, operations] of Object.entries(doc.paths)) {
      const variables = [...path.matchAll(/\{(\w+)\}/g)].map((m) => m[1]).sort();
      for (const [method, operation] of Object.entries(operations)) {
        const inPath = (operation.parameters ?? []).filter((p) => p.in === 'path');
        expect(inPath.map((p) => p.name).sort(), `${method} ${path}`).toEqual(variables);
        for (const p of inPath) expect(p.required, `${method} ${path} ${p.name}`).toBe(true);
      }
    }
  });
});

describe('comparisons', () => {
  it('GET /api/comparisons/{id} documents its revalidation (no-cache, ETag, 304), not an immutable copy', () => {
    const get = doc.paths['/api/comparisons/{id}']!.get! as Operation & {
      summary: string;
      description: string;
    };
    expect(Object.keys(get.responses)).toEqual(expect.arrayContaining(['200', '304', '404']));
    expect(get.summary).not.toMatch(/immutable/);
    expect(get.description).toMatch(/no-cache/);
    expect(get.description).toMatch(/ETag/);
  });
});

describe('fleet plan components', () => {
  const properties = (name: string) =>
    Object.keys((doc.components.schemas![name] as { properties: Record<string, unknown> }).properties);

  it('GET /api/fleet/plans/{id} answers StoredFleetPlan (the stored response); FleetPlan is the plan itself', () => {
    const ok = doc.paths['/api/fleet/plans/{id}']!.get!.responses['200'];
    expect(ok).toMatchObject({
      content: { 'application/json': { schema: { $ref: '#/components/schemas/StoredFleetPlan' } } },
    });
    expect(properties('StoredFleetPlan')).toEqual(
      expect.arrayContaining(['id', 'url', 'createdAt', 'analysisVersion', 'plan']),
    );
    expect(properties('FleetPlan')).toEqual(expect.arrayContaining(['volumes', 'totals', 'priceDate']));
    expect(properties('FleetPlan')).not.toContain('createdAt');
  });
});

describe('parameters come from the schemas the routes validate with', () => {
  const parameter = (path: string, method: string, name: string) =>
    doc.paths[path]![method]!.parameters!.find((p) => p.name === name);

  it.each([
    ['/api/runs', 'get', 'kind', { type: 'string', enum: ['nvme', 'ebs'] }],
    ['/api/runs', 'get', 'series', { type: 'string', maxLength: 100 }],
    ['/api/runs/{id}', 'get', 'id', { type: 'string', pattern: '^[A-Za-z0-9_-]{22}$' }],
    ['/api/series/{series}/runs', 'get', 'branch', { type: 'string', minLength: 1, maxLength: 200 }],
    ['/api/series/{series}/settings', 'put', 'series', { pattern: '^[A-Za-z0-9._/-]{1,100}$' }],
  ])('%s %s: %s is %j', (path, method, name, schema) => {
    expect(parameter(path, method, name)?.schema).toMatchObject(schema);
  });
});
