import busboy from 'busboy';
import type { Request } from 'express';
import { HttpError } from './errors.ts';
import { formatLimit, gunzipLimited, isGzip, logBodyRefused } from './read-body.ts';
import { storableName } from './text.ts';

export type UploadedFile = { fileName: string | null; mediaType: string; bytes: Buffer };

const LIMITS = { files: 20, fields: 50, fieldSize: 10 * 1024, parts: 80, headerPairs: 200 };

/**
 * `multipart/form-data` with one or more files plus label fields. The limit applies to the sum of
 * the files after decompression (a gzip'd file is inflated, within the limit).
 */
export function readMultipart(
  req: Request,
  limit: number,
): Promise<{ files: UploadedFile[]; fields: Record<string, string> }> {
  return new Promise((resolve, reject) => {
    let bb: busboy.Busboy;
    try {
      bb = busboy({ headers: req.headers, limits: { ...LIMITS, fileSize: limit }, defParamCharset: 'utf8' });
    } catch (error) {
      reject(new HttpError(400, 'body_invalid', `malformed multipart request: ${(error as Error).message}`));
      return;
    }
    const fields: Record<string, string> = Object.create(null);
    const pending: Promise<UploadedFile>[] = [];
    let total = 0;
    let failed: HttpError | null = null;
    const fail = (e: HttpError) => {
      if (failed) return;
      failed = e;
      req.unpipe(bb);
      req.resume();
      reject(e);
    };
    bb.on('field', (name, value, info) => {
      if (info.valueTruncated)
        fail(
          new HttpError(
            400,
            'labels_invalid',
            `field "${name.slice(0, 40)}" is longer than ${LIMITS.fieldSize} bytes`,
            `fields.${name.slice(0, 40)}`,
          ),
        );
      // A label sent twice is refused rather than one of the two kept (as for query parameters).
      else if (Object.hasOwn(fields, name))
        fail(
          new HttpError(
            400,
            'labels_invalid',
            `field "${name.slice(0, 40)}" is given more than once; send each label once`,
            `fields.${name.slice(0, 40)}`,
          ),
        );
      else fields[name] = value;
    });
    bb.on('file', (_name, stream, info) => {
      const chunks: Buffer[] = [];
      const file = new Promise<UploadedFile>((res, rej) => {
        stream.on('data', (chunk: Buffer) => {
          total += chunk.length;
          if (total > limit) {
            stream.resume();
            logBodyRefused(req, limit, total);
            rej(new HttpError(413, 'payload_too_large', `the files exceed the ${formatLimit(limit)} limit`));
            return;
          }
          chunks.push(chunk);
        });
        stream.on('limit', () => {
          logBodyRefused(req, limit, total);
          rej(new HttpError(413, 'payload_too_large', `a file exceeds the ${formatLimit(limit)} limit`));
        });
        stream.on('error', rej);
        stream.on('close', () => {
          const bytes = Buffer.concat(chunks);
          const done = (b: Buffer) =>
            res({
              fileName: info.filename ? storableName(info.filename, 255) : null,
              mediaType: (info.mimeType || 'application/octet-stream').toLowerCase(),
              bytes: b,
            });
          if (isGzip(bytes))
            gunzipLimited(bytes, limit, (bytesRead) => logBodyRefused(req, limit, bytesRead)).then(done, rej);
          else done(bytes);
        });
      });
      // Fail the request as soon as one file fails: waiting for busboy's `close` would leave this
      // rejection unhandled in between, and Node ends the process on an unhandled rejection.
      file.catch((error: unknown) => fail(asHttpError(error)));
      pending.push(file);
    });
    bb.on('filesLimit', () =>
      fail(new HttpError(413, 'payload_too_large', `at most ${LIMITS.files} files per upload`)),
    );
    bb.on('fieldsLimit', () =>
      fail(new HttpError(400, 'labels_invalid', `at most ${LIMITS.fields} fields per upload`)),
    );
    bb.on('partsLimit', () =>
      fail(new HttpError(400, 'body_invalid', `at most ${LIMITS.parts} parts per upload`)),
    );
    bb.on('error', (error) =>
      fail(new HttpError(400, 'body_invalid', `malformed multipart body: ${(error as Error).message}`)),
    );
    bb.on('close', () => {
      if (failed) return;
      Promise.all(pending).then(
        (files) => resolve({ files, fields: { ...fields } }),
        (error: unknown) => fail(asHttpError(error)),
      );
    });
    req.on('aborted', () => fail(new HttpError(400, 'request_aborted', 'the client aborted the upload')));
    req.pipe(bb);
  });
}

function asHttpError(error: unknown): HttpError {
  return error instanceof HttpError ? error : new HttpError(400, 'body_invalid', String(error));
}
