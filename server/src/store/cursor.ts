import { isValidId } from './ids.ts';
import { storeFail, storeOk, type RunMeta, type StoreResult } from './run-store.ts';

/**
 * A position in the newest-first run order: the (createdAt, id) of the last item of a page. The
 * next page is everything strictly after it in (created_at DESC, id DESC) order — a keyset
 * ("seek") query that an index on (…, created_at, id) answers in O(log n) however deep the page,
 * and that neither skips nor repeats rows when runs are added between two page requests (OFFSET
 * would do both, and costs O(offset)).
 */
export interface RunPosition {
  createdAt: number;
  id: string;
}

/**
 * Cursor bytes: version (1 byte) · createdAt (int64 big-endian) · id (22 ASCII bytes), then
 * base64url → 42 characters. Opaque to clients; the version byte lets the format change later.
 */
const VERSION = 1;
const BYTES = 1 + 8 + 22;
const CURSOR_PATTERN = /^[A-Za-z0-9_-]{42}$/;

export function encodeCursor(position: RunPosition): string {
  if (!Number.isSafeInteger(position.createdAt) || position.createdAt < 0 || !isValidId(position.id)) {
    throw new TypeError(`not a run position: ${JSON.stringify(position)}`);
  }
  const bytes = Buffer.alloc(BYTES);
  bytes.writeUInt8(VERSION, 0);
  bytes.writeBigInt64BE(BigInt(position.createdAt), 1);
  bytes.write(position.id, 9, 'latin1');
  return bytes.toString('base64url');
}

/** The cursor that lists runs older than `run` (e.g. CI history before the run just uploaded). */
export function cursorForRun(run: Pick<RunMeta, 'createdAt' | 'id'>): string {
  return encodeCursor({ createdAt: run.createdAt, id: run.id });
}

/** Decodes a client-supplied cursor; anything not produced by encodeCursor is `invalid_cursor`. */
export function decodeCursor(cursor: unknown, path = 'cursor'): StoreResult<RunPosition> {
  const invalid = storeFail('invalid_cursor', 'invalid page cursor', path);
  if (typeof cursor !== 'string' || !CURSOR_PATTERN.test(cursor)) return invalid;
  const bytes = Buffer.from(cursor, 'base64url');
  // The pattern admits strings whose last character carries non-zero padding bits; only the
  // canonical encoding is a cursor we issued.
  if (bytes.length !== BYTES || bytes.toString('base64url') !== cursor) return invalid;
  if (bytes.readUInt8(0) !== VERSION) return invalid;
  const createdAt = bytes.readBigInt64BE(1);
  if (createdAt < 0n || createdAt > BigInt(Number.MAX_SAFE_INTEGER)) return invalid;
  const id = bytes.toString('latin1', 9);
  if (!isValidId(id)) return invalid;
  return storeOk({ createdAt: Number(createdAt), id });
}
