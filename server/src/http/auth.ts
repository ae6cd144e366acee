import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';
import type { RequestHandler } from 'express';
import type { RunStore } from '../store/run-store.ts';
import { HttpError } from './errors.ts';

declare global {
  // eslint-disable-next-line @typescript-eslint/no-namespace
  namespace Express {
    interface Request {
      /** The id of the CI token the request authenticated with, if any. */
      tokenId?: string;
    }
  }
}

/**
 * CI upload tokens (ASVS 6.5.2, R7): 256 random bits with a recognizable prefix, shown once,
 * stored only as SHA-256 (a plain hash suffices at ≥ 112 bits of entropy), compared in constant
 * time. Open by default for local use: only when at least one token exists do writes (and run
 * listings) require `Authorization: Bearer <token>`; share links stay public.
 */
export const TOKEN_PREFIX = 'bw_';
const TOKEN_PATTERN = /^bw_[A-Za-z0-9_-]{43}$/;

export function generateToken(): string {
  return `${TOKEN_PREFIX}${randomBytes(32).toString('base64url')}`;
}

export function hashToken(token: string): string {
  return createHash('sha256').update(token, 'utf8').digest('hex');
}

/** Constant-time comparison of two hex digests of equal length. */
export function digestsEqual(a: string, b: string): boolean {
  const x = Buffer.from(a, 'hex');
  const y = Buffer.from(b, 'hex');
  return x.length === y.length && x.length > 0 && timingSafeEqual(x, y);
}

function bearer(header: string | undefined): string | null {
  if (!header) return null;
  const m = /^Bearer\s+(\S+)\s*$/i.exec(header);
  return m ? m[1]! : null;
}

/** Caches "are tokens configured?" briefly so each write does not count tokens. */
export class TokenGate {
  private cached: { at: number; active: boolean } | null = null;

  constructor(
    private readonly store: RunStore,
    private readonly ttlMs = 2000,
  ) {}

  async tokensConfigured(): Promise<boolean> {
    const now = Date.now();
    if (this.cached && now - this.cached.at < this.ttlMs) return this.cached.active;
    const active = (await this.store.countActiveTokens()) > 0;
    this.cached = { at: now, active };
    return active;
  }

  invalidate() {
    this.cached = null;
  }

  /** Authenticates when a token is sent; requires one when tokens are configured and `required`. */
  middleware(required: boolean): RequestHandler {
    return (req, _res, next) => {
      void (async () => {
        const token = bearer(req.headers.authorization);
        if (token !== null) {
          if (!TOKEN_PATTERN.test(token))
            throw new HttpError(
              401,
              'unauthorized',
              'the bearer token is malformed (expected bw_ followed by 43 characters)',
            );
          const digest = hashToken(token);
          const found = await this.store.findActiveTokenByHash(digest);
          // The store looked the digest up by equality; compare again in constant time so no
          // index timing shortcut decides alone.
          if (!found || !digestsEqual(found.tokenSha256, digest))
            throw new HttpError(401, 'unauthorized', 'the token is unknown or revoked');
          req.tokenId = found.id;
          void this.store.markTokenUsed(found.id).catch(() => undefined);
          return;
        }
        if (required && (await this.tokensConfigured())) {
          throw new HttpError(
            401,
            'unauthorized',
            'this server requires a CI token: send Authorization: Bearer <token> (create one with `blockwise token create --name ci`)',
            undefined,
            {
              'WWW-Authenticate': 'Bearer realm="blockwise"',
            },
          );
        }
      })().then(() => next(), next);
    };
  }
}
