import type { PlanSession } from '../records/session.ts';

/**
 * A planning session as the planning page starts one (nothing observed, no instance, no candidate,
 * 25 % headroom, us-east-1, one node, today's gp3), with `overrides`. The tests of shared, server
 * and web build their sessions here, so a field added to PlanSessionSchema is added once. Not in
 * any of shared's package exports: tests import it by path.
 */
export function planSession(overrides: Partial<PlanSession> = {}): PlanSession {
  return {
    version: 1,
    observed: [],
    profileRef: null,
    instanceType: null,
    candidates: [],
    headroom: 0.25,
    region: 'us-east-1',
    rateOverrides: null,
    nodes: 1,
    gp3Generation: 'current',
    syncCommits: false,
    residency: 'unknown',
    datasetGiB: null,
    ...overrides,
  };
}

/** A peak typed in from CloudWatch (3,043 + 6,018 IOPS, 188 + 381 MiB/s), as `observed:cw`. */
export const CLOUDWATCH_PEAK: PlanSession['observed'][number] = {
  id: 'cw',
  label: 'prod peak',
  read: { iops: 3043, throughput: 188, throughputUnit: 'MiB/s' },
  write: { iops: 6018, throughput: 381, throughputUnit: 'MiB/s' },
};
