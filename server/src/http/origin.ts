import type { Request, RequestHandler } from 'express';
import { bearer } from './auth.ts';
import { HttpError } from './errors.ts';

/** Methods that change state; GET, HEAD and OPTIONS never do here. */
const STATE_CHANGING = new Set(['POST', 'PUT', 'PATCH', 'DELETE']);

/** Sec-Fetch-Site values of requests a page on another origin started. */
const FOREIGN_SITES = new Set(['cross-site', 'same-site']);

/**
 * Where a state-changing request without a token came from, when a browser says so: null when
 * it may proceed, else why not. A page on another site can POST here without CORS (a `text/plain`
 * no-cors fetch or a form), and in open mode that would store a run in the victim's name; a
 * bearer token cannot be attached that way (it needs a CORS preflight this server never grants),
 * so requests carrying one are not checked. Browsers send Sec-Fetch-Site (every current one) or
 * at least Origin; curl and CI clients send neither and pass.
 */
export function foreignOrigin(req: Request, publicUrl: string | null): string | null {
  const site = req.get('sec-fetch-site')?.toLowerCase();
  if (site !== undefined) return FOREIGN_SITES.has(site) ? `Sec-Fetch-Site: ${site}` : null;
  const origin = req.get('origin');
  if (origin === undefined) return null;
  // The value is not echoed: it is the other site's text.
  return isOwnOrigin(origin, req, publicUrl) ? null : "Origin is not this server's";
}

/**
 * The server's own origin: BLOCKWISE_PUBLIC_URL's, or the host the browser addressed. The Host
 * header is fine here (unlike in links): a page on another site cannot make the victim's browser
 * send a Host that matches its own Origin. The scheme is not compared, so a TLS-terminating proxy
 * without BLOCKWISE_TRUST_PROXY does not turn the web app's own writes away.
 */
function isOwnOrigin(origin: string, req: Request, publicUrl: string | null): boolean {
  if (!URL.canParse(origin)) return false; // includes "null" (sandboxed frames, file: pages)
  const url = new URL(origin);
  if (publicUrl !== null && url.origin === new URL(publicUrl).origin) return true;
  const host = req.get('host');
  return host !== undefined && url.host === host.toLowerCase();
}

/** Refuses cross-site state-changing requests that carry no bearer token (403 `cross_origin`). */
export function sameOriginWrites(publicUrl: string | null): RequestHandler {
  return (req, _res, next) => {
    if (!STATE_CHANGING.has(req.method) || bearer(req.headers.authorization) !== null) return next();
    const why = foreignOrigin(req, publicUrl);
    if (why === null) return next();
    req.resume();
    next(
      new HttpError(
        403,
        'cross_origin',
        `refused: this request came from a page on another site (${why}). Writes without a token are accepted only from this server's own pages or from clients that are not browsers; CI sends Authorization: Bearer <token>`,
      ),
    );
  };
}
