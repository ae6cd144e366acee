import { fail, ok, type Result } from '@blockwise/shared/problem';
import { PlanSessionSchema, type PlanSession } from '@blockwise/shared/records';

/**
 * An unsaved planning session as a link: the typed-in inputs (PlanSession with observed profiles
 * only) as base64url JSON in the URL fragment — `/#session=…`. The fragment never reaches a server
 * or its logs. On load the text is decoded and validated with PlanSessionSchema; anything invalid
 * becomes a Problem the page shows, never an exception.
 */

export const SESSION_PARAM = 'session';
/** A session holds at most 20 observed profiles and 10 candidates: far below this. */
export const MAX_SESSION_CHARS = 64 * 1024;

export function toBase64Url(bytes: Uint8Array): string {
  let binary = '';
  for (let i = 0; i < bytes.length; i += 0x8000) {
    binary += String.fromCharCode(...bytes.subarray(i, i + 0x8000));
  }
  return btoa(binary).replace(/\+/g, '-').replace(/\//g, '_').replace(/=+$/, '');
}

export function fromBase64Url(text: string): Uint8Array | null {
  if (!/^[A-Za-z0-9_-]*$/.test(text) || text.length % 4 === 1) return null;
  const b64 = text.replace(/-/g, '+').replace(/_/g, '/') + '='.repeat((4 - (text.length % 4)) % 4);
  try {
    const binary = atob(b64);
    const out = new Uint8Array(binary.length);
    for (let i = 0; i < binary.length; i += 1) out[i] = binary.charCodeAt(i);
    return out;
  } catch {
    return null;
  }
}

export function encodeSession(session: PlanSession): string {
  return toBase64Url(new TextEncoder().encode(JSON.stringify(session)));
}

const invalid = (why: string, path?: string) =>
  fail('session_link_invalid', `This link does not hold a valid planning session: ${why}`, path);

export function decodeSession(text: string): Result<PlanSession> {
  if (text.length === 0) return invalid('it is empty');
  if (text.length > MAX_SESSION_CHARS) return invalid(`it is longer than ${MAX_SESSION_CHARS} characters`);
  const bytes = fromBase64Url(text);
  if (!bytes) return invalid('it is not base64url text (was it cut off when copied?)');
  let json: unknown;
  try {
    json = JSON.parse(new TextDecoder('utf-8', { fatal: true }).decode(bytes));
  } catch {
    return invalid('its content is not JSON (was it cut off when copied?)');
  }
  const parsed = PlanSessionSchema.safeParse(json);
  if (!parsed.success) {
    const issue = parsed.error.issues[0]!;
    const path = issue.path.join('.');
    return invalid(`${path || 'session'}: ${issue.message}`, path || undefined);
  }
  return ok(parsed.data);
}

/** The session text in a URL's fragment (`#session=…`) or query (`?session=…`), if any. */
export function readSessionParam(url: { hash: string; search: string }): string | null {
  const fromHash = new URLSearchParams(url.hash.replace(/^#/, '')).get(SESSION_PARAM);
  if (fromHash !== null) return fromHash;
  return new URLSearchParams(url.search).get(SESSION_PARAM);
}

export function sessionLink(session: PlanSession, origin: string): string {
  return `${origin}/#${SESSION_PARAM}=${encodeSession(session)}`;
}

/**
 * The address (path, query, fragment) with `text` as its `#session=` fragment, or with a
 * `#session=` fragment removed when `text` is null; any other fragment (`#profile`) is then left
 * alone. A `?session=` query parameter is dropped either way: the fragment is the one kept current.
 */
export function withSessionParam(
  url: { pathname: string; search: string; hash: string },
  text: string | null,
): string {
  const query = new URLSearchParams(url.search);
  query.delete(SESSION_PARAM);
  const search = query.toString() ? `?${query.toString()}` : '';
  const holdsSession = new URLSearchParams(url.hash.replace(/^#/, '')).has(SESSION_PARAM);
  const hash = text !== null ? `#${SESSION_PARAM}=${text}` : holdsSession ? '' : url.hash;
  return `${url.pathname}${search}${hash}`;
}
