import express, { type RequestHandler } from 'express';
import helmet from 'helmet';
import request from 'supertest';
import { describe, expect, it } from 'vitest';
import { CONTENT_SECURITY_POLICY, securityHeaders } from './security.ts';

/** Every header of a plain answer through `middleware`, minus those that vary per response. */
async function headersThrough(middleware: RequestHandler): Promise<Record<string, unknown>> {
  const app = express();
  app.disable('x-powered-by');
  app.use(middleware);
  app.get('/', (_req, res) => void res.send('ok'));
  const { headers } = await request(app).get('/');
  const { date: _date, etag: _etag, ...rest } = headers as Record<string, unknown>;
  return rest;
}

describe('securityHeaders: helmet’s headers, recorded once and set as a list', () => {
  it('sets exactly what helmet with the same options sets', async () => {
    const viaHelmet = helmet({
      contentSecurityPolicy: { useDefaults: false, directives: { ...CONTENT_SECURITY_POLICY } },
      crossOriginEmbedderPolicy: false,
      referrerPolicy: { policy: 'no-referrer' },
      strictTransportSecurity: false,
    });
    const expected = await headersThrough(viaHelmet);
    expect(expected['content-security-policy']).toContain("frame-ancestors 'none'");
    expect(await headersThrough(securityHeaders())).toEqual(expected);
  });

  it('overrides a header set before it, as helmet does', async () => {
    const app = express();
    app.use((_req, res, next) => {
      res.setHeader('X-Frame-Options', 'ALLOWALL');
      next();
    });
    app.use(securityHeaders());
    app.get('/', (_req, res) => void res.send('ok'));
    const { headers } = await request(app).get('/');
    expect(headers['x-frame-options']).toBe('SAMEORIGIN');
  });
});
