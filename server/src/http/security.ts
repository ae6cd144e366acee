import type { ServerResponse } from 'node:http';
import type { RequestHandler } from 'express';
import helmet from 'helmet';

/**
 * Security headers on every response (ASVS 5.0 3.4.x, 4.1.1): a CSP without inline script,
 * `object-src 'none'`, `base-uri 'none'` and `frame-ancestors 'none'` (helmet's defaults say
 * 'self' for the last two); nosniff; no referrer leaks of share links; no X-Powered-By
 * (disabled on the app). Recharts renders SVG with attributes, never inline <style>, so
 * `style-src 'self'` holds.
 */
export const CONTENT_SECURITY_POLICY = {
  'default-src': ["'self'"],
  'script-src': ["'self'"],
  'style-src': ["'self'"],
  'img-src': ["'self'", 'data:', 'blob:'],
  'font-src': ["'self'"],
  'connect-src': ["'self'"],
  'worker-src': ["'self'", 'blob:'],
  'object-src': ["'none'"],
  'base-uri': ["'none'"],
  'frame-ancestors': ["'none'"],
  'form-action': ["'self'"],
} as const;

export function securityHeaders(): RequestHandler {
  const apply = securityHeaderSetter();
  return (_req, res, next) => {
    apply(res);
    next();
  };
}

/** What securityHeaders does to a response, for a handler that answers before Express (runs/cached-run-reads.ts). */
export function securityHeaderSetter(): (res: ServerResponse) => void {
  const { set, removed } = recordHelmetHeaders(
    helmet({
      contentSecurityPolicy: { useDefaults: false, directives: { ...CONTENT_SECURITY_POLICY } },
      crossOriginEmbedderPolicy: false,
      referrerPolicy: { policy: 'no-referrer' },
      strictTransportSecurity: false, // TLS terminates in front of the server, which sets HSTS
    }),
  );
  // The same headers on every response: set as one precomputed list rather than through
  // helmet's chain of a dozen middlewares per request (a tenth of a share-link read, bench P3).
  return (res) => {
    for (const [name, value] of set) res.setHeader(name, value);
    for (const name of removed) res.removeHeader(name);
  };
}

type RecordedHeaders = { set: [string, string | string[]][]; removed: string[] };

/**
 * What helmet does to a response, recorded once: with static directives (no nonce, no function
 * of the request) its headers are the same for every request. A middleware that does anything
 * else (calls next with an error, reads the request) is a change of helmet's to look at: throws.
 */
function recordHelmetHeaders(middleware: RequestHandler): RecordedHeaders {
  const recorded: RecordedHeaders = { set: [], removed: [] };
  const res = {
    setHeader(name: string, value: string | string[]) {
      recorded.set.push([name, value]);
      return res;
    },
    removeHeader(name: string) {
      recorded.removed.push(name);
    },
  };
  const req = new Proxy(
    {},
    {
      get(_target, key) {
        throw new TypeError(`helmet read req.${String(key)}: its headers depend on the request`);
      },
    },
  );
  let done = false;
  middleware(req as never, res as never, (error?: unknown) => {
    if (error) throw error instanceof Error ? error : new Error(String(error));
    done = true;
  });
  if (!done) throw new TypeError('helmet did not call next synchronously');
  return recorded;
}
