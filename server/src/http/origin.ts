import type { Request, RequestHandler } from 'express';
import { bearer } from './auth.ts';
import { HttpError } from './errors.ts';

/** Methods that change state; GET, HEAD and OPTIONS never do here. */
const STATE_CHANGING = new Set(['POST', 'PUT', 'PATCH', 'DELETE']);

/** Sec-Fetch-Site values of requests a page on another origin started. */
const FOREIGN_SITES = new Set(['cross-site', 'same-site']);

/** The names this server answers browsers' writes under (config: BLOCKWISE_PUBLIC_URL, BLOCKWISE_ALLOWED_HOSTS). */
export type OriginPolicy = {
  publicUrl: string | null;
  /** Host names, `name` (any port) or `name:port`, lowercase (config.ts parseAllowedHosts). */
  allowedHosts: readonly string[];
};

/**
 * `host[:port]` as the URL parser reads it (lowercase, IPv6 in brackets), or null; `port` is ''
 * when none is written. Parsed as http, whose parser drops a written `:80`: it is put back, so
 * `x:80` is port 80, not "any port".
 */
function parseHost(host: string): { hostname: string; port: string } | null {
  if (!URL.canParse(`http://${host}`)) return null;
  const url = new URL(`http://${host}`);
  if (url.pathname !== '/' || url.username || url.password || url.search || url.hash) return null;
  return { hostname: url.hostname, port: url.port || (/:0*80$/.test(host) ? '80' : '') };
}

/** The default port of a scheme: 443 for https, 80 for http. */
const defaultPort = (protocol: string) => (protocol === 'https:' ? '443' : '80');

/**
 * Whether an allowed `port` admits the Host header's `port`: the same, or a Host without one
 * (the default port of the scheme the browser used, which the Host header does not say) where
 * the allowed port is a default port (80 for http, 443 for https).
 */
const portAdmits = (allowed: string, host: string) =>
  host === allowed || (host === '' && (allowed === '80' || allowed === '443'));

/** Names that resolve to this machine by definition (RFC 6761 `localhost`, 127/8, ::1): no DNS can rebind them. */
function isLoopback(hostname: string): boolean {
  return (
    hostname === 'localhost' ||
    hostname.endsWith('.localhost') ||
    hostname === '[::1]' ||
    /^127\.\d{1,3}\.\d{1,3}\.\d{1,3}$/.test(hostname)
  );
}

/**
 * Whether the Host header is a name browsers may write to this server under: a loopback name,
 * BLOCKWISE_PUBLIC_URL's host, or one of BLOCKWISE_ALLOWED_HOSTS (an entry without a port matches
 * any port). Any other name may be a DNS rebinding: a page on evil.example whose name now
 * resolves to this server's address sends Host: evil.example and Origin: http://evil.example —
 * the same host, and Sec-Fetch-Site: same-origin — so neither header alone tells it apart.
 */
function isConfiguredHost(header: string | undefined, policy: OriginPolicy): boolean {
  const host = header === undefined ? null : parseHost(header);
  if (!host) return false;
  if (isLoopback(host.hostname)) return true;
  if (policy.publicUrl !== null && new URL(policy.publicUrl).hostname === host.hostname) return true;
  return policy.allowedHosts.some((entry) => {
    const allowed = parseHost(entry);
    if (!allowed || allowed.hostname !== host.hostname) return false;
    // With a port, that port only (a Host without one is at a default port); without one, any.
    return allowed.port === '' || portAdmits(allowed.port, host.port);
  });
}

/**
 * Where a state-changing request without a token came from, when a browser says so: null when
 * it may proceed, else why not. A page on another site can POST here without CORS (a `text/plain`
 * no-cors fetch or a form), and in open mode that would store a run in the victim's name; a
 * bearer token cannot be attached that way (it needs a CORS preflight this server never grants),
 * so requests carrying one are not checked. Browsers send Sec-Fetch-Site (every current one) or
 * at least Origin; curl and CI clients send neither and pass.
 *
 * A browser's request passes when its Origin is BLOCKWISE_PUBLIC_URL's, or when it is the host
 * the browser addressed (the Host header; the scheme is not compared, so a TLS-terminating proxy
 * without BLOCKWISE_TRUST_PROXY does not turn the web app's own writes away) and that host is a
 * loopback or configured name (isConfiguredHost: the Host/Origin pair alone can be forged by DNS
 * rebinding).
 */
export function foreignOrigin(req: Request, policy: OriginPolicy): string | null {
  const site = req.get('sec-fetch-site')?.toLowerCase();
  const origin = req.get('origin');
  if (site === undefined && origin === undefined) return null;
  if (site !== undefined && FOREIGN_SITES.has(site)) return `Sec-Fetch-Site: ${site}`;
  if (origin !== undefined) {
    // "null" (sandboxed frames, file: pages) does not parse. The value is not echoed: it is the other site's text.
    if (!URL.canParse(origin)) return "Origin is not this server's";
    const url = new URL(origin);
    if (policy.publicUrl !== null && url.origin === new URL(policy.publicUrl).origin) return null;
    // The same name and port, each at its scheme's default when not written (Origin http://h is
    // Host h:80; the Host header has no scheme: the Origin's is the one the browser used).
    const addressed = parseHost(req.get('host') ?? '');
    if (
      !addressed ||
      addressed.hostname !== url.hostname ||
      (addressed.port || defaultPort(url.protocol)) !== (url.port || defaultPort(url.protocol))
    )
      return "Origin is not this server's";
  }
  if (isConfiguredHost(req.get('host'), policy)) return null;
  return 'the name it addressed this server by is neither a loopback name nor BLOCKWISE_PUBLIC_URL’s nor in BLOCKWISE_ALLOWED_HOSTS; if browsers reach this server under that name, add it there';
}

/** Refuses cross-site state-changing requests that carry no bearer token (403 `cross_origin`). */
export function sameOriginWrites(policy: OriginPolicy): RequestHandler {
  return (req, _res, next) => {
    if (!STATE_CHANGING.has(req.method) || bearer(req.headers.authorization) !== null) return next();
    const why = foreignOrigin(req, policy);
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
