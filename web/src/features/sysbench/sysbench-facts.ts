import type { SysbenchFileio, SysbenchTestMode } from '@blockwise/shared/sysbench';
import { fmtInt, fmtMs, fmtNum, fmtRate, fmtSize } from '../../lib/format.ts';

/**
 * What a sysbench fileio run was, as label/value facts for its input card: how it ran (mode,
 * block size, threads, I/O mode, O_DIRECT, fsync) and what it measured. Every number is the
 * parser's (`parseSysbench`); this module only words and formats them.
 */

export type Fact = { label: string; value: string };

export const TEST_MODE_TEXT: Record<SysbenchTestMode, string> = {
  seqwr: 'sequential write',
  seqrewr: 'sequential rewrite',
  seqrd: 'sequential read',
  rndrd: 'random read',
  rndwr: 'random write',
  rndrw: 'random read/write',
};

const IO_MODE_TEXT = {
  sync: 'synchronous (one I/O in flight per thread)',
  async: 'asynchronous (Linux native AIO)',
  mmap: 'memory-mapped files',
} as const;

function fsyncText(run: SysbenchFileio): string {
  const { everyRequests, afterEachWrite, atEnd } = run.fsync;
  const parts: string[] = [];
  if (afterEachWrite) parts.push('fsync() after every write');
  else if (everyRequests !== null) parts.push(`fsync() every ${fmtInt(everyRequests)} requests`);
  else parts.push('no periodic fsync');
  if (atEnd) parts.push('one per file at the end');
  return parts.join('; ');
}

function directText(run: SysbenchFileio): string {
  const flags = run.openFlags;
  if (!flags) return 'not printed';
  if (flags.direct === true) return `O_DIRECT (page cache bypassed; printed “${flags.raw}”)`;
  if (flags.direct === false) return `buffered: the page cache was in the path (printed “${flags.raw}”)`;
  return `unknown (printed “${flags.raw}”)`;
}

export function sysbenchFacts(run: SysbenchFileio): Fact[] {
  const facts: Fact[] = [
    {
      label: 'sysbench',
      value: run.version
        ? `${run.version} (${run.format} output)`
        : `version not printed (${run.format} output)`,
    },
    {
      label: 'Mode',
      value: run.testMode ? `${run.testMode}: ${TEST_MODE_TEXT[run.testMode]}` : 'not printed',
    },
    { label: 'Block size', value: fmtSize(run.blockSizeBytes) },
    { label: 'Threads', value: run.threads === null ? 'not printed' : fmtInt(run.threads) },
    { label: 'I/O mode', value: run.ioMode ? IO_MODE_TEXT[run.ioMode] : 'not printed' },
    { label: 'Open flags', value: directText(run) },
    { label: 'fsync', value: fsyncText(run) },
  ];
  if (run.fileCount !== null && run.totalFileSizeBytes !== null)
    facts.push({
      label: 'Test files',
      value: `${fmtInt(run.fileCount)} files, ${fmtSize(run.totalFileSizeBytes)} in total`,
    });
  if (run.testMode === 'rndrw' && run.readWriteRatio !== null)
    facts.push({ label: 'Reads per write', value: fmtNum(run.readWriteRatio, 2) });
  facts.push(
    { label: 'Duration', value: `${fmtNum(run.totalTimeSec, 2)} s` },
    {
      label: 'Operations per second',
      value: `${fmtNum(run.reads.perSec, 1)} reads/s, ${fmtNum(run.writes.perSec, 1)} writes/s, ${fmtNum(run.fsyncs.perSec, 1)} fsyncs/s`,
    },
    {
      label: 'Throughput',
      value: `read ${fmtRate(run.reads.bytesPerSec)}, written ${fmtRate(run.writes.bytesPerSec)}`,
    },
  );
  const lat = run.latency;
  const latency = [
    lat.avgMs !== null ? `avg ${fmtMs(lat.avgMs)}` : null,
    lat.percentile ? `p${fmtNum(lat.percentile.rank, 2)} ${fmtMs(lat.percentile.valueMs)}` : null,
    lat.maxMs !== null ? `max ${fmtMs(lat.maxMs)}` : null,
  ].filter((x): x is string => x !== null);
  if (latency.length > 0)
    facts.push({ label: 'Latency (all requests together)', value: latency.join(' · ') });
  return facts;
}
