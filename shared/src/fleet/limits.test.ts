import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { FLEET_REQUEST_LIMITS, checkFleetRequestSize, volumeTypeLimits } from './limits.ts';
import { parseFleetVolumes } from './parse.ts';

// fixtures/fleet/: 10 volumes with known peaks, 2 days of 5-minute points (fixtures/fleet/README.md).
const DIR = resolve(import.meta.dirname, '../../../fixtures/fleet');
type Volumes = { Volumes: Array<Record<string, unknown>> };
const volumesJson = (): Volumes => JSON.parse(readFileSync(resolve(DIR, 'volumes.json'), 'utf8')) as Volumes;
const metricsJson = (): unknown => JSON.parse(readFileSync(resolve(DIR, 'metrics-1.json'), 'utf8'));

/** The fixture with its volume `i` changed. */
function withVolume(i: number, change: Record<string, unknown>): Volumes {
  const json = volumesJson();
  json.Volumes[i] = { ...json.Volumes[i], ...change };
  return json;
}

describe('parseFleetVolumes: numbers bounded by the volume type, ids unique', () => {
  it('reads the real fixture (its numbers are within every limit)', () => {
    expect(parseFleetVolumes(volumesJson()).ok).toBe(true);
  });

  it.each([
    // The probe of issue 24: 1e308 IOPS priced to Infinity (a 500), gp3 at 1e20 IOPS priced $5e17/month.
    { change: { Iops: 1e308 }, path: 'Volumes.0.Iops', says: 'at most 80000 IOPS' },
    { change: { Iops: 1e20 }, path: 'Volumes.0.Iops', says: 'at most 80000 IOPS' },
    { change: { Throughput: 2001 }, path: 'Volumes.0.Throughput', says: 'at most 2000 MiB/s' },
    { change: { Size: 65_537 }, path: 'Volumes.0.Size', says: 'at most 65536 GiB' },
    { change: { VolumeType: 'io1', Iops: 64_001 }, path: 'Volumes.0.Iops', says: 'io1' },
    { change: { VolumeType: 'st1', Size: 16_385 }, path: 'Volumes.0.Size', says: 'at most 16384 GiB' },
    // A type this build does not know is held to the largest any type allows (io2's 256,000).
    { change: { VolumeType: 'gp9', Iops: 256_001 }, path: 'Volumes.0.Iops', says: 'at most 256000 IOPS' },
  ])('$change → volumes_invalid at $path', ({ change, path, says }) => {
    const r = parseFleetVolumes(withVolume(0, change));
    expect(r).toMatchObject({ ok: false, error: { code: 'volumes_invalid', path } });
    if (!r.ok) expect(r.error.message).toContain(says);
  });

  it('accepts each type at its own maximum', () => {
    const gp3 = volumeTypeLimits('gp3');
    expect(gp3).toEqual({ sizeGib: 65_536, iops: 80_000, throughputMibps: 2_000 });
    const r = parseFleetVolumes(withVolume(0, { Size: gp3.sizeGib, Iops: gp3.iops, Throughput: 2_000 }));
    expect(r.ok).toBe(true);
  });

  it('refuses a volume id listed twice, naming the ids and where the repeat is', () => {
    const json = volumesJson();
    const first = json.Volumes[0]!;
    const third = json.Volumes[2]!;
    json.Volumes.push({ ...first }, { ...third }, { ...first });
    const r = parseFleetVolumes(json);
    expect(r).toMatchObject({ ok: false, error: { code: 'volumes_invalid', path: 'Volumes.10.VolumeId' } });
    if (!r.ok) expect(r.error.message).toContain(`(${String(first.VolumeId)}, ${String(third.VolumeId)})`);
  });
});

describe('checkFleetRequestSize: the caps of one request, counted before parsing', () => {
  const body = (extra: Record<string, unknown> = {}) => ({
    volumes: volumesJson(),
    metrics: [metricsJson()],
    ...extra,
  });
  const volumes = (n: number) => ({
    Volumes: Array.from({ length: n }, (_, i) => ({ VolumeId: `vol-${i}` })),
  });

  it('passes the real fixture', () => {
    expect(checkFleetRequestSize(body()).ok).toBe(true);
  });

  it.each([
    [
      'one volume more than the cap',
      { volumes: volumes(FLEET_REQUEST_LIMITS.maxVolumes + 1) },
      'too_many_volumes',
      'volumes.Volumes',
    ],
    [
      'one instance more than the cap, over two reservations',
      {
        instances: {
          Reservations: [
            { Instances: Array.from({ length: FLEET_REQUEST_LIMITS.maxInstances }, () => ({})) },
            { Instances: [{}] },
          ],
        },
      },
      'too_many_instances',
      'instances.Reservations',
    ],
    [
      'one point more than the cap, over two files',
      {
        metrics: [
          {
            MetricDataResults: [{ Values: new Array<number>(FLEET_REQUEST_LIMITS.maxMetricPoints).fill(1) }],
          },
          { MetricDataResults: [{ Values: [1] }] },
        ],
      },
      'too_many_metric_points',
      'metrics',
    ],
    [
      'a Sum of 1e308 operations',
      { metrics: [metricsJson(), { MetricDataResults: [{ Values: [1, 1e308] }] }] },
      'metrics_invalid',
      'metrics.1.MetricDataResults.0.Values.1',
    ],
    [
      'a negative Sum',
      { metrics: [{ MetricDataResults: [{ Values: [-1] }] }] },
      'metrics_invalid',
      'metrics.0.MetricDataResults.0.Values.0',
    ],
  ])('%s', (_what, extra, code, path) => {
    const r = checkFleetRequestSize(body(extra));
    expect(r).toMatchObject({ ok: false, error: { code, path } });
  });

  it('refuses no point the metrics reader accepts: a day-long Sum of 2e15 bytes (23 GB/s, under 100 GiB/s)', () => {
    const day = { MetricDataResults: [{ Values: [2e15] }] };
    expect(checkFleetRequestSize(body({ metrics: [day] })).ok).toBe(true);
  });

  it('refuses a point past 100 GiB/s over 455 days, with that ceiling in the message', () => {
    const r = checkFleetRequestSize(body({ metrics: [{ MetricDataResults: [{ Values: [5e18] }] }] }));
    expect(r).toMatchObject({ ok: false, error: { code: 'metrics_invalid' } });
    expect(!r.ok && r.error.message).toContain('expected 0 to 4.22e+18: 100 GiB/s over 455 days');
  });

  it('takes exactly the cap of volumes', () => {
    expect(checkFleetRequestSize(body({ volumes: volumes(FLEET_REQUEST_LIMITS.maxVolumes) })).ok).toBe(true);
  });
});
