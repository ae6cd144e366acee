import type { Request } from 'express';
import { createGunzip, createInflate, type Gunzip, type Inflate } from 'node:zlib';
import { HttpError, corruptCompressedBody, isZlibError } from './errors.ts';

/**
 * Reads a request body as raw bytes — what fio wrote is the record, so it is kept verbatim — with
 * the size limit applied to the INFLATED size (a 5 MB gzip of 500 MB is still 413, and is cut off
 * as soon as the limit is crossed, never inflated in full).
 */

export const RAW_MEDIA_TYPES = [
  'application/json',
  'text/plain',
  'application/octet-stream',
  'application/gzip',
  'application/x-gzip',
];

/** Media type without parameters, lower-case: `Application/JSON; charset=utf-8` → `application/json`. */
export function mediaTypeOf(req: Request): string | null {
  const header = req.headers['content-type'];
  if (!header) return null;
  return header.split(';')[0]!.trim().toLowerCase();
}

const GZIP_MAGIC = [0x1f, 0x8b];
export const isGzip = (bytes: Uint8Array) =>
  bytes.length >= 2 && bytes[0] === GZIP_MAGIC[0] && bytes[1] === GZIP_MAGIC[1];

function tooLarge(limit: number): HttpError {
  return new HttpError(
    413,
    'payload_too_large',
    `the body exceeds the ${formatLimit(limit)} limit (after decompression)`,
  );
}

/**
 * Logs how far a body had been read (after inflation) when it was refused for its size: the bound
 * that matters, and what tests observe — a bomb must be cut off one chunk past the limit, not
 * after inflating in full.
 */
export function logBodyRefused(req: Request, limitBytes: number, bodyBytesRead: number): void {
  req.log?.info({ bodyBytesRead, limitBytes }, 'body refused: over the size limit');
}

export function formatLimit(bytes: number): string {
  return bytes >= 1024 * 1024
    ? `${Math.round(bytes / (1024 * 1024))} MiB`
    : `${Math.round(bytes / 1024)} KiB`;
}

/**
 * Called with a body's size (after inflation) as it grows, before each chunk is kept: throwing
 * stops the read with that error. The upload route holds room in the parse pool this way, so a
 * small gzip body cannot inflate to 50 MiB inside room reserved for its compressed length.
 */
export type AdmitBytes = (bytesSoFar: number) => void;

/**
 * Collects a stream into one Buffer, failing with 413 past `limit` bytes, or with what `admit`
 * throws; `stop` is called first either way (it releases the source). With `expected` (a
 * declared Content-Length) the bytes are copied straight into one buffer of that size instead of
 * a chunk list joined at the end: a 20 MB upload is then held once, not twice, while it arrives
 * (bench P7). A body longer or shorter than declared falls back to the chunk list.
 */
async function collect(
  stream: NodeJS.ReadableStream,
  limit: number,
  options: {
    stop: () => void;
    onTooLarge: (bytesRead: number) => void;
    admit?: AdmitBytes;
    expected?: number;
  },
): Promise<Buffer> {
  const { stop, onTooLarge, admit, expected } = options;
  let target =
    expected !== undefined && expected > 0 && expected <= limit ? Buffer.allocUnsafe(expected) : null;
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of stream as AsyncIterable<Buffer>) {
    if (size + chunk.length > limit) {
      stop();
      onTooLarge(size + chunk.length);
      throw tooLarge(limit);
    }
    try {
      admit?.(size + chunk.length);
    } catch (error) {
      stop();
      throw error;
    }
    if (target && size + chunk.length <= target.length) chunk.copy(target, size);
    else {
      if (target) chunks.push(target.subarray(0, size));
      target = null;
      chunks.push(chunk);
    }
    size += chunk.length;
  }
  if (target) return size === target.length ? target : target.subarray(0, size);
  return Buffer.concat(chunks, size);
}

/** Inflates gzip bytes with the same limit on the output; `onTooLarge` learns how far it got. */
export async function gunzipLimited(
  bytes: Uint8Array,
  limit: number,
  onTooLarge: (bytesRead: number) => void = () => {},
  admit?: AdmitBytes,
): Promise<Buffer> {
  const gunzip = createGunzip();
  const out = collect(gunzip, limit, { stop: () => gunzip.destroy(), onTooLarge, admit });
  gunzip.end(bytes);
  try {
    return await out;
  } catch (error) {
    if (error instanceof HttpError) throw error;
    throw corruptCompressedBody('gzip', error);
  }
}

/**
 * The request body, decoded per Content-Encoding (gzip, deflate, identity) and, for
 * `application/gzip` bodies or gzip magic bytes, inflated — always within `limit` bytes, and
 * `admit`ted as it grows (see AdmitBytes).
 */
export async function readRawBody(req: Request, limit: number, admit?: AdmitBytes): Promise<Buffer> {
  const declared = Number(req.headers['content-length']);
  const encoding = (req.headers['content-encoding'] ?? 'identity').toString().trim().toLowerCase();
  if (encoding === 'identity' && Number.isFinite(declared) && declared > limit) {
    req.resume();
    logBodyRefused(req, limit, 0);
    throw tooLarge(limit);
  }
  let decoder: Gunzip | Inflate | null = null;
  if (encoding === 'gzip' || encoding === 'x-gzip') decoder = createGunzip();
  else if (encoding === 'deflate') decoder = createInflate();
  else if (encoding !== 'identity') {
    req.resume();
    throw new HttpError(
      415,
      'unsupported_media_type',
      `Content-Encoding "${encoding}" is not supported (gzip, deflate or none)`,
    );
  }
  let body: Buffer;
  try {
    if (decoder) {
      const d = decoder;
      req.pipe(d);
      body = await collect(d, limit, {
        stop: () => {
          req.unpipe(d);
          d.destroy();
          req.resume();
        },
        onTooLarge: (bytesRead) => logBodyRefused(req, limit, bytesRead),
        admit,
      });
    } else {
      body = await collect(req, limit, {
        stop: () => req.resume(),
        onTooLarge: (bytesRead) => logBodyRefused(req, limit, bytesRead),
        admit,
        expected: Number.isFinite(declared) ? declared : undefined,
      });
    }
  } catch (error) {
    if (error instanceof HttpError) throw error;
    // Checked before the abort: a request read to its end is destroyed too (autoDestroy), so
    // `req.destroyed` alone made a corrupt gzip body look like an aborted upload.
    if (decoder && isZlibError(error))
      throw corruptCompressedBody(encoding === 'deflate' ? 'deflate' : 'gzip', error);
    if ((error as NodeJS.ErrnoException).code === 'ECONNRESET' || (req.destroyed && !req.complete))
      throw new HttpError(400, 'request_aborted', 'the client aborted the upload');
    throw new HttpError(
      400,
      'body_invalid',
      `the ${encoding} body could not be decoded: ${(error as Error).message}`,
    );
  }
  return isGzip(body)
    ? gunzipLimited(body, limit, (bytesRead) => logBodyRefused(req, limit, bytesRead), admit)
    : body;
}
