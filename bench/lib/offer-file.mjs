// A generated AWS Price List offer file (AmazonEC2, one region) of a chosen size, in the layout
// AWS publishes (products, then terms.OnDemand, then terms.Reserved), for P14. Its products look
// like real ones (the attribute set of an AmazonEC2 Compute Instance product); most are what the
// catalog skips (Windows, RHEL, dedicated tenancy), ~800 are on-demand Linux shared-tenancy
// instance hours and 14 are EBS prices. Written as a stream: the generator holds one record.
import { createWriteStream, mkdirSync, writeFileSync } from 'node:fs';
import { once } from 'node:events';
import { dirname, join } from 'node:path';

const OS = ['Windows', 'RHEL', 'SUSE', 'Red Hat Enterprise Linux with HA', 'Ubuntu Pro', 'Linux'];
const TENANCY = ['Shared', 'Dedicated', 'Host'];
const SIZES = [
  'medium',
  'large',
  'xlarge',
  '2xlarge',
  '4xlarge',
  '8xlarge',
  '12xlarge',
  '16xlarge',
  '24xlarge',
  'metal',
];
const FAMILIES = Array.from(
  { length: 80 },
  (_, i) => `${'mcrxiz'[i % 6]}${5 + (i % 5)}${['', 'd', 'g', 'gd', 'i', 'id', 'a', 'n'][i % 8]}`,
);
const EBS = [
  ['Storage', 'EBS:VolumeUsage.gp2', 'GB-Mo', '0.1000000000'],
  ['Storage', 'EBS:VolumeUsage.gp3', 'GB-Mo', '0.0800000000'],
  ['System Operation', 'EBS:VolumeP-IOPS.gp3', 'IOPS-Mo', '0.0050000000'],
  ['Provisioned Throughput', 'EBS:VolumeP-Throughput.gp3', 'GiBps-mo', '40.9600000000'],
  ['Storage', 'EBS:VolumeUsage.piops', 'GB-Mo', '0.1250000000'],
  ['System Operation', 'EBS:VolumeP-IOPS.piops', 'IOPS-Mo', '0.0650000000'],
  ['Storage', 'EBS:VolumeUsage.io2', 'GB-Mo', '0.1250000000'],
  ['System Operation', 'EBS:VolumeP-IOPS.io2', 'IOPS-Mo', '0.0650000000'],
  ['System Operation', 'EBS:VolumeP-IOPS.io2.tier2', 'IOPS-Mo', '0.0455000000'],
  ['System Operation', 'EBS:VolumeP-IOPS.io2.tier3', 'IOPS-Mo', '0.0318500000'],
  ['Storage', 'EBS:VolumeUsage.st1', 'GB-Mo', '0.0450000000'],
  ['Storage', 'EBS:VolumeUsage.sc1', 'GB-Mo', '0.0150000000'],
  ['Storage Snapshot', 'EBS:SnapshotUsage', 'GB-Mo', '0.0500000000'],
  ['Storage Snapshot', 'EBS:SnapshotArchiveStorage', 'GB-Mo', '0.0125000000'],
];

const sku = (i) => `B${i.toString(36).toUpperCase().padStart(15, '0')}`;

function instance(i, region, prefix) {
  const type = `${FAMILIES[i % FAMILIES.length]}.${SIZES[Math.floor(i / FAMILIES.length) % SIZES.length]}`;
  // The first 800 of every 48,000 products are on-demand Linux shared-tenancy hours: 800 distinct
  // types (80 families × 10 sizes), the same types again in each later block (kept once).
  const linux = i % 48_000 < 800;
  const os = linux ? 'Linux' : OS[i % 5];
  const tenancy = linux ? 'Shared' : TENANCY[i % 3];
  return {
    sku: sku(i),
    productFamily: 'Compute Instance',
    attributes: {
      servicecode: 'AmazonEC2',
      location: 'US East (Ohio)',
      locationType: 'AWS Region',
      instanceType: type,
      currentGeneration: 'Yes',
      instanceFamily: 'General purpose',
      vcpu: '2',
      physicalProcessor: 'Intel Xeon Platinum 8175',
      clockSpeed: '3.1 GHz',
      memory: '8 GiB',
      storage: 'EBS only',
      networkPerformance: 'Up to 10 Gigabit',
      processorArchitecture: '64-bit',
      tenancy,
      operatingSystem: os,
      licenseModel: 'No License required',
      usagetype: `${prefix}${tenancy === 'Shared' ? 'BoxUsage' : 'DedicatedUsage'}:${type}`,
      operation: linux ? 'RunInstances' : `RunInstances:000${i % 9}`,
      availabilityzone: 'NA',
      capacitystatus: 'Used',
      classicnetworkingsupport: 'false',
      dedicatedEbsThroughput: 'Up to 2120 Mbps',
      ecu: '10',
      enhancedNetworkingSupported: 'Yes',
      gpuMemory: 'NA',
      intelAvxAvailable: 'Yes',
      intelAvx2Available: 'Yes',
      intelTurboAvailable: 'Yes',
      marketoption: 'OnDemand',
      normalizationSizeFactor: '4',
      preInstalledSw: 'NA',
      processorFeatures: 'Intel AVX; Intel AVX2; Intel AVX512; Intel Turbo',
      regionCode: region,
      servicename: 'Amazon Elastic Compute Cloud',
      vpcnetworkingsupport: 'true',
    },
  };
}

const term = (id, code, unit, usd) => ({
  [`${id}.${code}`]: {
    offerTermCode: code,
    sku: id,
    effectiveDate: '2026-11-01T00:00:00Z',
    priceDimensions: {
      [`${id}.${code}.6YS6EN2CT7`]: {
        rateCode: `${id}.${code}.6YS6EN2CT7`,
        description: `$${usd} per ${unit}`,
        beginRange: '0',
        endRange: 'Inf',
        unit,
        pricePerUnit: { USD: usd },
        appliesTo: [],
      },
    },
    termAttributes: {},
  },
});

/**
 * Writes BASE/offers/v1.0/aws/AmazonEC2/current/region_index.json and one region's offer file of
 * about `bytes` bytes (products ≈ 58 %, on-demand terms ≈ 32 %, reserved terms ≈ 10 %: the
 * catalog has to read nine tenths of it). Returns the file's path and size.
 */
export async function writeOfferMirror(base, bytes, { region = 'us-east-2', prefix = 'USE2-' } = {}) {
  const version = '20261101000000';
  const path = `/offers/v1.0/aws/AmazonEC2/${version}/${region}/index.json`;
  const file = join(base, path);
  mkdirSync(dirname(file), { recursive: true });
  const index = join(base, '/offers/v1.0/aws/AmazonEC2/current/region_index.json');
  mkdirSync(dirname(index), { recursive: true });
  writeFileSync(
    index,
    JSON.stringify({
      formatVersion: 'v1.0',
      publicationDate: '2026-11-01T00:00:00Z',
      regions: { [region]: { regionCode: region, currentVersionUrl: path } },
    }),
  );
  const out = createWriteStream(file, { highWaterMark: 1 << 20 });
  let written = 0;
  const write = async (text) => {
    written += Buffer.byteLength(text);
    if (!out.write(text)) await once(out, 'drain');
  };
  // Per product: ~1.0 KB product, ~0.5 KB on-demand term, and one product in five a reserved term.
  const count = Math.max(1000, Math.floor(bytes / 1660));
  const ebs = EBS.map(([family, usage, unit, usd], i) => ({
    product: {
      sku: `E${String(i).padStart(15, '0')}`,
      productFamily: family,
      attributes: {
        servicecode: 'AmazonEC2',
        location: 'US East (Ohio)',
        locationType: 'AWS Region',
        usagetype: `${prefix}${usage}`,
        regionCode: region,
        volumeApiName: usage.split('.')[1] ?? 'standard',
      },
    },
    unit,
    usd,
  }));
  await write(
    `{\n  "formatVersion" : "v1.0",\n  "disclaimer" : "Generated for Blockwise's bench (P14).",\n  "offerCode" : "AmazonEC2",\n  "version" : "${version}",\n  "publicationDate" : "2026-11-01T00:00:00Z",\n  "products" : {\n`,
  );
  for (const e of ebs) await write(`    ${JSON.stringify(e.product.sku)} : ${JSON.stringify(e.product)},\n`);
  for (let i = 0; i < count; i++)
    await write(
      `    ${JSON.stringify(sku(i))} : ${JSON.stringify(instance(i, region, prefix))}${i + 1 < count ? ',' : ''}\n`,
    );
  await write('  },\n  "terms" : {\n    "OnDemand" : {\n');
  for (const e of ebs)
    await write(
      `      ${JSON.stringify(e.product.sku)} : ${JSON.stringify(term(e.product.sku, 'JRTCKXETXF', e.unit, e.usd))},\n`,
    );
  for (let i = 0; i < count; i++)
    await write(
      `      ${JSON.stringify(sku(i))} : ${JSON.stringify(term(sku(i), 'JRTCKXETXF', 'Hrs', (0.05 + (i % 97) / 100).toFixed(10)))}${i + 1 < count ? ',' : ''}\n`,
    );
  await write('    },\n    "Reserved" : {\n');
  const reserved = Math.floor(count / 5);
  for (let i = 0; i < reserved; i++)
    await write(
      `      ${JSON.stringify(sku(i))} : ${JSON.stringify(term(sku(i), '38NPMPTW36', 'Hrs', '0.0310000000'))}${i + 1 < reserved ? ',' : ''}\n`,
    );
  await write('    }\n  },\n  "attributesList" : { }\n}\n');
  out.end();
  await once(out, 'finish');
  return { file, bytes: written, products: count + ebs.length };
}
