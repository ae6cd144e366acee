import { MAX_UPLOAD_BYTES } from '@blockwise/shared/api';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { createFleetPlan, fleetBodyProblem } from './fleet-api.ts';

afterEach(() => vi.unstubAllGlobals());

const POINTS = 14 * 288; // 14 days of 5-minute points, as `blockwise fleet query` asks for

/** get-metric-data pages for `volumes` volumes × 4 metrics, built in memory (no huge fixture). */
function metricPages(volumes: number): unknown[] {
  const start = Date.parse('2026-11-10T00:00:00Z');
  const timestamps = Array.from({ length: POINTS }, (_, i) =>
    new Date(start + i * 300_000).toISOString().replace('.000Z', '+00:00'),
  );
  const values = Array.from({ length: POINTS }, (_, i) => 1000 + (i % 97) * 13.25);
  return Array.from({ length: volumes }, (_, v) => ({
    MetricDataResults: ['VolumeReadOps', 'VolumeWriteOps', 'VolumeReadBytes', 'VolumeWriteBytes'].map(
      (metric, m) => ({
        Id: `m${v}_${m}`,
        Label: metric,
        Timestamps: timestamps,
        Values: values,
        StatusCode: 'Complete',
      }),
    ),
  }));
}

const body = (volumes: number) => ({
  volumes: { Volumes: [] },
  metrics: metricPages(volumes),
  headroom: 0.25,
  statistic: 'max' as const,
  region: 'us-east-1',
});

describe('Save & share of a fleet over the server’s request limit', () => {
  it('is refused before the upload, pointing to the CLI, instead of a 413', async () => {
    const fetch = vi.fn();
    vi.stubGlobal('fetch', fetch);
    const large = body(100);
    expect(new TextEncoder().encode(JSON.stringify(large)).length).toBeGreaterThan(MAX_UPLOAD_BYTES);
    const refused = createFleetPlan(large);
    await expect(refused).rejects.toMatchObject({ code: 'too_large' });
    await expect(refused).rejects.toThrow(/at most 50 MiB.*blockwise fleet plan .*--format markdown/);
    expect(fetch).not.toHaveBeenCalled();
  });

  it('a fleet under the limit is posted', async () => {
    const fetch = vi.fn(async () =>
      Response.json({ error: { code: 'x', message: 'stop here' } }, { status: 400 }),
    );
    vi.stubGlobal('fetch', fetch);
    await expect(createFleetPlan(body(2))).rejects.toThrow('stop here');
    expect(fetch).toHaveBeenCalledTimes(1);
  });

  it.each([
    [MAX_UPLOAD_BYTES, null],
    [MAX_UPLOAD_BYTES + 1, /51 MiB request/],
  ])('%d bytes → %s', (bytes, message) => {
    const problem = fleetBodyProblem(bytes);
    if (message === null) expect(problem).toBeNull();
    else expect(problem).toMatch(message);
  });
});
