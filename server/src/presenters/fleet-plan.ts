import { constants, crc32, createGunzip, deflateRawSync } from 'node:zlib';
import { Transform } from 'node:stream';
import type { Request, Response } from 'express';
import { GZIP_HEADER, deflateOpen, gzipTrailer, spliceableParts } from '../store/fleet-plan-document.ts';
import type { StoredFleetPlanDocument } from '../store/run-store.ts';
import { acceptsGzip } from '../http/compressed-assets.ts';

/**
 * Serving a stored fleet plan without parsing or serializing it on the event loop (issue 24: a
 * 101 MB plan cost 2.7–3.1 s per GET when it was). The answer is the stored plan JSON between a
 * small head and `}`:
 *
 *   {"id":…,"url":…,"createdAt":…,"analysisVersion":…,"plan":<stored JSON>}
 *
 * - A client that accepts gzip gets the stored deflate data spliced between the deflate of the
 *   head and of the tail, in one gzip member: nothing of the plan is inflated or compressed
 *   again. Its CRC-32 is combined from the parts' (crc32Combine), its length is the sum.
 * - Any other client gets the stored gzip inflated as a stream (zlib works off the event loop, in
 *   libuv's thread pool), between the head and the tail, with its exact Content-Length.
 * - A plan stored before migration 4 (JSON text) is read and answered as JSON, as before.
 */

/** The head of the answer as an object (its keys in the order written). */
export type FleetPlanHead = { id: string; url: string; createdAt: string; analysisVersion: string };

/** mat × vec over GF(2): the CRC-32 operator matrices of zlib's crc32_combine. */
function gf2Times(mat: Uint32Array, vec: number): number {
  let sum = 0;
  for (let i = 0; vec !== 0; i += 1, vec >>>= 1) if (vec & 1) sum ^= mat[i]!;
  return sum >>> 0;
}

function gf2Square(square: Uint32Array, mat: Uint32Array): void {
  for (let n = 0; n < 32; n += 1) square[n] = gf2Times(mat, mat[n]!);
}

/**
 * CRC-32 of A‖B from CRC-32(A), CRC-32(B) and B's length, without B (zlib's crc32_combine,
 * crc32.c, Mark Adler): appending len2 zero bytes to A is a linear operator, applied by squaring.
 * O(log len2), so a 100 MB plan costs microseconds.
 */
export function crc32Combine(crc1: number, crc2: number, len2: number): number {
  if (len2 <= 0) return crc1 >>> 0;
  const even = new Uint32Array(32);
  const odd = new Uint32Array(32);
  odd[0] = 0xedb88320; // the CRC-32 polynomial, reflected: one zero bit
  for (let n = 1, row = 1; n < 32; n += 1, row <<= 1) odd[n] = row;
  gf2Square(even, odd); // two zero bits
  gf2Square(odd, even); // four zero bits
  let crc = crc1 >>> 0;
  let len = len2;
  for (;;) {
    gf2Square(even, odd); // first pass: one zero byte
    if (len % 2 === 1) crc = gf2Times(even, crc);
    len = Math.floor(len / 2);
    if (len === 0) break;
    gf2Square(odd, even);
    if (len % 2 === 1) crc = gf2Times(odd, crc);
    len = Math.floor(len / 2);
    if (len === 0) break;
  }
  return (crc ^ crc2) >>> 0;
}

/** The answer as one gzip member of buffers (head, stored data, tail), or null when not spliceable. */
export function splicedGzip(
  head: Buffer,
  stored: Uint8Array,
  storedBytes: number,
  tail: Buffer,
): Buffer[] | null {
  const parts = spliceableParts(stored);
  if (!parts) return null;
  const crc = crc32(tail, crc32Combine(crc32(head), parts.crc, storedBytes));
  return [
    GZIP_HEADER,
    deflateOpen(head),
    Buffer.from(parts.deflate.buffer, parts.deflate.byteOffset, parts.deflate.byteLength),
    deflateRawSync(tail, { finishFlush: constants.Z_FINISH }),
    gzipTrailer(crc, head.length + storedBytes + tail.length),
  ];
}

function headBytes(head: FleetPlanHead): Buffer {
  return Buffer.from(`${JSON.stringify(head).slice(0, -1)},"plan":`);
}
const TAIL = Buffer.from('}');

/**
 * Sends a stored plan with `status` as above. Resolves when the answer is written (or the client
 * went away); a body that fails to inflate midway ends the connection (its status is already
 * sent), and the error is passed on for the log.
 */
export function sendFleetPlan(
  req: Request,
  res: Response,
  status: number,
  head: FleetPlanHead,
  body: StoredFleetPlanDocument['body'],
): Promise<void> {
  res.status(status);
  if ('plan' in body) {
    res.json({ ...head, plan: body.plan });
    return Promise.resolve();
  }
  res.setHeader('Content-Type', 'application/json; charset=utf-8');
  res.setHeader('Vary', 'Accept-Encoding');
  const start = headBytes(head);
  const spliced = acceptsGzip(req.headers['accept-encoding'])
    ? splicedGzip(start, body.gzip, body.bytes, TAIL)
    : null;
  if (spliced) {
    res.setHeader('Content-Encoding', 'gzip');
    res.setHeader(
      'Content-Length',
      spliced.reduce((n, b) => n + b.length, 0),
    );
    for (const part of spliced.slice(0, -1)) res.write(part);
    res.end(spliced.at(-1));
    return Promise.resolve();
  }
  res.setHeader('Content-Length', start.length + body.bytes + TAIL.length);
  // HEAD: the headers say it all; nothing is inflated for a body nobody reads.
  if (req.method === 'HEAD') {
    res.end();
    return Promise.resolve();
  }
  res.write(start);
  // 256 KiB chunks: a 100 MiB plan is 400 writes, not 6,400 of the default 16 KiB.
  const gunzip = createGunzip({ chunkSize: 256 * 1024 });
  // Content-Length was sent from the stored body_size: a stored gzip that inflates to another
  // length ends the connection before a byte past it (the client sees a truncated transfer, never
  // a well-framed wrong body), and the error goes to the log.
  const lengthChecked = checkLength(body.bytes);
  return new Promise((resolve, reject) => {
    const fail = (error: Error) => {
      res.destroy(error);
      reject(error);
    };
    res.on('close', () => {
      gunzip.destroy();
      lengthChecked.destroy();
      resolve();
    });
    gunzip.on('error', fail);
    lengthChecked.on('error', fail);
    lengthChecked.on('end', () => res.end(TAIL));
    gunzip.pipe(lengthChecked).pipe(res, { end: false });
    gunzip.end(body.gzip);
  });
}

/** A pass-through that fails as soon as more than `bytes`, or at its end anything but `bytes`, went through. */
function checkLength(bytes: number): Transform {
  let seen = 0;
  const mismatch = (what: string) =>
    new Error(`stored fleet plan inflates to ${what} bytes, not its stored body_size of ${bytes}`);
  return new Transform({
    transform(chunk: Buffer, _encoding, done) {
      seen += chunk.length;
      if (seen > bytes) done(mismatch(`at least ${seen}`));
      else done(null, chunk);
    },
    flush(done) {
      done(seen === bytes ? null : mismatch(String(seen)));
    },
  });
}
