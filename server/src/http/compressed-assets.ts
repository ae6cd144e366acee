import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { extname, join } from 'node:path';
import type { RequestHandler } from 'express';

/**
 * Serves the built web app's assets (web/dist/assets: content-hashed, immutable) compressed to
 * clients that accept it. Without it the planning page sent ~700 KB of JavaScript and CSS
 * uncompressed; Lighthouse (mobile, simulated slow 4G) measured LCP 5.1 s and a 0.54 score, and
 * listed ~490 KB of savings from text compression (bench P11).
 *
 * The files are compressed when the web app is built (web/vite.config.ts, precompressAssets: a
 * `.br` and a `.gz` beside each asset, at the highest levels), never here: compressing on the
 * request path held the event loop for each first request of a file. Brotli is preferred (14 %
 * smaller than gzip on this app's JS and CSS: 475 vs 550 KB for 76 files, one build, 2026-11-24),
 * then gzip; an asset built without them (an older build)
 * falls through to express.static, uncompressed. Anything else falls through too.
 */
const TYPES: Record<string, string> = {
  '.js': 'text/javascript; charset=utf-8',
  '.mjs': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.svg': 'image/svg+xml',
  '.json': 'application/json; charset=utf-8',
  '.map': 'application/json; charset=utf-8',
};
const ASSET_PATH = /^\/assets\/([A-Za-z0-9][A-Za-z0-9._-]*)$/;

/** Content-Encoding → the suffix of the precompressed file, in order of preference. */
const ENCODINGS = [
  ['br', '.br'],
  ['gzip', '.gz'],
] as const;
type Encoding = (typeof ENCODINGS)[number][0];

/**
 * Whether Accept-Encoding allows `coding`: listed with q > 0, or not listed and `*` is
 * (RFC 9110 §12.5.3: `gzip;q=0, *` refuses gzip). The one test of it for every route that answers gzip.
 */
export function acceptsEncoding(header: string | undefined, coding: Encoding): boolean {
  if (!header) return false;
  let listed: number | undefined;
  let star: number | undefined;
  for (const part of header.split(',')) {
    const [name, ...params] = part.trim().toLowerCase().split(';');
    const q = params.map((p) => p.trim()).find((p) => p.startsWith('q='));
    const weight = q ? Number(q.slice(2)) || 0 : 1;
    if (name === coding) listed = Math.max(listed ?? 0, weight);
    else if (name === '*') star = Math.max(star ?? 0, weight);
  }
  return (listed ?? star ?? 0) > 0;
}

export function acceptsGzip(header: string | undefined): boolean {
  return acceptsEncoding(header, 'gzip');
}

export function compressedAssets(webDist: string | null): RequestHandler {
  const dir = webDist ? join(webDist, 'assets') : null;
  // The files that exist when the server starts: nothing outside this list is ever read.
  const files = new Set(dir && existsSync(dir) ? readdirSync(dir) : []);
  const cache = new Map<string, Buffer>();
  return (req, res, next) => {
    if (req.method !== 'GET' && req.method !== 'HEAD') return next();
    const name = ASSET_PATH.exec(req.path)?.[1];
    const type = name ? TYPES[extname(name)] : undefined;
    if (!name || !type || !files.has(name)) return next();
    const built = ENCODINGS.filter(([, suffix]) => files.has(name + suffix));
    if (built.length === 0) return next();
    // The answer depends on Accept-Encoding from here on, also when it is the uncompressed file.
    res.setHeader('Vary', 'Accept-Encoding');
    const found = built.find(([coding]) => acceptsEncoding(req.headers['accept-encoding'], coding));
    if (!found) return next();
    const [coding, suffix] = found;
    let bytes = cache.get(name + suffix);
    if (!bytes) {
      try {
        bytes = readFileSync(join(dir!, name + suffix));
      } catch {
        return next(); // removed since start-up (a rebuild): let express.static answer
      }
      cache.set(name + suffix, bytes);
    }
    res.setHeader('Content-Type', type);
    res.setHeader('Content-Encoding', coding);
    res.setHeader('Cache-Control', 'public, max-age=31536000, immutable');
    res.setHeader('Content-Length', bytes.length);
    res.end(req.method === 'HEAD' ? undefined : bytes);
  };
}
