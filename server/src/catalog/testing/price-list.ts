import { mkdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { dirname, join, resolve, sep } from 'node:path';

/**
 * Small AWS Price List files written in the documented layout (AWS Billing guide, "Reading the
 * service price list file": products[sku] with productFamily and attributes; terms.OnDemand
 * [sku][sku.offerTermCode].priceDimensions[rateCode] with unit, pricePerUnit.USD, beginRange,
 * endRange), with the attribute names and usage types of real AmazonEC2 offers.
 */

export type Product = { sku: string; productFamily: string; attributes: Record<string, string> };
export type Price = { unit: string; usd: string; begin?: string; end?: string };

let counter = 0;
const newSku = () => `TESTSKU${String(++counter).padStart(9, '0')}`;

/** An EBS product of `region` (usage type with its prefix, e.g. `APN1-`), priced per `unit`. */
export function ebsItem(
  region: string,
  prefix: string,
  family: string,
  usage: string,
  volumeApiName: string,
  price: Price,
): { product: Product; price: Price } {
  return {
    product: {
      sku: newSku(),
      productFamily: family,
      attributes: {
        servicecode: 'AmazonEC2',
        location: `Test location (${region})`,
        locationType: 'AWS Region',
        usagetype: `${prefix}${usage}`,
        operation: '',
        regionCode: region,
        volumeApiName,
      },
    },
    price,
  };
}

/** An instance hour; `linux: false` makes it a Windows one, `tenancy` a dedicated one. */
export function instanceItem(
  region: string,
  prefix: string,
  instanceType: string,
  usd: string,
  { os = 'Linux', tenancy = 'Shared', capacitystatus = 'Used' } = {},
): { product: Product; price: Price } {
  return {
    product: {
      sku: newSku(),
      productFamily: 'Compute Instance',
      attributes: {
        servicecode: 'AmazonEC2',
        location: `Test location (${region})`,
        locationType: 'AWS Region',
        instanceType,
        tenancy,
        operatingSystem: os,
        licenseModel: 'No License required',
        usagetype: `${prefix}${tenancy === 'Shared' ? 'BoxUsage' : 'DedicatedUsage'}:${instanceType}`,
        operation: os === 'Linux' ? 'RunInstances' : 'RunInstances:0002',
        capacitystatus,
        preInstalledSw: 'NA',
        regionCode: region,
      },
    },
    price: { unit: 'Hrs', usd },
  };
}

/** The EBS products of a region: each price per the unit AWS lists it in; `null` leaves the product out. */
export function ebsItems(
  region: string,
  prefix: string,
  p: {
    gp2?: string | null;
    gp3?: [storage: string, iops: string, throughputGiBps: string] | null;
    io1?: [storage: string, iops: string] | null;
    io2?: [storage: string, tier1: string, tier2: string, tier3: string] | null;
    st1?: string | null;
    sc1?: string | null;
    snapshot?: [standard: string, archive: string] | null;
  },
) {
  const gb = (usd: string): Price => ({ unit: 'GB-Mo', usd });
  const iops = (usd: string): Price => ({ unit: 'IOPS-Mo', usd });
  const items = [];
  if (p.gp2) items.push(ebsItem(region, prefix, 'Storage', 'EBS:VolumeUsage.gp2', 'gp2', gb(p.gp2)));
  if (p.gp3) {
    items.push(ebsItem(region, prefix, 'Storage', 'EBS:VolumeUsage.gp3', 'gp3', gb(p.gp3[0])));
    items.push(ebsItem(region, prefix, 'System Operation', 'EBS:VolumeP-IOPS.gp3', 'gp3', iops(p.gp3[1])));
    items.push(
      ebsItem(region, prefix, 'Provisioned Throughput', 'EBS:VolumeP-Throughput.gp3', 'gp3', {
        unit: 'GiBps-mo',
        usd: p.gp3[2],
      }),
    );
  }
  if (p.io1) {
    items.push(ebsItem(region, prefix, 'Storage', 'EBS:VolumeUsage.piops', 'io1', gb(p.io1[0])));
    items.push(ebsItem(region, prefix, 'System Operation', 'EBS:VolumeP-IOPS.piops', 'io1', iops(p.io1[1])));
  }
  if (p.io2) {
    items.push(ebsItem(region, prefix, 'Storage', 'EBS:VolumeUsage.io2', 'io2', gb(p.io2[0])));
    items.push(ebsItem(region, prefix, 'System Operation', 'EBS:VolumeP-IOPS.io2', 'io2', iops(p.io2[1])));
    items.push(
      ebsItem(region, prefix, 'System Operation', 'EBS:VolumeP-IOPS.io2.tier2', 'io2', iops(p.io2[2])),
    );
    items.push(
      ebsItem(region, prefix, 'System Operation', 'EBS:VolumeP-IOPS.io2.tier3', 'io2', iops(p.io2[3])),
    );
  }
  if (p.st1) items.push(ebsItem(region, prefix, 'Storage', 'EBS:VolumeUsage.st1', 'st1', gb(p.st1)));
  if (p.sc1) items.push(ebsItem(region, prefix, 'Storage', 'EBS:VolumeUsage.sc1', 'sc1', gb(p.sc1)));
  if (p.snapshot) {
    items.push(
      ebsItem(region, prefix, 'Storage Snapshot', 'EBS:SnapshotUsage', 'standard', gb(p.snapshot[0])),
    );
    items.push(
      ebsItem(
        region,
        prefix,
        'Storage Snapshot',
        'EBS:SnapshotArchiveStorage',
        'standard',
        gb(p.snapshot[1]),
      ),
    );
  }
  return items;
}

/**
 * One region's offer file, products then terms.OnDemand then terms.Reserved (as AWS orders
 * them); `reservedPerSku` reserved terms per product pad the file the way real ones are padded.
 */
export function offerFile(
  items: { product: Product; price: Price }[],
  {
    version = '20261101000000',
    publicationDate = '2026-11-01T00:00:00Z',
    reservedPerSku = 0,
    termsFirst = false,
  } = {},
): string {
  const products = Object.fromEntries(items.map((i) => [i.product.sku, i.product]));
  const term = (sku: string, code: string, price: Price) => ({
    [`${sku}.${code}`]: {
      offerTermCode: code,
      sku,
      effectiveDate: publicationDate,
      priceDimensions: {
        [`${sku}.${code}.6YS6EN2CT7`]: {
          rateCode: `${sku}.${code}.6YS6EN2CT7`,
          description: `test price ${price.usd} per ${price.unit}`,
          beginRange: price.begin ?? '0',
          endRange: price.end ?? 'Inf',
          unit: price.unit,
          pricePerUnit: { USD: price.usd },
          appliesTo: [],
        },
      },
      termAttributes: {},
    },
  });
  const onDemand = Object.fromEntries(
    items.map((i) => [i.product.sku, term(i.product.sku, 'JRTCKXETXF', i.price)]),
  );
  const reserved = Object.fromEntries(
    items.map((i) => [
      i.product.sku,
      Object.assign(
        {},
        ...Array.from({ length: reservedPerSku }, (_, n) =>
          term(i.product.sku, `RSV${n}XXXXX`, { unit: 'Hrs', usd: '0.0100000000' }),
        ),
      ),
    ]),
  );
  const head = {
    formatVersion: 'v1.0',
    disclaimer: 'Test file.',
    offerCode: 'AmazonEC2',
    version,
    publicationDate,
  };
  const terms = { OnDemand: onDemand, ...(reservedPerSku > 0 ? { Reserved: reserved } : {}) };
  const body = termsFirst ? { ...head, terms, products } : { ...head, products, terms };
  return `${JSON.stringify(body, null, 2)}\n`;
}

/**
 * Writes a Price List mirror under `dir`: `offers/v1.0/aws/AmazonEC2/current/region_index.json`
 * and one offer file per region at its currentVersionUrl. Returns the offer files' paths.
 */
export function writeMirror(
  dir: string,
  regions: Record<string, string>,
  { version = '20261101000000' } = {},
): Record<string, string> {
  const index: Record<string, { regionCode: string; currentVersionUrl: string }> = {};
  const files: Record<string, string> = {};
  for (const [region, text] of Object.entries(regions)) {
    const url = `/offers/v1.0/aws/AmazonEC2/${version}/${region}/index.json`;
    index[region] = { regionCode: region, currentVersionUrl: url };
    files[region] = join(dir, url);
    mkdirSync(dirname(files[region]), { recursive: true });
    writeFileSync(files[region], text);
  }
  const indexFile = join(dir, 'offers/v1.0/aws/AmazonEC2/current/region_index.json');
  mkdirSync(dirname(indexFile), { recursive: true });
  writeFileSync(
    indexFile,
    JSON.stringify(
      { formatVersion: 'v1.0', disclaimer: 'Test.', publicationDate: '2026-11-01T00:00:00Z', regions: index },
      null,
      2,
    ),
  );
  return files;
}

export type MirrorServer = {
  url: string;
  /** Paths requested, in order. */
  requests: string[];
  /** Make a path answer with a status, or cut the connection after `bytes`; null serves it again. */
  fail: (path: string, how: { status: number } | { cutAfterBytes: number } | null) => void;
  close: () => Promise<void>;
};

/** A local HTTP server (127.0.0.1) that serves the mirror folder: the URL path of `catalog update`. */
export async function serveMirror(dir: string): Promise<MirrorServer> {
  const root = resolve(dir);
  const requests: string[] = [];
  const failures = new Map<string, { status: number } | { cutAfterBytes: number }>();
  const server: Server = createServer((req, res) => {
    const path = decodeURIComponent(new URL(req.url ?? '/', 'http://x').pathname);
    requests.push(path);
    const failure = failures.get(path);
    if (failure && 'status' in failure) {
      res.writeHead(failure.status).end();
      return;
    }
    const file = resolve(root, `.${path}`);
    let body: Buffer;
    try {
      if (!file.startsWith(root + sep) || !statSync(file).isFile()) throw new Error('not a file');
      body = readFileSync(file);
    } catch {
      res.writeHead(404).end();
      return;
    }
    res.writeHead(200, { 'content-type': 'application/json', 'content-length': body.length });
    if (failure && 'cutAfterBytes' in failure) {
      res.write(body.subarray(0, failure.cutAfterBytes), () => res.destroy());
      return;
    }
    res.end(body);
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    requests,
    fail: (path, how) => void (how ? failures.set(path, how) : failures.delete(path)),
    close: () =>
      new Promise<void>((r) => {
        server.closeAllConnections();
        server.close(() => r());
      }),
  };
}

/** A saved `aws ec2 describe-instance-types --output json`, from InstanceTypeInfo objects. */
export function describeInstanceTypesFile(types: Record<string, unknown>[]): string {
  return `${JSON.stringify({ InstanceTypes: types }, null, 2)}\n`;
}
