import type { InstanceSpec } from '../aws/instance-spec.ts';
import { findInstanceType } from '../aws/instances.ts';
import type { Access, BenchmarkFacts, IoProfile } from '../profile/io-profile.schema.ts';
import { averageBlockSize, iops as asIops, mibps as asMiBps, mibpsToBytesPerSec, MiB } from '../units.ts';

/**
 * Builds a profile from published numbers (published benchmarks such as [guide] and [piops-2012] in docs/domain.md report MiB/s and IOPS, not fio files).
 * Test-data builder with overrides; real fio files go through parseFio instead.
 */
export function publishedProfile(p: {
  readMiBps: number;
  readIops: number;
  writeMiBps: number;
  writeIops: number;
  durationSec?: number | null;
  benchmark?: Partial<BenchmarkFacts> | null;
  latency?: { read?: Record<string, number>; write?: Record<string, number> };
  /** `random`/`sequential`: both directions, as the user would state it; absent = unknown (random assumed). */
  access?: Access['read'] | Access;
}): IoProfile {
  const dir = (mibps: number, iops: number, lat?: Record<string, number>) => ({
    iops,
    bytesPerSec: mibps * MiB,
    blockSizeBytes: averageBlockSize(mibpsToBytesPerSec(asMiBps(mibps)), asIops(iops)),
    latency: lat ? { percentiles: lat, approximate: false, meanMs: null } : null,
  });
  return {
    source: p.benchmark === null ? 'observed' : 'fio',
    label: null,
    read: dir(p.readMiBps, p.readIops, p.latency?.read),
    write: dir(p.writeMiBps, p.writeIops, p.latency?.write),
    durationSec: p.durationSec ?? null,
    benchmark:
      p.benchmark === null
        ? null
        : {
            tool: 'fio',
            version: 'fio-3.x',
            configuredBlockSize: { read: null, write: null },
            blockSizeDefaulted: false,
            direct: true,
            rw: 'randrw',
            sequential: false,
            ioengine: 'libaio',
            outstandingIos: 64 * 16,
            timeBased: true,
            rampTimeSec: null,
            requestedRuntimeSec: p.durationSec ?? null,
            jobEntries: 1,
            groups: 1,
            jobErrors: [],
            syncs: false,
            ...p.benchmark,
          },
    warnings: [],
    ...(p.access === undefined
      ? {}
      : {
          access:
            typeof p.access === 'string'
              ? { read: p.access, write: p.access, origin: 'stated' as const }
              : p.access,
        }),
  };
}

/** A catalog instance type for tests; throws when the catalog lacks it (a test bug, not a case). */
export function catalogInstance(name: string): InstanceSpec {
  const spec = findInstanceType(name);
  if (!spec) throw new Error(`catalog lacks ${name}`);
  return spec;
}
