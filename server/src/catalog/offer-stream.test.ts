import { describe, expect, it } from 'vitest';
import { readOfferStream } from './offer-stream.ts';
import { ebsItems, instanceItem, offerFile } from './testing/price-list.ts';

/** Feeds a text in chunks of `size` bytes, as a file or a download arrives. */
async function* chunked(text: string, size = 4096): AsyncGenerator<Uint8Array> {
  const bytes = Buffer.from(text);
  for (let i = 0; i < bytes.length; i += size) yield bytes.subarray(i, i + size);
}

const relevant = () => [
  ...ebsItems('eu-west-1', 'EU-', { gp3: ['0.0880000000', '0.0055000000', '45.0560000000'] }),
  instanceItem('eu-west-1', 'EU-', 'm5.large', '0.1070000000'),
];
// Most of a real offer: products the catalog does not price (Windows, dedicated…).
const noise = (n: number) =>
  Array.from({ length: n }, (_, i) =>
    instanceItem('eu-west-1', 'EU-', `m5.${i}xlarge`, '0.5', { os: 'Windows' }),
  );

describe('readOfferStream: one region’s offer file, streamed', () => {
  it('holds only the SKUs it prices, however many products the file has, and stops before the Reserved terms', async () => {
    const text = offerFile([...noise(5_000), ...relevant()], { reservedPerSku: 2 });
    const read = await readOfferStream(chunked(text), { label: 'eu-west-1.json', region: 'eu-west-1' });
    expect(read.products).toBe(5_004);
    // 3 gp3 SKUs + 1 instance hour: the state grows with these, not with the 5,000 others.
    expect(read.peakHeld).toBe(4);
    expect(read.stoppedEarly).toBe(true);
    expect(read.bytesRead).toBeLessThan(Buffer.byteLength(text) * 0.75);
    expect(read.regions).toEqual([
      {
        region: 'eu-west-1',
        location: 'Test location (eu-west-1)',
        zoneType: 'region',
        ebs: expect.objectContaining({
          rates: expect.objectContaining({ gp3: { storage: 0.088, iops: 0.0055, throughput: 0.044 } }),
        }),
        ec2: { 'm5.large': 0.107 },
      },
    ]);
  });

  it('terms before products (not AWS’s order, still valid JSON): the prices wait for their product', async () => {
    const text = offerFile([...noise(10), ...relevant()], { termsFirst: true });
    const read = await readOfferStream(chunked(text, 100), { label: 'x', region: 'eu-west-1' });
    expect(read.regions[0]!.ec2).toEqual({ 'm5.large': 0.107 });
    expect(read.regions[0]!.ebs!.rates.gp3.throughput).toBe(0.044);
  });

  it('a truncated file is not valid JSON, named with the bytes read', async () => {
    const text = offerFile(relevant());
    await expect(
      readOfferStream(chunked(text.slice(0, text.length - 40)), { label: 'cut.json', region: 'eu-west-1' }),
    ).rejects.toThrow(/^cut\.json: not valid JSON after \d+ bytes/);
  });

  it('two price dimensions starting at 0 for one SKU: refused naming the SKU’s dimension', async () => {
    const items = relevant();
    const text = offerFile(items).replace(
      /"appliesTo": \[\]\n(\s*)\}/,
      '"appliesTo": []\n$1},\n$1"EXTRA.DIM": { "unit": "GB-Mo", "beginRange": "0", "endRange": "Inf", "pricePerUnit": { "USD": "1.0" } }',
    );
    await expect(readOfferStream(chunked(text), { label: 'f', region: 'eu-west-1' })).rejects.toThrow(
      /^f: terms\.OnDemand\.TESTSKU\d+\.TESTSKU\d+\.JRTCKXETXF\.priceDimensions\.\S+: 2 price dimensions starting at 0 for EU-EBS:VolumeUsage\.gp3, expected one/,
    );
  });
});
