import { JSONParser, TokenParserError, TokenizerError } from '@streamparser/json';
import { OfferAccumulator, type OfferRegionPrices } from '@blockwise/shared/catalog';
import { CatalogInputError } from './errors.ts';

/** The header of an offer file: what the catalog records as its source. */
export type OfferHeader = { offerCode: string; version: string; publicationDate: string };

export type OfferRead = {
  header: OfferHeader;
  regions: OfferRegionPrices[];
  warnings: string[];
  /** Bytes parsed: less than the file when it stopped after `terms.OnDemand`. */
  bytesRead: number;
  /** Whether it stopped before the end (the rest, Reserved terms and such, is not needed). */
  stoppedEarly: boolean;
  /** The most SKUs whose prices it held at once: the state grows with these, not with the file. */
  peakHeld: number;
  products: number;
};

const HEADER_KEYS = new Set(['formatVersion', 'offerCode', 'version', 'publicationDate']);

/**
 * Reads one region's AmazonEC2 offer file from a stream of bytes, without holding it: the
 * streaming parser (@streamparser/json) emits each `products` entry and each `terms.*` entry
 * on its own (keepStack: false drops them once read), the accumulator keeps only the SKUs
 * the catalog prices. AWS writes products, then terms.OnDemand, then terms.Reserved (most of
 * the file): the read stops at the first Reserved term, once products and OnDemand are in.
 * `label` names the file in errors; `region` is the region_index entry it was listed under.
 */
export async function readOfferStream(
  chunks: AsyncIterable<Uint8Array>,
  { label, region }: { label: string; region: string },
): Promise<OfferRead> {
  const acc = new OfferAccumulator(region);
  const header: Record<string, unknown> = {};
  let bytesRead = 0;
  let peakHeld = 0;
  let productsSeen = false;
  let inTerms = false;
  let onDemandSeen = false;
  let done = false;

  const parser = new JSONParser({
    paths: [
      '$.formatVersion',
      '$.offerCode',
      '$.version',
      '$.publicationDate',
      '$.products.*',
      '$.terms.*.*',
    ],
    keepStack: false,
  });
  parser.onValue = ({ value, key, stack }) => {
    const section = stack[1]?.key;
    if (stack.length === 1 && typeof key === 'string' && HEADER_KEYS.has(key)) {
      header[key] = value;
    } else if (section === 'products' && typeof key === 'string') {
      productsSeen = true;
      acc.addProduct(key, value);
    } else if (section === 'terms' && typeof key === 'string') {
      if (!inTerms && productsSeen) acc.endProducts();
      inTerms = true;
      if (stack[2]?.key === 'OnDemand') {
        onDemandSeen = true;
        acc.addOnDemand(key, value);
      } else if (onDemandSeen && productsSeen) {
        done = true;
      }
    }
    peakHeld = Math.max(peakHeld, acc.held);
  };

  let iterator: AsyncIterator<Uint8Array> | undefined;
  try {
    iterator = chunks[Symbol.asyncIterator]();
    for (;;) {
      const next = await iterator.next();
      if (next.done) break;
      bytesRead += next.value.byteLength;
      parser.write(next.value);
      if (acc.problem) break;
      if (done) break;
    }
    // The parser ends by itself after the top-level value; a truncated file ends here.
    if (!done && !acc.problem && !parser.isEnded) parser.end();
  } catch (error) {
    if (error instanceof CatalogInputError) throw error;
    const message = error instanceof Error ? error.message : String(error);
    const what =
      error instanceof TokenizerError || error instanceof TokenParserError ? 'not valid JSON' : 'read failed';
    throw new CatalogInputError(label, null, `${what} after ${bytesRead} bytes (${message})`);
  } finally {
    // Stopping early: release the file or the connection.
    if (done || acc.problem) await iterator?.return?.();
  }

  if (acc.problem) throw new CatalogInputError(label, acc.problem.path, acc.problem.message);
  if (header.offerCode !== 'AmazonEC2')
    throw new CatalogInputError(
      label,
      'offerCode',
      `expected "AmazonEC2", got ${JSON.stringify(header.offerCode ?? null)}`,
    );
  if (typeof header.publicationDate !== 'string' || Number.isNaN(Date.parse(header.publicationDate)))
    throw new CatalogInputError(
      label,
      'publicationDate',
      `expected a date, got ${JSON.stringify(header.publicationDate ?? null)}`,
    );
  if (!productsSeen)
    throw new CatalogInputError(label, 'products', 'no products: is this an AWS offer file?');
  if (!onDemandSeen) throw new CatalogInputError(label, 'terms.OnDemand', 'no on-demand terms');
  const finished = acc.finish();
  if (!finished.ok) throw new CatalogInputError(label, finished.problem.path, finished.problem.message);
  return {
    header: {
      offerCode: header.offerCode,
      version: typeof header.version === 'string' ? header.version : '',
      publicationDate: header.publicationDate,
    },
    regions: finished.regions,
    warnings: acc.warnings,
    bytesRead,
    stoppedEarly: done,
    peakHeld,
    products: acc.products,
  };
}
