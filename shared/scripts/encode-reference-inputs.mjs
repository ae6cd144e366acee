// Writes the inputs of the built-in catalog (shared/src/aws/data/inputs/) in AWS's documented
// formats, from the product team's reference data (a folder of JSON files collected from public
// repositories, each number with its source: see shared/src/aws/data/SOURCES.md). Run once per
// refresh of that data, then `pnpm catalog:builtin` builds data/catalog.json from the inputs
// with the code of `blockwise catalog update`:
//
//   node shared/scripts/encode-reference-inputs.mjs path/to/reference/aws
//
// What it writes, and how each part was re-encoded (the numbers are the reference's, unchanged):
// - price-list-2022-02-10/: an AWS Price List mirror (region_index.json + one AmazonEC2 offer file
//   per region) holding the EBS products of cloudkeep-io/ebs-pricing's extract of 2022-02-10.
// - price-list-2026-07-20/: the same layout for us-east-1's on-demand Linux instance prices of
//   Karpenter's generated table (2026-07-20).
// - describe-instance-types.*.json: `aws ec2 describe-instance-types --output json` shape.
// - instance-store-iops.awsdocs-2026-03-01.json: the docs tables' instance store IOPS.
// SKUs are made up (a hash of region and usage type): the reference data has none.
import { readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { LOCATION_TYPE, prefixOf, writeMirror as writeMirrorIn } from './offer-mirror.mjs';

const from = process.argv[2];
if (!from) {
  console.error('usage: node shared/scripts/encode-reference-inputs.mjs path/to/reference/aws');
  process.exit(2);
}
const out = fileURLToPath(new URL('../src/aws/data/inputs/', import.meta.url));
const read = (name) => JSON.parse(readFileSync(join(from, name), 'utf8'));
const ebs = read('ebs-prices.json');
const ec2 = read('ec2-prices.json');
const limits = read('instance-ebs-limits.json');
const nvme = read('instance-store-nvme.json');

const DISCLAIMER =
  'Re-encoded by Blockwise in the AWS Price List offer format from public extracts of the AWS Price List (see shared/src/aws/data/SOURCES.md); SKUs are made up. Not an AWS file.';

const writeMirror = (dir, version, publicationDate, files) =>
  writeMirrorIn({ out, dir, version, publicationDate, files, disclaimer: DISCLAIMER });

// EBS: the components the catalog reads, as AWS names them.
const EBS_ITEMS = [
  ['gp2', 'storageGBMonth', 'Storage', 'EBS:VolumeUsage.gp2', 'GB-Mo', 'gp2'],
  ['gp3', 'storageGBMonth', 'Storage', 'EBS:VolumeUsage.gp3', 'GB-Mo', 'gp3'],
  ['gp3', 'iopsMonthAbove3000', 'System Operation', 'EBS:VolumeP-IOPS.gp3', 'IOPS-Mo', 'gp3', 'EBS IOPS'],
  [
    'gp3',
    'throughputGiBpsMonthRaw',
    'Provisioned Throughput',
    'EBS:VolumeP-Throughput.gp3',
    'GiBps-mo',
    'gp3',
  ],
  ['io1', 'storageGBMonth', 'Storage', 'EBS:VolumeUsage.piops', 'GB-Mo', 'io1'],
  ['io1', 'iopsMonth', 'System Operation', 'EBS:VolumeP-IOPS.piops', 'IOPS-Mo', 'io1', 'EBS IOPS'],
  ['io2', 'storageGBMonth', 'Storage', 'EBS:VolumeUsage.io2', 'GB-Mo', 'io2'],
  [
    'io2',
    'iopsMonthTier1Upto32000',
    'System Operation',
    'EBS:VolumeP-IOPS.io2',
    'IOPS-Mo',
    'io2',
    'EBS IOPS',
  ],
  [
    'io2',
    'iopsMonthTier2From32001To64000',
    'System Operation',
    'EBS:VolumeP-IOPS.io2.tier2',
    'IOPS-Mo',
    'io2',
    'EBS IOPS Tier 2',
  ],
  [
    'io2',
    'iopsMonthTier3Above64000',
    'System Operation',
    'EBS:VolumeP-IOPS.io2.tier3',
    'IOPS-Mo',
    'io2',
    'EBS IOPS Tier 3',
  ],
  ['st1', 'storageGBMonth', 'Storage', 'EBS:VolumeUsage.st1', 'GB-Mo', 'st1'],
  ['sc1', 'storageGBMonth', 'Storage', 'EBS:VolumeUsage.sc1', 'GB-Mo', 'sc1'],
];
const ebsFiles = {};
for (const [region, r] of Object.entries(ebs.regions)) {
  const items = [];
  for (const [type, field, family, usage, unit, apiName, group] of EBS_ITEMS) {
    let value = r.prices[type]?.[field];
    if (
      field === 'throughputGiBpsMonthRaw' &&
      value == null &&
      r.prices.gp3?.throughputMiBpsMonthAbove125 != null
    )
      value = r.prices.gp3.throughputMiBpsMonthAbove125 * 1024;
    if (value == null) continue;
    items.push({
      family,
      unit,
      usd: value,
      description: `${usage} ${unit} - ${r.location}`,
      attributes: {
        servicecode: 'AmazonEC2',
        location: r.location,
        locationType: LOCATION_TYPE[r.zoneType],
        ...(group ? { group } : {}),
        usagetype: `${prefixOf(region)}${usage}`,
        regionCode: region,
        volumeApiName: apiName,
      },
    });
  }
  // The China regions have no USD price in the extract: no offer file rather than an empty one.
  if (items.length > 0) ebsFiles[region] = items;
}
rmSync(join(out, 'price-list-2022-02-10'), { recursive: true, force: true });
writeMirror('price-list-2022-02-10', '20220210050117', '2022-02-10T05:01:17Z', ebsFiles);

const usEast1 = ec2.regions['us-east-1'].usdPerHour;
const ec2Items = Object.entries(usEast1)
  .sort(([a], [b]) => (a < b ? -1 : 1))
  .map(([instanceType, price]) => ({
    family: 'Compute Instance',
    unit: 'Hrs',
    usd: price,
    description: `$${price} per On Demand Linux ${instanceType} Instance Hour`,
    attributes: {
      servicecode: 'AmazonEC2',
      location: 'US East (N. Virginia)',
      locationType: 'AWS Region',
      instanceType,
      tenancy: 'Shared',
      operatingSystem: 'Linux',
      licenseModel: 'No License required',
      usagetype: `BoxUsage:${instanceType}`,
      operation: 'RunInstances',
      capacitystatus: 'Used',
      preInstalledSw: 'NA',
      regionCode: 'us-east-1',
    },
  }));
rmSync(join(out, 'price-list-2026-07-20'), { recursive: true, force: true });
writeMirror('price-list-2026-07-20', '20260720134430', '2026-07-20T13:44:30Z', { 'us-east-1': ec2Items });

/** An instance-ebs-limits record as DescribeInstanceTypes returns it (the fields Blockwise reads). */
function instanceTypeInfo(r) {
  const info = { InstanceType: r.instanceType };
  if (r.currentGeneration !== null) info.CurrentGeneration = r.currentGeneration;
  if (r.bareMetal !== null) info.BareMetal = r.bareMetal;
  if (r.hypervisor) info.Hypervisor = r.hypervisor.toLowerCase().split(' ')[0];
  if (r.architectures) info.ProcessorInfo = { SupportedArchitectures: r.architectures };
  info.VCpuInfo = { DefaultVCpus: r.vCpus };
  info.MemoryInfo = { SizeInMiB: r.memoryMiB };
  info.InstanceStorageSupported = r.instanceStorageSupported;
  if (r.instanceStorage) {
    info.InstanceStorageInfo = {
      TotalSizeInGB: r.instanceStorage.totalSizeInGB,
      Disks: r.instanceStorage.disks.map((d) => ({ SizeInGB: d.sizeInGB, Count: d.count, Type: d.type })),
      ...(r.instanceStorage.nvmeSupport ? { NvmeSupport: r.instanceStorage.nvmeSupport } : {}),
    };
  }
  const optimized = {};
  for (const [api, field] of [
    ['BaselineBandwidthInMbps', 'baselineBandwidthInMbps'],
    ['BaselineThroughputInMBps', 'baselineThroughputInMBps'],
    ['BaselineIops', 'baselineIops'],
    ['MaximumBandwidthInMbps', 'maximumBandwidthInMbps'],
    ['MaximumThroughputInMBps', 'maximumThroughputInMBps'],
    ['MaximumIops', 'maximumIops'],
  ])
    if (r[field] != null) optimized[api] = r[field];
  info.EbsInfo = {
    ...(r.ebsOptimizedSupport ? { EbsOptimizedSupport: r.ebsOptimizedSupport } : {}),
    ...(Object.keys(optimized).length > 0 ? { EbsOptimizedInfo: optimized } : {}),
    ...(r.ebsNvmeSupport ? { NvmeSupport: r.ebsNvmeSupport } : {}),
    ...(r.maximumEbsAttachments != null ? { MaximumEbsAttachments: r.maximumEbsAttachments } : {}),
    ...(r.ebsAttachmentLimitType ? { AttachmentLimitType: r.ebsAttachmentLimitType } : {}),
  };
  return info;
}
const describeFile = (records) =>
  `{"InstanceTypes":[\n${records.map((r) => JSON.stringify(instanceTypeInfo(r))).join(',\n')}\n]}\n`;
const records = [...limits.instances].sort((a, b) => (a.instanceType < b.instanceType ? -1 : 1));
writeFileSync(
  join(out, 'describe-instance-types.moto-2026-08-02.json'),
  describeFile(records.filter((r) => r.source.startsWith('moto'))),
);
writeFileSync(
  join(out, 'describe-instance-types.awsdocs-2026-03-01.json'),
  describeFile(records.filter((r) => !r.source.startsWith('moto'))),
);

const docsOnly = records.filter((r) => r.instanceStorage?.docsStoreType);
const store = new Map(
  nvme.instances.map((s) => [
    s.instanceType,
    {
      instanceType: s.instanceType,
      storeType: s.storeType ?? null,
      volumeCount: s.volumeCount,
      volumeSizeGB: s.volumeSizeGB,
      randomReadIops: s.randomReadIops100pct ?? null,
      writeIops: s.writeIops ?? null,
    },
  ]),
);
for (const r of docsOnly)
  if (!store.has(r.instanceType))
    store.set(r.instanceType, {
      instanceType: r.instanceType,
      storeType: r.instanceStorage.docsStoreType,
      volumeCount: r.instanceStorage.disks[0].count,
      volumeSizeGB: r.instanceStorage.disks[0].sizeInGB,
      randomReadIops: null,
      writeIops: null,
    });
writeFileSync(
  join(out, 'instance-store-iops.awsdocs-2026-03-01.json'),
  `{"measurementConditions":${JSON.stringify(nvme.measurementConditions)},\n"instances":[\n${[
    ...store.values(),
  ]
    .sort((a, b) => (a.instanceType < b.instanceType ? -1 : 1))
    .map((e) => JSON.stringify(e))
    .join(',\n')}\n]}\n`,
);
console.log(
  `inputs: ${Object.keys(ebsFiles).length} EBS offer files, ${ec2Items.length} instance prices, ${records.length} instance types, ${store.size} store IOPS rows → ${out}`,
);
