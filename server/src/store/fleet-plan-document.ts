import { constants, crc32, deflateRawSync, gunzipSync } from 'node:zlib';
import type { FleetPlan } from '@blockwise/shared/fleet';
import { readStoredFleetPlan } from '@blockwise/shared/records';
import { sha256Hex } from './idempotency.ts';
import { StoredRecordError } from './records.ts';
import type { FleetPlanDocument } from './run-store.ts';

/**
 * A fleet plan as it is stored since migration 4 (table fleet_plans, column body_gzip): its JSON,
 * serialized and gzip-compressed once, where it is computed (a worker thread), so that neither
 * storing nor serving it parses or serializes it again on the event loop — a 101 MB plan cost
 * 2.7–3.1 s of event loop per GET when it was parsed and re-serialized (issue 24).
 *
 * The gzip member is ordinary (any gunzip reads it), written in a form GET can splice into its
 * answer without recompressing: a 10-byte header without optional fields, the deflate data ended
 * by a sync flush (byte-aligned, no final block), one empty final block (`03 00`), and the
 * trailer (CRC-32, length). See splice in presenters/fleet-plan.ts.
 */

/** The header of every member written here: ID1 ID2 CM=deflate, no flags, no mtime, XFL 0, OS unknown. */
export const GZIP_HEADER = Buffer.from([0x1f, 0x8b, 0x08, 0, 0, 0, 0, 0, 0, 0xff]);
/** A final deflate block with fixed codes and nothing in it: BFINAL=1, BTYPE=01, end-of-block. */
const EMPTY_FINAL_BLOCK = Buffer.from([0x03, 0x00]);
/** How a sync flush ends: an empty stored block's LEN and NLEN (the block header bits come before). */
const SYNC_MARK = Buffer.from([0x00, 0x00, 0xff, 0xff]);

export function gzipTrailer(crc: number, bytes: number): Buffer {
  const out = Buffer.alloc(8);
  out.writeUInt32LE(crc >>> 0, 0);
  // ISIZE is the length modulo 2^32 (RFC 1952); `bytes` is kept in its own column for larger ones.
  out.writeUInt32LE(bytes % 2 ** 32, 4);
  return out;
}

/** Raw deflate of `data` ended by a sync flush: byte-aligned, so more deflate data may follow. */
export function deflateOpen(data: Buffer): Buffer {
  return deflateRawSync(data, { level: 6, finishFlush: constants.Z_SYNC_FLUSH });
}

/** `json` as one gzip member of the spliceable form described above. */
export function gzipSpliceable(json: Buffer): Buffer {
  return Buffer.concat([
    GZIP_HEADER,
    deflateOpen(json),
    EMPTY_FINAL_BLOCK,
    gzipTrailer(crc32(json), json.length),
  ]);
}

/**
 * The parts of a stored member for splicing: its deflate data (without the final empty block) and
 * the CRC-32 of what it inflates to; null when it is not of the form written here (a member from
 * elsewhere is still served, inflated: see presenters/fleet-plan.ts).
 */
export function spliceableParts(gzip: Uint8Array): { deflate: Uint8Array; crc: number } | null {
  const n = gzip.length;
  if (n < GZIP_HEADER.length + SYNC_MARK.length + EMPTY_FINAL_BLOCK.length + 8) return null;
  const view = Buffer.from(gzip.buffer, gzip.byteOffset, n);
  if (!view.subarray(0, 4).equals(GZIP_HEADER.subarray(0, 4))) return null; // gzip, deflate, no flags
  // Data ended by a sync flush, then the empty final block: what gzipSpliceable writes.
  if (!view.subarray(n - 14, n - 10).equals(SYNC_MARK)) return null;
  if (!view.subarray(n - 10, n - 8).equals(EMPTY_FINAL_BLOCK)) return null;
  return { deflate: gzip.subarray(GZIP_HEADER.length, n - 10), crc: view.readUInt32LE(n - 8) };
}

/** A plan's JSON (validated and serialized by the caller) as stored: compressed, with its size. */
export function fleetPlanDocumentOf(json: Buffer, priceDate: string): FleetPlanDocument {
  return { gzip: gzipSpliceable(json), bytes: json.length, priceDate };
}

/**
 * The idempotency key of a fleet plan request: SHA-256 over a version tag, the SHA-256 of the
 * request's (decompressed) bytes, the analysis version and the date of the prices. The same body
 * posted twice (a retry, a double click) is the same plan and the same link; the same body after
 * a price update or a new analysis version is a new plan, as it would compute differently.
 */
export function fleetPlanIdempotencyKey(
  requestBytes: Uint8Array,
  analysisVersion: string,
  priceDate: string,
) {
  return sha256Hex(`blockwise.fleet.v1\n${sha256Hex(requestBytes)}\n${analysisVersion}\n${priceDate}`);
}

/**
 * A stored body (gzip, or the JSON text of rows stored before migration 4) in today's shape,
 * through the versioned reader; a body that does not inflate or parse is a StoredRecordError
 * naming the plan (HTTP 500), never a cast.
 */
export function readFleetPlanBody(
  body: { gzip: Uint8Array } | { json: unknown },
  id: string,
  analysisVersion: string,
): FleetPlan {
  let json: unknown;
  if ('gzip' in body) {
    try {
      json = gunzipSync(body.gzip).toString('utf8');
    } catch (error) {
      throw new StoredRecordError(`fleet plan ${id}`, `body_gzip: not gzip (${(error as Error).message})`);
    }
  } else json = body.json;
  const read = readStoredFleetPlan(json, analysisVersion);
  if (!read.ok) throw new StoredRecordError(`fleet plan ${id}`, read.error.message);
  return read.value.value;
}
