import { constants } from 'node:fs';
import { open, realpath, stat, type FileHandle } from 'node:fs/promises';
import { isAbsolute, relative, resolve, sep } from 'node:path';
import { Readable } from 'node:stream';
import type { ReadableStream as NodeReadableStream } from 'node:stream/web';
import { RegionCodeSchema } from '@blockwise/shared/catalog';
import { z } from 'zod';
import { CatalogInputError } from './errors.ts';

/**
 * Where AWS Price List files come from: AWS's public endpoint (no account needed), a mirror URL,
 * or a local folder that mirrors the same paths. Paths are the bulk API's:
 * `/offers/v1.0/aws/AmazonEC2/current/region_index.json`, whose regions name their offer file
 * (`currentVersionUrl`, a path under the same base).
 */
export const DEFAULT_OFFERS_BASE = 'https://pricing.us-east-1.amazonaws.com';
export const REGION_INDEX_PATH = '/offers/v1.0/aws/AmazonEC2/current/region_index.json';

export type OfferBase = { kind: 'url'; base: string } | { kind: 'folder'; root: string; shown: string };

/** `https://…` or `http://…` is a URL; anything else a folder (relative to `cwd`). */
export function parseOfferBase(text: string, cwd: string, shownFrom = cwd): OfferBase {
  if (/^https?:\/\//i.test(text)) return { kind: 'url', base: text.replace(/\/+$/, '') };
  const root = resolve(cwd, text);
  return { kind: 'folder', root, shown: shownPath(root, shownFrom) };
}

/** A path as people should read it in the catalog: relative to `from` when inside it. */
export function shownPath(path: string, from: string): string {
  const rel = relative(from, path);
  return rel && !rel.startsWith('..') && !isAbsolute(rel) ? rel.split(sep).join('/') : path;
}

/** The URL or file of `path` (a bulk API path starting with /) under `base`. */
export function locate(base: OfferBase, path: string, listedIn: string): string {
  if (!path.startsWith('/'))
    throw new CatalogInputError(
      listedIn,
      null,
      `"${path}" is not a path under the price list base (expected /offers/…)`,
    );
  if (base.kind === 'url') return `${base.base}${path}`;
  const file = resolve(base.root, `.${path}`);
  if (!file.startsWith(base.root + sep))
    throw new CatalogInputError(listedIn, null, `"${path}" leaves the folder ${base.shown}`);
  return file;
}

/** How the file is named in messages and in the catalog's sources. */
export function describeLocation(base: OfferBase, location: string): string {
  return base.kind === 'url'
    ? location
    : `${base.shown}${location.slice(base.root.length).split(sep).join('/')}`;
}

export type OpenOptions = {
  /** A download that delivers no byte for this long is abandoned. */
  idleTimeoutMs?: number;
};

/**
 * Opens `file`, a path under the folder `base`, only if the file it reaches is inside the folder
 * too: symbolic links (of the file or of a folder on its way) are resolved, and a file whose real
 * path leaves the folder is refused before a byte of it is read, its size or content never named
 * (`--offers DIR` would otherwise read /etc/passwd through a link, and its errors show what they
 * read). The handle is of the very file checked: it is opened by its real path without following
 * a link, and its device and inode must be the ones checked, so a link swapped in between is
 * refused too. Only regular files (a FIFO would block the read forever).
 */
async function openInside(
  base: Extract<OfferBase, { kind: 'folder' }>,
  file: string,
  shown: string,
): Promise<{ handle: FileHandle; bytes: number }> {
  let real: string;
  let root: string;
  try {
    [root, real] = await Promise.all([realpath(base.root), realpath(file)]);
  } catch (error) {
    throw cannotRead(shown, error);
  }
  const inside = relative(root, real);
  if (inside === '' || inside.split(sep)[0] === '..' || isAbsolute(inside))
    throw new CatalogInputError(shown, null, `a link to a file outside ${base.shown}: refused, not read`);
  let handle: FileHandle | undefined;
  try {
    const checked = await stat(real);
    if (!checked.isFile()) throw new CatalogInputError(shown, null, 'not a regular file');
    handle = await open(real, constants.O_RDONLY | constants.O_NOFOLLOW);
    const opened = await handle.stat();
    if (opened.dev !== checked.dev || opened.ino !== checked.ino)
      throw new CatalogInputError(shown, null, 'changed while it was being opened: refused, not read');
    return { handle, bytes: opened.size };
  } catch (error) {
    await handle?.close();
    if (error instanceof CatalogInputError) throw error;
    throw cannotRead(shown, error);
  }
}

/** The bytes of a URL or file, as a stream; a clear error when it cannot be had. */
export async function openLocation(
  base: OfferBase,
  location: string,
  shown: string,
  { idleTimeoutMs = 60_000 }: OpenOptions = {},
): Promise<{ chunks: AsyncIterable<Uint8Array>; bytes: number | null }> {
  if (base.kind === 'folder') {
    const { handle, bytes } = await openInside(base, location, shown);
    return { chunks: handle.createReadStream({ highWaterMark: 1 << 20 }), bytes };
  }
  const controller = new AbortController();
  let timer = setTimeout(() => controller.abort(), idleTimeoutMs);
  let response: Response;
  try {
    response = await fetch(location, { signal: controller.signal });
  } catch (error) {
    clearTimeout(timer);
    throw new CatalogInputError(shown, null, `cannot fetch: ${networkCause(error, idleTimeoutMs)}`);
  }
  if (!response.ok || !response.body) {
    clearTimeout(timer);
    await response.body?.cancel();
    throw new CatalogInputError(shown, null, `HTTP ${response.status} ${response.statusText}`.trim());
  }
  const body = Readable.fromWeb(response.body as NodeReadableStream<Uint8Array>);
  const length = Number(response.headers.get('content-length'));
  async function* chunks(): AsyncGenerator<Uint8Array> {
    try {
      for await (const chunk of body) {
        clearTimeout(timer);
        timer = setTimeout(() => controller.abort(), idleTimeoutMs);
        yield chunk as Uint8Array;
      }
    } catch (error) {
      throw new CatalogInputError(shown, null, `download failed: ${networkCause(error, idleTimeoutMs)}`);
    } finally {
      clearTimeout(timer);
      body.destroy();
    }
  }
  return { chunks: chunks(), bytes: Number.isFinite(length) && length > 0 ? length : null };
}

function networkCause(error: unknown, idleTimeoutMs: number): string {
  if (error instanceof Error && error.name === 'AbortError') return `no data for ${idleTimeoutMs / 1000} s`;
  const cause = (error as { cause?: { code?: string; message?: string } }).cause;
  return cause?.code ?? cause?.message ?? (error instanceof Error ? error.message : String(error));
}

const MAX_INDEX_BYTES = 16 * 1024 * 1024;

const RegionIndexSchema = z.object({
  publicationDate: z.string().optional(),
  regions: z.record(
    z.string(),
    z.object({ regionCode: RegionCodeSchema, currentVersionUrl: z.string().min(1) }),
  ),
});

export type RegionIndex = {
  shown: string;
  publicationDate: string | null;
  regions: { code: string; path: string }[];
};

/** The AmazonEC2 region index under `base`: which offer file prices which region. */
export async function readRegionIndex(base: OfferBase, options: OpenOptions = {}): Promise<RegionIndex> {
  const location = locate(base, REGION_INDEX_PATH, REGION_INDEX_PATH);
  const shown = describeLocation(base, location);
  const text = await readSmall(base, location, shown, options);
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch (error) {
    throw new CatalogInputError(shown, null, `not valid JSON (${(error as Error).message})`);
  }
  const parsed = RegionIndexSchema.safeParse(json);
  if (!parsed.success) {
    const issue = parsed.error.issues[0]!;
    throw new CatalogInputError(shown, issue.path.join('.') || '(top level)', issue.message);
  }
  const regions = Object.values(parsed.data.regions)
    .map((r) => ({ code: r.regionCode, path: r.currentVersionUrl }))
    .sort((a, b) => (a.code < b.code ? -1 : 1));
  return { shown, publicationDate: parsed.data.publicationDate ?? null, regions };
}

/**
 * Reads a local text file of at most `maxBytes`, checking the size of the file it then reads (one
 * open handle, not a stat then a second open). Every failure is a CatalogInputError naming `shown`.
 */
export async function readLocalText(
  path: string,
  shown: string,
  maxBytes: number,
  tooBigMessage: (bytes: number) => string,
): Promise<{ text: string; mtime: Date }> {
  try {
    const handle = await open(path, 'r');
    try {
      const info = await handle.stat();
      if (info.size > maxBytes) throw new CatalogInputError(shown, null, tooBigMessage(info.size));
      const text = await readAtMost(handle, maxBytes);
      if (text === null) throw new CatalogInputError(shown, null, tooBigMessage(maxBytes + 1));
      return { text, mtime: info.mtime };
    } finally {
      await handle.close();
    }
  } catch (error) {
    if (error instanceof CatalogInputError) throw error;
    throw cannotRead(shown, error);
  }
}

/**
 * The file's text, or null past `maxBytes`: at most `maxBytes` + 1 bytes are read, whatever its
 * size said when it was opened (a file still being written grows past it; readFile reads to EOF).
 */
async function readAtMost(handle: FileHandle, maxBytes: number): Promise<string | null> {
  const buffer = Buffer.alloc(Math.min(maxBytes + 1, 64 * 1024));
  const parts: Buffer[] = [];
  let total = 0;
  for (;;) {
    const { bytesRead } = await handle.read(buffer, 0, Math.min(buffer.length, maxBytes + 1 - total), null);
    if (bytesRead === 0) return Buffer.concat(parts, total).toString('utf8');
    parts.push(Buffer.from(buffer.subarray(0, bytesRead)));
    total += bytesRead;
    if (total > maxBytes) return null;
  }
}

function cannotRead(shown: string, error: unknown): CatalogInputError {
  return new CatalogInputError(
    shown,
    null,
    `cannot read: ${(error as NodeJS.ErrnoException).code ?? String(error)}`,
  );
}

async function readSmall(
  base: OfferBase,
  location: string,
  shown: string,
  options: OpenOptions,
): Promise<string> {
  if (base.kind === 'folder') {
    const { handle, bytes } = await openInside(base, location, shown);
    try {
      if (bytes > MAX_INDEX_BYTES)
        throw new CatalogInputError(shown, null, `${bytes} bytes; a region index is far smaller`);
      // The size was the file's when it was opened: one that grows since is read only this far.
      const text = await readAtMost(handle, MAX_INDEX_BYTES);
      if (text === null)
        throw new CatalogInputError(
          shown,
          null,
          `over ${MAX_INDEX_BYTES} bytes; a region index is far smaller`,
        );
      return text;
    } catch (error) {
      if (error instanceof CatalogInputError) throw error;
      throw cannotRead(shown, error);
    } finally {
      await handle.close();
    }
  }
  const { chunks } = await openLocation(base, location, shown, options);
  const parts: Uint8Array[] = [];
  let size = 0;
  for await (const chunk of chunks) {
    size += chunk.byteLength;
    if (size > MAX_INDEX_BYTES)
      throw new CatalogInputError(
        shown,
        null,
        `over ${MAX_INDEX_BYTES} bytes; a region index is far smaller`,
      );
    parts.push(chunk);
  }
  return Buffer.concat(parts).toString('utf8');
}
