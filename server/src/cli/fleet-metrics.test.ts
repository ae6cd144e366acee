import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it, onTestFinished } from 'vitest';
import { parseFleetVolumes } from '@blockwise/shared/fleet';
import { REPO_ROOT } from '../testing/run-cli.ts';
import {
  FleetInputError,
  MAX_SPARE_READ_BYTES,
  readMetricsFiles,
  readText,
  spareReadBytes,
} from './fleet-metrics.ts';

// fixtures/fleet/: 10 volumes, 2 days of points in two responses, one series cut across both.
const F = join(REPO_ROOT, 'fixtures/fleet');
const volumes = parseFleetVolumes(JSON.parse(readFileSync(join(F, 'volumes.json'), 'utf8')));
if (!volumes.ok) throw new Error(volumes.error.message);
const volumeIds = volumes.value.map((v) => v.volumeId);
const FILES = ['metrics-1.json', 'metrics-2.json'];

describe('readMetricsFiles: worker threads give what one thread gives', () => {
  it('merges the files read in 2 workers into the summaries read in order on the main thread', async () => {
    // The same files twice: every series continues in a later file, so the merge must replay points.
    const files = [...FILES, ...FILES];
    const inThread = await readMetricsFiles(files, F, volumeIds, 0);
    const inWorkers = await readMetricsFiles(files, F, volumeIds, 2);
    expect(inWorkers.files).toBe(4);
    expect(inWorkers).toEqual(inThread);
  });

  it('reports the first refused file in file order, naming the file and field', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'fleet-metrics-'));
    for (const f of FILES) writeFileSync(join(dir, f), readFileSync(join(F, f)));
    writeFileSync(
      join(dir, 'bad.json'),
      JSON.stringify({ MetricDataResults: [{ Id: 'x', Label: 'not a label', Timestamps: [], Values: [] }] }),
    );
    const files = ['metrics-1.json', 'bad.json', 'metrics-2.json', 'missing.json'];
    const error = await readMetricsFiles(files, dir, volumeIds, 2).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(FleetInputError);
    expect((error as FleetInputError).file).toBe('bad.json');
    expect((error as FleetInputError).problem.message).toContain('bad.json: MetricDataResults.0.Label');
  });
});

describe('the read buffer kept between files', () => {
  it('is one buffer of at most MAX_SPARE_READ_BYTES, whatever sizes were read, one by one or at once', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'fleet-buffers-'));
    const fileOf = (bytes: number) => {
      const name = `f${bytes}.json`;
      writeFileSync(join(dir, name), Buffer.alloc(bytes, 0x20));
      return name;
    };
    const MiB = 1024 * 1024;
    onTestFinished(() => rmSync(dir, { recursive: true, force: true }));
    const small = [fileOf(10_000), fileOf(3 * MiB), fileOf(200), fileOf(5 * MiB), fileOf(MiB)];
    const large = fileOf(MAX_SPARE_READ_BYTES + 1);
    // One by one: the largest buffer read so far is kept (one byte over its file: the grow check).
    for (const file of small) expect((await readText(file, dir)).trim()).toBe('');
    expect(spareReadBytes()).toBe(5 * MiB + 1);
    // A file over the bound is read into a buffer of its own, not kept.
    expect((await readText(large, dir)).length).toBe(MAX_SPARE_READ_BYTES + 1);
    expect(spareReadBytes()).toBe(5 * MiB + 1);
    // Read at once, each in its own buffer: one is kept, not each.
    await Promise.all([...small, large, ...small].map((f) => readText(f, dir)));
    expect(spareReadBytes()).toBe(5 * MiB + 1);
    expect(spareReadBytes()).toBeLessThanOrEqual(MAX_SPARE_READ_BYTES);
  });
});
