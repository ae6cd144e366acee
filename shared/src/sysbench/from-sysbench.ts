import { fail, ok, type Result, type Warning } from '../problem.ts';
import type {
  Access,
  BenchmarkFacts,
  DirectionLoad,
  IoProfile,
  LatencySummary,
} from '../profile/io-profile.schema.ts';
import { averageBlockSize, bytesPerSec as asBytesPerSec, formatDecimal, iops, KiB } from '../units.ts';
import type { SysbenchFileio } from './sysbench-result.schema.ts';

/**
 * A sysbench fileio run as a planning profile (source `sysbench`).
 *
 * Latency: sysbench measures one distribution over ALL its events — reads, writes and (1.0) fsync
 * calls alike — and prints min/avg/max and one percentile (95th by default; 0.4 calls it "approx.").
 * So the same summary is attached to each direction that did I/O, marked `approximate`, with a
 * warning. With `--histogram=on` (1.0) the bins give p50/p90/p99/p99.9 as well (nearest rank over
 * the bins, so within one bucket, ~1.5%, of the true value). In `async` mode sysbench times the
 * submission, in `mmap` mode a memory copy: neither is the device's latency, so none is reported.
 */
export type FromSysbenchOptions = { label?: string | null };

/** Nearest-rank percentile over histogram bins: the smallest bin value with ≥ p% of events at or below it. */
export function histogramPercentile(
  bins: readonly { valueMs: number; count: number }[],
  p: number,
): number | null {
  const sorted = [...bins].filter((b) => b.count > 0).sort((a, b) => a.valueMs - b.valueMs);
  const total = sorted.reduce((sum, b) => sum + b.count, 0);
  if (total === 0) return null;
  const rank = Math.max(1, Math.ceil((p / 100) * total));
  let seen = 0;
  for (const b of sorted) {
    seen += b.count;
    if (seen >= rank) return b.valueMs;
  }
  return sorted[sorted.length - 1]!.valueMs;
}

const HISTOGRAM_PERCENTILES = [50, 90, 99, 99.9];

function latencyOf(run: SysbenchFileio): LatencySummary | null {
  if (run.ioMode === 'async' || run.ioMode === 'mmap') return null;
  const percentiles: Record<string, number> = {};
  if (run.histogram) {
    for (const p of HISTOGRAM_PERCENTILES) {
      const v = histogramPercentile(run.histogram, p);
      if (v !== null) percentiles[String(p)] = v;
    }
  }
  // sysbench's own percentile line wins for its rank (it is what the user saw). The maximum is not
  // a percentile key: one stray slow request would read as a latency cliff (plan/latency.ts).
  if (run.latency.percentile)
    percentiles[String(run.latency.percentile.rank)] = run.latency.percentile.valueMs;
  if (Object.keys(percentiles).length === 0 && run.latency.avgMs === null) return null;
  return { percentiles, approximate: true, meanMs: run.latency.avgMs };
}

function loadOf(perSec: number, bytesPerSec: number, latency: LatencySummary | null): DirectionLoad {
  return {
    iops: perSec,
    bytesPerSec,
    // A damaged report can say reads/s > 0 with 0 MiB/s: no block size then, rather than 0 bytes.
    blockSizeBytes: averageBlockSize(asBytesPerSec(bytesPerSec), iops(perSec)),
    latency: perSec > 0 ? latency : null,
  };
}

/**
 * Did the workload sync? Periodic fsync (`--file-fsync-freq`, sysbench's default is every 100
 * requests), fsync after each write, or O_SYNC/O_DSYNC opens. The one fsync per file at the end of
 * the test (`--file-fsync-end`, on by default: "fsyncs/s 25.20" with `--file-fsync-freq=0` is
 * 128 files ÷ 5 s) is bookkeeping, not workload — so fsyncs/s > 0 alone decides only when the
 * header lines are missing.
 */
function syncsOf(run: SysbenchFileio): boolean {
  const headerKnown =
    run.fsync.atEnd !== null || run.fsync.everyRequests !== null || run.fsync.afterEachWrite;
  // A read-only test prints "Periodic FSYNC enabled" too, but never calls it (fsyncs/s 0.00).
  if ((run.fsync.everyRequests !== null || run.fsync.afterEachWrite) && run.fsyncs.perSec > 0) return true;
  if (run.openFlags?.syncWrites === true && run.writes.perSec > 0) return true;
  return headerKnown ? false : run.fsyncs.perSec > 0;
}

const ENGINE_BY_MODE = { sync: 'psync', async: 'libaio', mmap: 'mmap' } as const;

function factsOf(run: SysbenchFileio): BenchmarkFacts {
  const bs = run.blockSizeBytes;
  return {
    tool: 'sysbench',
    version: run.version,
    // One --file-block-size for both directions.
    configuredBlockSize: { read: bs, write: bs },
    // sysbench always prints its block size and defaults to 16 KiB (a database page), not fio's 4 KiB trap.
    blockSizeDefaulted: false,
    direct: run.ioMode === 'mmap' ? false : (run.openFlags?.direct ?? null),
    rw: run.testMode,
    sequential: run.testMode === null ? null : run.testMode.startsWith('seq'),
    // fio's names for the same system calls: pread/pwrite (psync), Linux AIO (libaio), mmap.
    ioengine: run.ioMode === null ? null : ENGINE_BY_MODE[run.ioMode],
    // Synchronous threads have one I/O in flight each; async's per-thread backlog is not printed.
    outstandingIos: run.ioMode === 'async' ? null : run.threads,
    timeBased: run.timeLimited,
    rampTimeSec: null,
    requestedRuntimeSec: null,
    jobEntries: 1,
    groups: 1,
    jobErrors: [],
    syncs: syncsOf(run),
  };
}

const n2 = (v: number) => formatDecimal(v, 2);

export function profileFromSysbench(
  run: SysbenchFileio,
  options: FromSysbenchOptions = {},
): Result<IoProfile> {
  if (!(run.reads.perSec > 0) && !(run.writes.perSec > 0)) {
    return fail(
      'no_io',
      'the sysbench run did no reads and no writes: there is nothing to plan with',
      'reads/s',
    );
  }
  const warnings: Warning[] = [...run.warnings];
  const latency = latencyOf(run);
  const facts = factsOf(run);
  if (run.ioMode === 'async' || run.ioMode === 'mmap') {
    warnings.push({
      code: 'sysbench_latency_not_io',
      message:
        run.ioMode === 'async'
          ? 'In async mode sysbench times the submission of each request, not its completion: its latency figures are not the device latency and are left out.'
          : 'In mmap mode sysbench times memory copies into mapped files, not device I/O: its latency figures are left out.',
      subject: 'latency',
    });
  } else if (latency && run.reads.perSec > 0 && run.writes.perSec > 0) {
    warnings.push({
      code: 'sysbench_latency_combined',
      message: `sysbench reports one latency distribution over all requests — reads, writes${run.fsyncs.perSec > 0 ? ' and fsync calls' : ''} together — so read and write latency show the same approximate figures.`,
      subject: 'latency',
    });
  }
  if (facts.direct === false) {
    warnings.push({
      code: 'buffered_io',
      message: `sysbench ran without O_DIRECT (--file-extra-flags=direct): the page cache sat between sysbench and the device, so reads may come from RAM${run.totalFileSizeBytes !== null ? ` (the test files total ${Math.round(run.totalFileSizeBytes / KiB / 1024).toLocaleString('en-US')} MiB)` : ''} and writes return before reaching the volume.`,
      subject: 'direct',
    });
  }
  if (run.fsync.everyRequests !== null && run.fileCount !== null && run.fsyncs.perSec > 0) {
    warnings.push({
      code: 'sysbench_periodic_fsync',
      message: `sysbench called fsync() on all ${run.fileCount} files every ${run.fsync.everyRequests} requests (${n2(run.fsyncs.perSec)} fsyncs/s; --file-fsync-freq=100 is its default). They are not counted as IOPS here but slow reads and writes; use --file-fsync-freq=0 unless the application syncs that often.`,
      subject: 'syncs',
    });
  }
  const label =
    options.label !== undefined
      ? options.label
      : `sysbench ${run.testMode ?? 'fileio'}${run.blockSizeBytes !== null ? ` ${run.blockSizeBytes / KiB} KiB` : ''}${run.threads !== null ? `, ${run.threads} thread${run.threads === 1 ? '' : 's'}` : ''}`;
  return ok({
    source: 'sysbench',
    label,
    read: loadOf(run.reads.perSec, run.reads.bytesPerSec, latency),
    write: loadOf(run.writes.perSec, run.writes.bytesPerSec, latency),
    durationSec: run.totalTimeSec,
    benchmark: facts,
    warnings,
    ...(run.testMode ? { access: accessOfTestMode(run.testMode) } : {}),
  });
}

/** sysbench fileio's modes: seq* are sequential (seqwr, seqrewr, seqrd), rnd* random. */
function accessOfTestMode(mode: string): Access {
  const pattern = mode.startsWith('seq') ? 'sequential' : 'random';
  return { read: pattern, write: pattern, origin: 'sysbench' };
}
