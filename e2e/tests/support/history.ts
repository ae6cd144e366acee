import { DEGRADED, MAIN_NOISE, rescaleFio } from '../../../server/src/testing/noisy-fio.ts';
import { uniqueSuffix, type Seeder } from './api.ts';
import { fixtureBytes } from './fixtures.ts';

/**
 * A CI series as the gate sees it: six main-branch runs of one real fio-3.33 job with a few
 * percent of run-to-run noise, then a healthy feature branch and one on a degraded volume (30 %
 * fewer IOPS and MiB/s, 60 % higher latency). The runs are the real file rescaled the way a
 * slower volume changes it — the same builder the server's integration test uses.
 */

export const HISTORY_JOB = 'fio/generated/a_randrw_bsrange4k-16k_64k_mix33_nj4_qd16_grouped.json';
export { DEGRADED };

const VOLUME = {
  kind: 'ebs',
  instanceType: 'r6i.4xlarge',
  volumeType: 'gp3',
  volumeSizeGiB: 1000,
  volumeIops: 16000,
  volumeThroughputMiBps: 1000,
};

export type SeededSeries = { series: string; degradedId: string };

export async function seedHistorySeries(seeder: Seeder): Promise<SeededSeries> {
  const original = fixtureBytes(HISTORY_JOB);
  const series = `pg-data-${uniqueSuffix()}`;
  for (const [i, noise] of MAIN_NOISE.entries())
    await seeder.uploadRun(rescaleFio(original, noise), {
      ...VOLUME,
      series,
      branch: 'main',
      commit: `c0ffee${i}0`,
    });
  const feature = (branch: string, commit: string) => ({
    ...VOLUME,
    series,
    branch,
    baseBranch: 'main',
    commit,
  });
  await seeder.uploadRun(
    rescaleFio(original, { throughput: 1.01, latency: 0.99 }),
    feature('feature/kernel-6.8', 'feed0001'),
  );
  const degraded = await seeder.uploadRun(
    rescaleFio(original, DEGRADED),
    feature('feature/xfs-nobarrier', 'dead0001'),
  );
  return { series, degradedId: degraded.id };
}

/** The series page with one run's regression report open. */
export function historyRunPath(series: string, runId: string): string {
  return `/history/${encodeURIComponent(series)}?run=${encodeURIComponent(runId)}`;
}
