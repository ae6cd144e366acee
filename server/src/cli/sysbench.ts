import { type IoProfile } from '@blockwise/shared/profile';
import { type SysbenchFileio } from '@blockwise/shared/sysbench';
import { formatBytes } from '@blockwise/shared/units';
import { EXIT, UsageError, parseFlags, type Command } from './io.ts';
import { InputError, loadSysbench, reportInputError } from './metrics-input.ts';

const usage = `Usage: blockwise sysbench FILE [--json]

  Reads the text output of \`sysbench fileio ... run\` (sysbench 1.0, or the 0.4/0.5 format) and
  prints what it measured and the I/O profile Blockwise plans with. sysbench reports one latency
  distribution for all requests (reads, writes and fsyncs together) and only one percentile (95th
  unless --percentile was given); --histogram=on output adds p50/p90/p99/p99.9.`;

const n = (v: number, digits = 2) =>
  v.toLocaleString('en-US', { minimumFractionDigits: digits, maximumFractionDigits: digits });
const mib = (bytesPerSec: number) => `${n(bytesPerSec / 1048576)} MiB/s`;

function render(run: SysbenchFileio, profile: IoProfile): string {
  const flags = run.openFlags;
  const head = [
    `sysbench ${run.version ?? '(version not printed)'} fileio ${run.testMode ?? ''}`.trim(),
    run.blockSizeBytes !== null ? formatBytes(run.blockSizeBytes) : null,
    run.threads !== null ? `${run.threads} thread${run.threads === 1 ? '' : 's'}` : null,
    run.ioMode !== null ? `${run.ioMode} I/O` : null,
    flags ? `O_DIRECT ${flags.direct === null ? 'unknown' : flags.direct ? 'yes' : 'no'}` : null,
    `${n(run.totalTimeSec)} s${run.timeLimited === true ? ' (time-limited)' : run.timeLimited === false ? ' (request-limited)' : ''}`,
  ].filter((x) => x !== null);
  const fsyncMode = run.fsync.afterEachWrite
    ? 'after each write'
    : run.fsync.everyRequests !== null
      ? `every ${run.fsync.everyRequests} requests`
      : run.fsync.atEnd
        ? 'only at the end'
        : 'none';
  const l = run.latency;
  const lat = [
    l.minMs !== null ? `min ${n(l.minMs)}` : null,
    l.avgMs !== null ? `avg ${n(l.avgMs)}` : null,
    l.percentile ? `p${l.percentile.rank} ${n(l.percentile.valueMs)}` : null,
    l.maxMs !== null ? `max ${n(l.maxMs)}` : null,
  ].filter((x) => x !== null);
  const dir = (name: string, d: IoProfile['read']) =>
    d.iops > 0
      ? `${name} ${Math.round(d.iops).toLocaleString('en-US')} IOPS × ${formatBytes(d.blockSizeBytes ?? 0)} = ${mib(d.bytesPerSec)}`
      : `${name} none`;
  const out = [
    head.join(', '),
    `  reads   ${n(run.reads.perSec).padStart(12)} /s   ${mib(run.reads.bytesPerSec)}`,
    `  writes  ${n(run.writes.perSec).padStart(12)} /s   ${mib(run.writes.bytesPerSec)}`,
    `  fsyncs  ${n(run.fsyncs.perSec).padStart(12)} /s   (fsync ${fsyncMode})`,
    `  latency, all requests together (ms): ${lat.join('  ') || 'not printed'}`,
    '',
    `Profile: ${dir('read', profile.read)}; ${dir('write', profile.write)}${profile.benchmark?.syncs ? '; syncs' : ''}`,
  ];
  const latency = profile.read.latency ?? profile.write.latency;
  if (latency) {
    out.push(
      `  latency percentiles (approximate): ${Object.entries(latency.percentiles)
        .sort(([a], [b]) => Number(a) - Number(b))
        .map(([k, v]) => `p${k} ${n(v, 3)} ms`)
        .join(', ')}`,
    );
  }
  if (profile.warnings.length > 0)
    out.push('', 'Warnings:', ...profile.warnings.map((w) => `  [${w.code}] ${w.message}`));
  return `${out.join('\n')}\n`;
}

export const sysbenchCommand: Command = {
  summary: 'What a `sysbench fileio` run measured, as the I/O profile Blockwise plans with.',
  usage,
  async run(argv, io) {
    const { values, positionals } = parseFlags(argv, { json: { type: 'boolean' } });
    if (positionals.length !== 1) throw new UsageError('give exactly one FILE');
    const file = positionals[0]!;
    const json = values.json === true;
    try {
      const { run, profile } = await loadSysbench(file, 'FILE', io);
      io.stdout(json ? `${JSON.stringify({ run, profile })}\n` : render(run, profile));
      return EXIT.ok;
    } catch (error) {
      if (error instanceof InputError) return reportInputError('sysbench', error, io, json);
      throw error;
    }
  },
};
