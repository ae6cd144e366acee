import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';
import type { RequestHandler } from 'express';
import { storeCall } from './route-helpers.ts';
import type { TokenRecords } from '../store/run-store.ts';
import { HttpError } from './errors.ts';

/** Who may write: `auto` (tokens once one exists), `required`, `open` (docs/server.md §3). */
export type AuthMode = 'auto' | 'required' | 'open';

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
 * time. Open by default for local use; from the first token created on, writes (and run
 * listings) require `Authorization: Bearer <token>` — also after every token is revoked, so
 * revoking never re-opens the archive. Share links stay public.
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

/** The token of an `Authorization: Bearer …` header, or null when there is none. */
export function bearer(header: string | undefined): string | null {
  if (!header) return null;
  const m = /^Bearer\s+(\S+)\s*$/i.exec(header);
  return m ? m[1]! : null;
}

const CREATE_HINT = "create one with `blockwise token create --name ci` against this server's --db";

/**
 * Decides who may write and list (see AuthMode). Token state is read from the store on every
 * request — a bearer lookup, and in `auto` mode "has the archive held a token?" — so a
 * `token create` or `token revoke` takes effect at once on every replica. The one thing cached
 * is that flag once it is true: tokens are never deleted, so it cannot turn false again.
 */
export class TokenGate {
  private heldToken = false;

  constructor(
    private readonly store: TokenRecords,
    readonly mode: AuthMode = 'auto',
  ) {}

  /** Whether any token was ever created in this archive (revoked ones count). */
  async archiveHasHeldToken(): Promise<boolean> {
    if (!this.heldToken) this.heldToken = await storeCall(() => this.store.hasHeldToken());
    return this.heldToken;
  }

  /** Whether a request without a token may write and list right now. */
  async anonymousAllowed(): Promise<boolean> {
    if (this.mode === 'open') return true;
    if (this.mode === 'required') return false;
    return !(await this.archiveHasHeldToken());
  }

  /** The id of an active token, else 401 (malformed, unknown or revoked); 503 when the store cannot tell. */
  async verify(token: string): Promise<string> {
    if (!TOKEN_PATTERN.test(token))
      throw new HttpError(
        401,
        'unauthorized',
        'the bearer token is malformed (expected bw_ followed by 43 characters)',
      );
    const digest = hashToken(token);
    const found = await storeCall(() => this.store.findActiveTokenByHash(digest));
    // The store looked the digest up by equality; compare again in constant time so no
    // index timing shortcut decides alone.
    if (!found || !digestsEqual(found.tokenSha256, digest))
      throw new HttpError(401, 'unauthorized', 'the token is unknown or revoked');
    void this.store.markTokenUsed(found.id).catch(() => undefined);
    return found.id;
  }

  /** Authenticates when a token is sent; when `required`, refuses anonymous requests unless auth is open. */
  middleware(required: boolean): RequestHandler {
    return (req, _res, next) => {
      void (async () => {
        const token = bearer(req.headers.authorization);
        if (token !== null) {
          req.tokenId = await this.verify(token);
          return;
        }
        if (!required || (await this.anonymousAllowed())) return;
        const none = !(await this.archiveHasHeldToken());
        throw new HttpError(
          401,
          'unauthorized',
          none
            ? `this server requires a CI token and none exists yet: ${CREATE_HINT}, then send Authorization: Bearer <token>`
            : `this server requires a CI token: send Authorization: Bearer <token> (${CREATE_HINT})`,
          undefined,
          { 'WWW-Authenticate': 'Bearer realm="blockwise"' },
        );
      })().then(() => next(), next);
    };
  }
}
