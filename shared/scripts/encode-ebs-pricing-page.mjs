// Writes shared/src/aws/data/inputs/price-list-2024-07-18/, an AWS Price List mirror (region
// index + one AmazonEC2 offer file per Region, EBS products only), from the price file behind
// AWS's Amazon EBS pricing page (https://aws.amazon.com/ebs/pricing/): `ebs.json` of
// https://b0.p.awsstatic.com/pricing/2.0/meteredUnitMaps/ec2/USD/current/, USD prices per
// location name and price name, as committed by yeo/ec2.shop (`data/ebs/ebs.json` @576c890f,
// its manifest's `hawkFilePublicationDate` 2024-07-18T13:53:37Z). Then `pnpm catalog:builtin`
// builds data/catalog.json from the inputs with the code of `blockwise catalog update`:
//
//   node shared/scripts/encode-ebs-pricing-page.mjs path/to/ebs.json
//
// The numbers are the file's, unchanged (the catalog divides the per-GiBps-month throughput
// price by 1,024 as it does for AWS's offer files). What re-encoding adds: made-up SKUs (a hash of
// region and usage type), usage types with the region prefixes the 2022 inputs use (the file has
// none; the Regions that are new here get their code in capitals, AP-SOUTH-2-), and the Region
// codes, from REGION_OF below. See shared/src/aws/data/SOURCES.md.
import { readFileSync, rmSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { LOCATION_TYPE, PREFIX, writeMirror } from './offer-mirror.mjs';

const from = process.argv[2];
if (!from) {
  console.error('usage: node shared/scripts/encode-ebs-pricing-page.mjs path/to/ebs.json');
  process.exit(2);
}
const out = fileURLToPath(new URL('../src/aws/data/inputs/', import.meta.url));
const page = JSON.parse(readFileSync(from, 'utf8'));
const publicationDate = page.manifest?.hawkFilePublicationDate;
if (page.manifest?.currencyCode !== 'USD' || !/^\d{4}-\d{2}-\d{2}T/.test(publicationDate ?? '')) {
  console.error(`${from}: expected the EBS pricing page's USD file (manifest.hawkFilePublicationDate)`);
  process.exit(1);
}

const DISCLAIMER =
  "Re-encoded by Blockwise in the AWS Price List offer format from the price file of AWS's Amazon EBS pricing page (meteredUnitMaps/ec2/USD/current/ebs.json) as committed by yeo/ec2.shop; see shared/src/aws/data/SOURCES.md. SKUs are made up. Not an AWS file.";

/**
 * Region code → the location name the file keys its prices by. Each pair is from the same
 * repository at the same snapshot (yeo/ec2.shop @74c9fd8a): `data/ec2/<code>-ondemand.json`, AWS's
 * pricing-page file of that Region's instance prices, names one `Location`, the name here. Local
 * and Wavelength Zones are left out: the file names a metro ("US West (Los Angeles)"), not a
 * zone, and one metro can hold several zones.
 */
const REGION_OF = {
  'af-south-1': 'Africa (Cape Town)',
  'ap-east-1': 'Asia Pacific (Hong Kong)',
  'ap-northeast-1': 'Asia Pacific (Tokyo)',
  'ap-northeast-2': 'Asia Pacific (Seoul)',
  'ap-northeast-3': 'Asia Pacific (Osaka)',
  'ap-south-1': 'Asia Pacific (Mumbai)',
  'ap-south-2': 'Asia Pacific (Hyderabad)',
  'ap-southeast-1': 'Asia Pacific (Singapore)',
  'ap-southeast-2': 'Asia Pacific (Sydney)',
  'ap-southeast-3': 'Asia Pacific (Jakarta)',
  'ap-southeast-4': 'Asia Pacific (Melbourne)',
  'ca-central-1': 'Canada (Central)',
  'ca-west-1': 'Canada West (Calgary)',
  'eu-central-1': 'EU (Frankfurt)',
  'eu-central-2': 'EU (Zurich)',
  'eu-north-1': 'EU (Stockholm)',
  'eu-south-1': 'EU (Milan)',
  'eu-south-2': 'EU (Spain)',
  'eu-west-1': 'EU (Ireland)',
  'eu-west-2': 'EU (London)',
  'eu-west-3': 'EU (Paris)',
  'il-central-1': 'Israel (Tel Aviv)',
  'me-central-1': 'Middle East (UAE)',
  'me-south-1': 'Middle East (Bahrain)',
  'sa-east-1': 'South America (Sao Paulo)',
  'us-east-1': 'US East (N. Virginia)',
  'us-east-2': 'US East (Ohio)',
  'us-gov-east-1': 'AWS GovCloud (US-East)',
  'us-gov-west-1': 'AWS GovCloud (US)',
  'us-west-1': 'US West (N. California)',
  'us-west-2': 'US West (Oregon)',
};

/**
 * The file's price names → the usage type, product family, unit and volume type AWS's offer files
 * use. Volumes only: the file's snapshot prices are left for a change that follows them through
 * the fleet planner (built in, no Region has snapshot prices yet: shared/src/aws/data/SOURCES.md, known gaps).
 */
const ITEMS = [
  ['Storage General Purpose gp2 GB Mo', 'EBS:VolumeUsage.gp2', 'Storage', 'GB-Mo', 'gp2'],
  ['Storage General Purpose gp3 GB Mo', 'EBS:VolumeUsage.gp3', 'Storage', 'GB-Mo', 'gp3'],
  [
    'Provisioned EBS IOPS gp3 Volumes per IOPS Mo',
    'EBS:VolumeP-IOPS.gp3',
    'System Operation',
    'IOPS-Mo',
    'gp3',
  ],
  [
    'Provisioned Throughput gp3 per GiBps mo',
    'EBS:VolumeP-Throughput.gp3',
    'Provisioned Throughput',
    'GiBps-mo',
    'gp3',
  ],
  ['Storage Provisioned IOPS io1 GB Mo', 'EBS:VolumeUsage.piops', 'Storage', 'GB-Mo', 'io1'],
  [
    'Provisioned EBS IOPS io1 Volumes per IOPS Mo',
    'EBS:VolumeP-IOPS.piops',
    'System Operation',
    'IOPS-Mo',
    'io1',
  ],
  ['Storage Provisioned IOPS io2 GB Mo', 'EBS:VolumeUsage.io2', 'Storage', 'GB-Mo', 'io2'],
  [
    'Provisioned EBS IOPS io2 Volumes per IOPS Mo',
    'EBS:VolumeP-IOPS.io2',
    'System Operation',
    'IOPS-Mo',
    'io2',
  ],
  [
    'Provisioned EBS IOPS Tier 2 io2 Volumes per IOPS Mo',
    'EBS:VolumeP-IOPS.io2.tier2',
    'System Operation',
    'IOPS-Mo',
    'io2',
  ],
  [
    'Provisioned EBS IOPS Tier 3 io2 Volumes per IOPS Mo',
    'EBS:VolumeP-IOPS.io2.tier3',
    'System Operation',
    'IOPS-Mo',
    'io2',
  ],
  ['Storage Throughput Optimized HDD st1 GB Mo', 'EBS:VolumeUsage.st1', 'Storage', 'GB-Mo', 'st1'],
  ['Storage Cold HDD sc1 GB Mo', 'EBS:VolumeUsage.sc1', 'Storage', 'GB-Mo', 'sc1'],
];

const files = {};
for (const [region, location] of Object.entries(REGION_OF)) {
  const prices = page.regions?.[location];
  if (!prices) {
    console.error(`${from}: no prices for ${location} (${region})`);
    process.exit(1);
  }
  const items = [];
  for (const [name, usage, family, unit, apiName] of ITEMS) {
    // io2 storage is listed twice, "GB month" and "GB Mo", at one rate code.
    const entry =
      prices[name] ?? (name.endsWith('io2 GB Mo') ? prices[name.replace(/Mo$/, 'month')] : undefined);
    if (entry === undefined) continue;
    const value = Number(entry.price);
    if (!Number.isFinite(value) || value < 0) {
      console.error(`${from}: regions.${location}.${name}.price: expected a USD amount, got ${entry.price}`);
      process.exit(1);
    }
    items.push({
      family,
      unit,
      usd: value,
      description: `${name} - ${location} (pricing page rate code ${entry.rateCode})`,
      attributes: {
        servicecode: 'AmazonEC2',
        location,
        locationType: LOCATION_TYPE.region,
        usagetype: `${PREFIX[region] ?? `${region.toUpperCase()}-`}${usage}`,
        regionCode: region,
        ...(apiName ? { volumeApiName: apiName } : {}),
      },
    });
  }
  files[region] = items;
}

const version = publicationDate.replace(/\D/g, '').slice(0, 14);
const dir = `price-list-${publicationDate.slice(0, 10)}`;
rmSync(`${out}${dir}`, { recursive: true, force: true });
writeMirror({ out, dir, version, publicationDate, files, disclaimer: DISCLAIMER });
console.log(
  `${dir}: ${Object.keys(files).length} EBS offer files (published ${publicationDate}) → ${out}${dir}`,
);
