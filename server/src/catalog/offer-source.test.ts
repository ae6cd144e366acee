import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { open } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { afterAll, afterEach, describe, expect, it, vi } from 'vitest';
import { parseOfferBase, readLocalText, readRegionIndex, REGION_INDEX_PATH } from './offer-source.ts';

const dir = mkdtempSync(join(tmpdir(), 'bw-offers-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
afterEach(() => vi.restoreAllMocks());

const indexJson = JSON.stringify({
  publicationDate: '2026-11-01T00:00:00Z',
  regions: {
    'us-east-1': {
      regionCode: 'us-east-1',
      currentVersionUrl: '/offers/v1.0/aws/AmazonEC2/20261101/us-east-1/index.json',
    },
  },
});
const indexFile = join(dir, `.${REGION_INDEX_PATH}`);
mkdirSync(dirname(indexFile), { recursive: true });

/**
 * A file that grew after it was opened: its handle's stat() reports the size it had then
 * (`staleSize`), its bytes are what it holds now.
 */
async function statReportsSize(staleSize: number) {
  const probe = await open(indexFile, 'r');
  const proto = Object.getPrototypeOf(probe) as { stat: () => Promise<{ size: number }> };
  await probe.close();
  const real = proto.stat;
  vi.spyOn(proto, 'stat').mockImplementation(async function (this: unknown) {
    const info = await real.call(this);
    return Object.assign(info, { size: Math.min(info.size, staleSize) });
  });
}

describe('readRegionIndex from a folder', () => {
  it('reads a region index of a few hundred bytes', async () => {
    writeFileSync(indexFile, indexJson);
    const index = await readRegionIndex(parseOfferBase(dir, dir));
    expect(index.regions).toEqual([
      { code: 'us-east-1', path: '/offers/v1.0/aws/AmazonEC2/20261101/us-east-1/index.json' },
    ]);
  });

  it('refuses a file that grew past 16 MiB after its size was checked, reading no more than that', async () => {
    // Valid JSON either way: whitespace after the index, 17 MiB in all.
    writeFileSync(indexFile, indexJson + ' '.repeat(17 * 1024 * 1024));
    await statReportsSize(indexJson.length);
    const probe = await open(indexFile, 'r');
    const proto = Object.getPrototypeOf(probe) as {
      read: (...args: unknown[]) => Promise<{ bytesRead: number }>;
    };
    await probe.close();
    const realRead = proto.read;
    let bytesRead = 0;
    vi.spyOn(proto, 'read').mockImplementation(async function (this: unknown, ...args: unknown[]) {
      const result = await realRead.apply(this, args);
      bytesRead += result.bytesRead;
      return result;
    });
    await expect(readRegionIndex(parseOfferBase(dir, dir))).rejects.toThrow(
      /over 16777216 bytes; a region index is far smaller/,
    );
    expect(bytesRead).toBe(16 * 1024 * 1024 + 1);
  });
});

describe('readLocalText', () => {
  it('refuses a file that grew past its limit after its size was checked', async () => {
    writeFileSync(indexFile, 'x'.repeat(5000));
    await statReportsSize(100);
    await expect(
      readLocalText(indexFile, 'offers.json', 1000, (bytes) => `${bytes} bytes: too big`),
    ).rejects.toThrow(/1001 bytes: too big/);
  });

  it('reads one within its limit', async () => {
    writeFileSync(indexFile, 'x'.repeat(1000));
    expect((await readLocalText(indexFile, 'offers.json', 1000, () => 'too big')).text).toBe(
      'x'.repeat(1000),
    );
  });
});
