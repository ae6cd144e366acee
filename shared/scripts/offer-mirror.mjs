// The AWS Price List mirror layout the built-in catalog's inputs use (shared/src/aws/data/inputs/),
// shared by the scripts that re-encode public price data into it: encode-reference-inputs.mjs and
// encode-ebs-pricing-page.mjs. Each writes region_index.json and one AmazonEC2 offer file per
// region, products first, then terms.OnDemand, one record per line, as AWS writes them.
import { createHash } from 'node:crypto';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

/** Usage-type prefixes as AWS writes them; Local / Wavelength Zones use their zone id. */
export const PREFIX = {
  'us-east-1': '',
  'us-east-2': 'USE2-',
  'us-west-1': 'USW1-',
  'us-west-2': 'USW2-',
  'af-south-1': 'AFS1-',
  'ap-east-1': 'APE1-',
  'ap-northeast-1': 'APN1-',
  'ap-northeast-2': 'APN2-',
  'ap-northeast-3': 'APN3-',
  'ap-south-1': 'APS3-',
  'ap-southeast-1': 'APS1-',
  'ap-southeast-2': 'APS2-',
  'ap-southeast-3': 'APS4-',
  'ca-central-1': 'CAN1-',
  'eu-central-1': 'EUC1-',
  'eu-north-1': 'EUN1-',
  'eu-south-1': 'EUS1-',
  'eu-west-1': 'EU-',
  'eu-west-2': 'EUW2-',
  'eu-west-3': 'EUW3-',
  'me-south-1': 'MES1-',
  'sa-east-1': 'SAE1-',
  'us-gov-east-1': 'UGE1-',
  'us-gov-west-1': 'UGW1-',
};
export const prefixOf = (region) =>
  PREFIX[region] ?? `${region.split('-').slice(0, 2).join('-').toUpperCase()}-`;
export const LOCATION_TYPE = {
  region: 'AWS Region',
  local_zone: 'AWS Local Zone',
  wavelength_zone: 'AWS Wavelength Zone',
};

export const sku = (...parts) =>
  createHash('sha256')
    .update(parts.join('|'))
    .digest('hex')
    .slice(0, 16)
    .toUpperCase()
    .replace(/[0-9]/g, (d) => 'QRSTUVWXYZ'[Number(d)]);
const usd = (v) => v.toFixed(10);

/** One offer file: products first, then terms.OnDemand, as AWS writes them; one record per line. */
export function offerFile({ region, version, publicationDate, items, disclaimer }) {
  const products = [];
  const terms = [];
  for (const item of items) {
    const id = sku(region, item.attributes.usagetype, item.attributes.instanceType ?? '');
    products.push(
      `${JSON.stringify(id)}:${JSON.stringify({ sku: id, productFamily: item.family, attributes: item.attributes })}`,
    );
    const term = `${id}.JRTCKXETXF`;
    const rate = `${term}.6YS6EN2CT7`;
    terms.push(
      `${JSON.stringify(id)}:${JSON.stringify({
        [term]: {
          offerTermCode: 'JRTCKXETXF',
          sku: id,
          effectiveDate: publicationDate,
          priceDimensions: {
            [rate]: {
              rateCode: rate,
              description: item.description,
              beginRange: '0',
              endRange: 'Inf',
              unit: item.unit,
              pricePerUnit: { USD: usd(item.usd) },
              appliesTo: [],
            },
          },
          termAttributes: {},
        },
      })}`,
    );
  }
  return `{"formatVersion":"v1.0","disclaimer":${JSON.stringify(disclaimer)},"offerCode":"AmazonEC2","version":"${version}","publicationDate":"${publicationDate}",\n"products":{\n${products.join(',\n')}\n},\n"terms":{"OnDemand":{\n${terms.join(',\n')}\n}}}\n`;
}

/** Writes `<out>/<dir>/offers/v1.0/aws/AmazonEC2/…`: `files` maps a region code to its items. */
export function writeMirror({ out, dir, version, publicationDate, files, disclaimer }) {
  const root = join(out, dir, 'offers/v1.0/aws/AmazonEC2');
  const regions = {};
  for (const [region, items] of Object.entries(files)) {
    const path = `/offers/v1.0/aws/AmazonEC2/${version}/${region}/index.json`;
    regions[region] = { regionCode: region, currentVersionUrl: path };
    mkdirSync(join(root, version, region), { recursive: true });
    writeFileSync(
      join(root, version, region, 'index.json'),
      offerFile({ region, version, publicationDate, items, disclaimer }),
    );
  }
  mkdirSync(join(root, 'current'), { recursive: true });
  writeFileSync(
    join(root, 'current', 'region_index.json'),
    `${JSON.stringify({ formatVersion: 'v1.0', disclaimer, publicationDate, regions }, null, 2)}\n`,
  );
}
