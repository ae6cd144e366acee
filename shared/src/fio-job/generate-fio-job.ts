import { fail, ok, type Problem, type Result } from '../problem.ts';
import type { DirectionLoad, IoProfile } from '../profile/io-profile.schema.ts';
import { formatDecimal, formatInt, KiB, MiB } from '../units.ts';

/**
 * From any I/O profile (typed in, imported from CloudWatch/Grafana, measured by fio or sysbench)
 * to the fio job that reproduces it on a candidate volume, the command that runs it, and the
 * `blockwise upload` command that sends the result back with the labels the planner needs.
 *
 * Every choice is written into the job file as a comment above its option (fio treats lines
 * starting with ';' or '#' as comments), and returned as `explanation` for the UI and the CLI.
 *
 * Note: options in a job file win over the same options on fio's command line (fio reads the
 * command line first and lets the job file override it), so "fio --runtime=5 job.fio" still runs
 * for the job file's runtime. Shorter test runs are generated with `runtimeSec`, not overridden.
 */

export type FioEngine = 'libaio' | 'io_uring';

export type FioJobOptions = {
  /** Linux native AIO (default) or io_uring (kernel ≥ 5.1; fewer system calls per I/O). */
  engine?: FioEngine;
  /** Seconds of measurement after the ramp (default 1,800: outlasts 30-minute burst windows). */
  runtimeSec?: number;
  /** Seconds run before measuring starts (default 60). */
  rampTimeSec?: number;
  /** The device or file to test. Omitted: a CHANGE_ME placeholder fio refuses to run with. */
  target?: string | null;
  /** For a file target: how large the test file is (bytes). A device is used whole. */
  sizeBytes?: number | null;
  /** Per-I/O latency assumed for Little's law (ms). Default 1: EBS SSD volumes are ~0.5–1 ms for small I/O. */
  assumedLatencyMs?: number;
  /** At most this many fio jobs (threads/processes); roughly the instance's vCPUs. Default 4. */
  maxJobs?: number;
  /** Pace fio at the profile's IOPS with rate_iops (default), or let it run as fast as its queue allows. */
  pace?: boolean;
  /** Labels for the upload command (kind, instanceType, volumeType, volumeSizeGiB, volumeIops, …). */
  labels?: Record<string, string>;
  /** Series name for the upload command (`--series`), e.g. to compare volumes over time. */
  series?: string | null;
  /** Where fio writes its JSON (default result.json) and the job file's name (default blockwise.fio). */
  resultFile?: string;
  jobFileName?: string;
  /** How the upload command names the server (default $BLOCKWISE_URL). */
  server?: string;
  /**
   * Where the upload command's CLI comes from: `path`, a `blockwise` already installed (the CLI's
   * own output); `server`, fetched from the server first (`curl -fsSO <server>/cli/blockwise.mjs
   * && node blockwise.mjs upload …`), for someone who only has the web app and Node. Default `path`.
   */
  cliFrom?: 'path' | 'server';
};

export type BlockSplit = { bytes: number; percent: number };

export type FioJobSettings = {
  rw: 'randrw' | 'randread' | 'randwrite' | 'rw' | 'read' | 'write';
  rwmixread: number | null;
  blockSizes: { read: BlockSplit[] | null; write: BlockSplit[] | null };
  /** The block-size line as written: `bs=16k,64k` or `bssplit=8k/40:12k/60,64k/100`. */
  blockSizeOption: string;
  ioengine: FioEngine;
  iodepth: number;
  numjobs: number;
  /** rate_iops per job (fio applies it to each job), per direction; null when not pacing. */
  rateIopsPerJob: { read: number | null; write: number | null } | null;
  runtimeSec: number;
  rampTimeSec: number;
};

export type GeneratedFioJob = {
  jobFile: string;
  commandLine: string;
  uploadCommand: string;
  explanation: string[];
  settings: FioJobSettings;
};

export const DEFAULT_FIO_RUNTIME_SEC = 1800;
export const DEFAULT_FIO_RAMP_SEC = 60;
export const DEFAULT_ASSUMED_LATENCY_MS = 1;
export const DEFAULT_MAX_JOBS = 4;
/** fio's libaio/io_uring comfortably sustain this many IOPS per job thread on one vCPU. */
const IOPS_PER_JOB = 25_000;
const MAX_IODEPTH_PER_JOB = 64;
/** When a direction's size is unknown (no throughput in the profile): a database page. */
const UNKNOWN_BLOCK_BYTES = 16 * KiB;
/** The labels the planner reads from an uploaded run, in the order `blockwise upload` lists them. */
const PLANNER_LABELS = [
  'kind',
  'instanceType',
  'volumeType',
  'volumeSizeGiB',
  'volumeIops',
  'volumeThroughputMiBps',
];

const n0 = formatInt;
const n1 = (v: number) => formatDecimal(v, 1);

/** A size as fio reads it (kb_base=1024 by default: "k" = KiB): 16384 → "16k", 1536 → "1536". */
export function fioSize(bytes: number): string {
  if (bytes % MiB === 0) return `${bytes / MiB}m`;
  if (bytes % KiB === 0) return `${bytes / KiB}k`;
  return String(bytes);
}

const sizeText = (bytes: number) => (bytes % KiB === 0 ? `${bytes / KiB} KiB` : `${bytes} B`);

/**
 * An average I/O size as fio block sizes. Direct I/O needs sector-aligned sizes (512 B; 4 KiB is
 * safe everywhere), so an average within 0.5% of a multiple of 4 KiB (512 B below 4 KiB) is that
 * size alone. Any other average is mixed from a power of two and its double, weighted so the mean
 * is the average: 10 KiB → 8k/75:16k/25; 63.3 KiB → 32k/2:64k/98.
 *
 * Why not the two nearest 4 KiB multiples (8k/50:12k/50)? fio rounds every size it picks down to
 * a multiple of the SMALLEST size in the list (io_u.c get_next_buflen, unless bs_unaligned=1,
 * which direct I/O cannot use): 12k with 8k in the list becomes 8k, and the mix silently turns
 * into 100% 8k. Measured with fio 3.33: bssplit=60k/18:64k/82 issued only 60 KiB reads.
 */
export function splitBlockSize(averageBytes: number): BlockSplit[] {
  const unit = averageBytes >= 4 * KiB ? 4 * KiB : 512;
  const aligned = Math.max(unit, Math.round(averageBytes / unit) * unit);
  if (averageBytes <= 512 || Math.abs(aligned - averageBytes) <= 0.005 * averageBytes) {
    return [{ bytes: aligned, percent: 100 }];
  }
  let lo = 512;
  while (lo * 2 <= averageBytes) lo *= 2;
  const hiPercent = Math.min(99, Math.max(1, Math.round((100 * (averageBytes - lo)) / lo)));
  return [
    { bytes: lo, percent: 100 - hiPercent },
    { bytes: lo * 2, percent: hiPercent },
  ];
}

const splitText = (split: BlockSplit[]) => split.map((s) => `${fioSize(s.bytes)}/${s.percent}`).join(':');
const meanOf = (split: BlockSplit[]) => split.reduce((sum, s) => sum + (s.bytes * s.percent) / 100, 0);

/** Shell-safe word: as is when it is plain, else single-quoted. */
function shellWord(text: string): string {
  if (/^[A-Za-z0-9_./:=@%+,-]+$/.test(text) || /^\$[A-Z_][A-Z0-9_]*$/.test(text)) return text;
  return `'${text.replace(/'/g, `'\\''`)}'`;
}

function blockSizeOf(load: DirectionLoad): { bytes: number; known: boolean } {
  return load.blockSizeBytes !== null && load.blockSizeBytes > 0
    ? { bytes: load.blockSizeBytes, known: true }
    : { bytes: UNKNOWN_BLOCK_BYTES, known: false };
}

/**
 * Runs the named steps below in order: check the load and the options (a refusal stops at once),
 * decide the access pattern, block sizes and queue, write the job file section by section, then
 * the commands that run it and upload its result.
 */
export function generateFioJob(profile: IoProfile, options: FioJobOptions = {}): Result<GeneratedFioJob> {
  const totalIops = profile.read.iops + profile.write.iops;
  if (!(totalIops > 0)) return fail('no_io', 'the profile has no read or write IOPS to reproduce', 'iops');
  const read = readJobOptions(options);
  if (!read.ok) return read;
  const o = read.value;
  const pattern = chooseAccessPattern(profile);
  const blocks = chooseBlockSizes(profile);
  const queue = sizeQueue(profile, o);
  const target = fioTarget(options.target);
  const body = joinParts([
    writeHeader(profile, blocks),
    writeTarget(target, options.sizeBytes ?? null),
    writeAccessOptions(o.engine, pattern, profile),
    writeBlockSize(blocks),
    writeQueueOptions(queue, totalIops, o),
    writeRunOptions(o),
    writeSyncHint(profile),
    linesPart('', `[${jobNameOf(profile)}]`, ''),
  ]);
  const resultFile = options.resultFile ?? 'result.json';
  const jobFileName = options.jobFileName ?? 'blockwise.fio';
  const upload = writeUploadCommand(options, resultFile);
  const explanation = [...body.explanation, ...upload.explanation];
  if (target === null)
    explanation.push('filename: set the device or file before running (fio stops on CHANGE_ME).');
  return ok({
    jobFile: body.lines.join('\n'),
    commandLine: ['fio', '--output-format=json+', `--output=${resultFile}`, jobFileName]
      .map(shellWord)
      .join(' '),
    uploadCommand: upload.command,
    explanation,
    settings: {
      ...pattern,
      blockSizes: { read: blocks.read.split, write: blocks.write.split },
      blockSizeOption: blocks.option,
      ioengine: o.engine,
      iodepth: queue.iodepth,
      numjobs: queue.numjobs,
      rateIopsPerJob: queue.rateIopsPerJob,
      runtimeSec: o.runtimeSec,
      rampTimeSec: o.rampTimeSec,
    },
  });
}

/** The options with their defaults filled in: what every later step reads. */
type ResolvedJobOptions = {
  engine: FioEngine;
  runtimeSec: number;
  rampTimeSec: number;
  latencyMs: number;
  maxJobs: number;
  pace: boolean;
};

/**
 * Fills in the defaults and refuses values fio could not run with (or Little's law cannot use), as
 * a Problem naming the option: the options come from a CLI flag or a web form.
 */
export function readJobOptions(options: FioJobOptions): Result<ResolvedJobOptions> {
  const resolved: ResolvedJobOptions = {
    engine: options.engine ?? 'libaio',
    runtimeSec: options.runtimeSec ?? DEFAULT_FIO_RUNTIME_SEC,
    rampTimeSec: options.rampTimeSec ?? DEFAULT_FIO_RAMP_SEC,
    latencyMs: options.assumedLatencyMs ?? DEFAULT_ASSUMED_LATENCY_MS,
    maxJobs: Math.max(1, Math.floor(options.maxJobs ?? DEFAULT_MAX_JOBS)),
    pace: options.pace ?? true,
  };
  const refused = checkJobOptions(resolved, options.sizeBytes ?? null);
  return refused ?? ok(resolved);
}

/** The first option out of range, as the Problem to show; null when all are usable. NaN is out of every range. */
function checkJobOptions(
  o: ResolvedJobOptions,
  sizeBytes: number | null,
): { ok: false; error: Problem } | null {
  if (!(o.runtimeSec >= 1))
    return fail('bad_option', `runtime must be at least 1 s, got ${o.runtimeSec}`, 'runtime');
  if (!(o.rampTimeSec >= 0))
    return fail('bad_option', `ramp time cannot be negative, got ${o.rampTimeSec}`, 'rampTime');
  if (!(o.latencyMs > 0))
    return fail('bad_option', `assumed latency must be above 0 ms, got ${o.latencyMs}`, 'assumedLatencyMs');
  if (sizeBytes !== null && !(sizeBytes >= 4 * KiB))
    return fail('bad_option', `size must be at least 4 KiB, got ${sizeBytes} bytes`, 'size');
  return null;
}

const RW_BY_DIRECTIONS = {
  both: { random: 'randrw', sequential: 'rw' },
  read: { random: 'randread', sequential: 'read' },
  write: { random: 'randwrite', sequential: 'write' },
} as const;

/** The directions a profile has I/O in: a direction without IOPS gets no block size, rate or share. */
function directionsOf(profile: IoProfile): 'both' | 'read' | 'write' {
  if (profile.read.iops > 0) return profile.write.iops > 0 ? 'both' : 'read';
  return 'write';
}

/**
 * fio's rw (and rwmixread for a mix): random unless the profile is a measured sequential benchmark
 * (random is the conservative choice: EBS merges sequential I/O), and the read share by count,
 * kept within 1–99 so fio never drops a direction the profile has.
 */
export function chooseAccessPattern(profile: IoProfile): Pick<FioJobSettings, 'rw' | 'rwmixread'> {
  const directions = directionsOf(profile);
  const order = profile.benchmark?.sequential === true ? 'sequential' : 'random';
  const total = profile.read.iops + profile.write.iops;
  return {
    rw: RW_BY_DIRECTIONS[directions][order],
    rwmixread:
      directions === 'both' ? Math.min(99, Math.max(1, Math.round((100 * profile.read.iops) / total))) : null,
  };
}

type DirectionBlocks = { block: { bytes: number; known: boolean }; split: BlockSplit[] | null };
type BlockSizes = { read: DirectionBlocks; write: DirectionBlocks; option: string };

/**
 * Each direction's average I/O size as fio sizes (splitBlockSize), and the one line that sets them:
 * `bs=` when every direction is a single size, `bssplit=` otherwise; read sizes before write sizes.
 */
export function chooseBlockSizes(profile: IoProfile): BlockSizes {
  const direction = (load: DirectionLoad): DirectionBlocks => {
    const block = blockSizeOf(load);
    return { block, split: load.iops > 0 ? splitBlockSize(block.bytes) : null };
  };
  const read = direction(profile.read);
  const write = direction(profile.write);
  const splits = [read.split, write.split].filter((s) => s !== null);
  const option = splits.every((s) => s.length === 1)
    ? `bs=${splits.map((s) => fioSize(s[0]!.bytes)).join(',')}`
    : `bssplit=${splits.map(splitText).join(',')}`;
  return { read, write, option };
}

type QueueSize = {
  /** I/Os in flight Little's law asks for at the assumed latency (not rounded). */
  neededInFlight: number;
  /** I/Os fio keeps in flight over all jobs. */
  outstanding: number;
  numjobs: number;
  iodepth: number;
  rateIopsPerJob: FioJobSettings['rateIopsPerJob'];
};

/**
 * Little's law: I/Os in flight = IOPS × time each I/O takes. Paced runs get twice that, so a
 * latency spike does not starve the rate; unpaced runs get exactly that, so at the assumed latency
 * they reach the target (and more if the volume is faster). Spread over as few jobs as keep each
 * queue ≤ 64 and each thread ≤ 25,000 IOPS, at most maxJobs; a paced rate is per job.
 */
export function sizeQueue(
  profile: IoProfile,
  o: Pick<ResolvedJobOptions, 'latencyMs' | 'maxJobs' | 'pace'>,
): QueueSize {
  const totalIops = profile.read.iops + profile.write.iops;
  const neededInFlight = totalIops * (o.latencyMs / 1000);
  const outstanding = Math.max(1, Math.ceil(neededInFlight * (o.pace ? 2 : 1)));
  const numjobs = Math.min(
    o.maxJobs,
    Math.max(1, Math.ceil(outstanding / MAX_IODEPTH_PER_JOB), Math.ceil(totalIops / IOPS_PER_JOB)),
  );
  const perJob = (iops: number) => (iops > 0 ? Math.ceil(iops / numjobs) : null);
  return {
    neededInFlight,
    outstanding,
    numjobs,
    iodepth: Math.max(1, Math.ceil(outstanding / numjobs)),
    rateIopsPerJob: o.pace ? { read: perJob(profile.read.iops), write: perJob(profile.write.iops) } : null,
  };
}

/** A piece of the job file and the sentences it adds to the explanation, in order. */
type JobPart = { lines: string[]; explanation: string[] };

/** One option line with the comment that justifies it; the same sentence goes into the explanation. */
const optionPart = (line: string, why: string): JobPart => ({
  lines: [`; ${line.split('=')[0]}: ${why}`, line],
  explanation: [`${line}: ${why}`],
});
/** Lines that explain nothing on their own (headers, blank lines, commented-out hints). */
const linesPart = (...lines: string[]): JobPart => ({ lines, explanation: [] });
const joinParts = (parts: readonly JobPart[]): JobPart => ({
  lines: parts.flatMap((p) => p.lines),
  explanation: parts.flatMap((p) => p.explanation),
});

/** The header: what this job reproduces, and the one warning that matters most (the target is overwritten). */
function writeHeader(profile: IoProfile, blocks: BlockSizes): JobPart {
  const dirLine = (name: string, load: DirectionLoad, block: { bytes: number; known: boolean }) =>
    load.iops > 0
      ? `${name} ${n0(load.iops)} IOPS × ${block.known ? `${n1(block.bytes / KiB)} KiB` : 'unknown size'} = ${n1(load.bytesPerSec / MiB)} MiB/s`
      : `${name} none`;
  const sourceText = `${profile.source} profile${profile.label ? ` "${profile.label.replace(/[\r\n]+/g, ' ')}"` : ''}`;
  return linesPart(
    '; Blockwise fio job: reproduces a workload on a candidate volume.',
    `; From the ${sourceText}: ${dirLine('read', profile.read, blocks.read.block)}; ${dirLine('write', profile.write, blocks.write.block)}.`,
    '; WARNING: fio writes to the target. On a device every byte is overwritten: use a new, empty volume.',
    '; Run:    fio --output-format=json+ --output=result.json THIS_FILE',
    '',
    '[global]',
  );
}

/** fio splits filename on ':' (several files); a literal colon is written '\:'. Null: not given. */
function fioTarget(target: string | null | undefined): string | null {
  return target === undefined || target === null ? null : target.replace(/:/g, '\\:');
}

/**
 * filename (and size for a file): a device is used whole and destroyed, a file needs a size, and
 * no target at all is a CHANGE_ME fio refuses to run with — never a guessed device.
 */
function writeTarget(target: string | null, sizeBytes: number | null): JobPart {
  if (target === null) {
    return joinParts([
      optionPart(
        'filename=CHANGE_ME',
        'the device (/dev/nvme1n1: the whole volume, overwritten) or a file on the mounted filesystem (then set size too). fio refuses to run until this is set.',
      ),
      linesPart(
        '; size: only for a file: at least the working set, e.g. size=100g. A device is used whole.',
        ';size=100g',
      ),
    ]);
  }
  if (target.startsWith('/dev/')) {
    return optionPart(
      `filename=${target}`,
      `the raw device ${target}, used whole (no size): its data is destroyed.`,
    );
  }
  return joinParts([
    optionPart(`filename=${target}`, 'a file on the filesystem under test (fio creates it).'),
    sizeBytes === null
      ? optionPart(
          'size=CHANGE_ME',
          'how large the test file is; at least the working set, e.g. 100g. fio refuses to run until this is set.',
        )
      : optionPart(
          `size=${fioSize(sizeBytes)}`,
          `a ${fioSize(sizeBytes)} test file (direct=1 keeps the page cache out, so it need not exceed RAM).`,
        ),
  ]);
}

const DIRECTIONS_TEXT = {
  both: 'reads and writes mixed',
  read: 'reads only (the profile has no writes)',
  write: 'writes only (the profile has no reads)',
} as const;

/** ioengine, direct, rw and rwmixread: how fio issues the I/O, each with the reason for it. */
function writeAccessOptions(
  engine: FioEngine,
  pattern: Pick<FioJobSettings, 'rw' | 'rwmixread'>,
  profile: IoProfile,
): JobPart {
  const { rw, rwmixread } = pattern;
  const random = rw === 'randrw' || rw === 'randread' || rw === 'randwrite';
  const readIops = profile.read.iops;
  const totalIops = readIops + profile.write.iops;
  return joinParts([
    optionPart(
      `ioengine=${engine}`,
      engine === 'libaio'
        ? 'Linux native asynchronous I/O, what most databases use; several I/Os in flight per job.'
        : 'Linux ≥ 5.1 asynchronous I/O with fewer system calls per I/O than libaio.',
    ),
    optionPart(
      'direct=1',
      'O_DIRECT, bypassing the page cache, so the volume is measured, not RAM (fio defaults to buffered I/O).',
    ),
    optionPart(
      `rw=${rw}`,
      random
        ? `${DIRECTIONS_TEXT[directionsOf(profile)]} at random offsets — the conservative choice: EBS merges sequential I/O into fewer operations, random I/O it cannot.`
        : 'sequential, as the measured benchmark was.',
    ),
    ...(rwmixread !== null
      ? [
          optionPart(
            `rwmixread=${rwmixread}`,
            `${n0(readIops)} of ${n0(totalIops)} I/Os are reads (${n1((100 * readIops) / totalIops)}%); fio splits I/Os by count.`,
          ),
        ]
      : []),
  ]);
}

/** Why a direction gets its sizes: assumed (no throughput), one aligned size, or a mix and its mean. */
function blockSizeReason(name: 'read' | 'write', blocks: DirectionBlocks): string | null {
  const { block, split } = blocks;
  if (!split) return null;
  if (!block.known)
    return `${name}: size unknown (the profile has no ${name} throughput), ${sizeText(UNKNOWN_BLOCK_BYTES)} assumed — set it`;
  if (split.length === 1)
    return `${name} ${sizeText(split[0]!.bytes)} (average ${n1(block.bytes / KiB)} KiB)`;
  return `${name} average ${n1(block.bytes / KiB)} KiB = ${split.map((s) => `${s.percent}% × ${sizeText(s.bytes)}`).join(' + ')} (= ${n1(meanOf(split) / KiB)} KiB: aligned sizes, each a multiple of the smallest, as fio requires)`;
}

/** The bs/bssplit line, with each direction's reason and EBS's 256 KiB rule when a size exceeds it. */
function writeBlockSize(blocks: BlockSizes): JobPart {
  const why = [blockSizeReason('read', blocks.read), blockSizeReason('write', blocks.write)].filter(
    (w) => w !== null,
  );
  const large = [blocks.read.split, blocks.write.split].some((s) => s?.some((x) => x.bytes > 256 * KiB));
  return optionPart(
    blocks.option,
    `${why.join('; ')}.${blocks.option.startsWith('bssplit') ? ' Syntax: read sizes, then write sizes, each size/percent.' : ''} Only the average is known: if the application's real mix is known (16 KiB pages + 128 KiB scans), write that instead.${large ? ' EBS counts each 256 KiB of a larger I/O as one operation.' : ''}`,
  );
}

/** iodepth, numjobs and (when pacing) rate_iops with rate_process: the queue sizeQueue chose, explained. */
function writeQueueOptions(queue: QueueSize, totalIops: number, o: ResolvedJobOptions): JobPart {
  const { numjobs, iodepth, outstanding, neededInFlight } = queue;
  return joinParts([
    optionPart(
      `iodepth=${iodepth}`,
      `Little's law — ${n0(totalIops)} IOPS × ${o.latencyMs} ms per I/O (EBS SSD volumes: ~0.5–1 ms) = ${n1(neededInFlight)} I/Os in flight${o.pace ? ', doubled so a latency spike cannot starve the rate' : ''}: ${outstanding} over ${numjobs} job${numjobs === 1 ? '' : 's'}.${iodepth > MAX_IODEPTH_PER_JOB ? ` Above ${MAX_IODEPTH_PER_JOB} per job because only ${o.maxJobs} jobs are allowed.` : ''}`,
    ),
    optionPart(
      `numjobs=${numjobs}`,
      `${numjobs === 1 ? 'one job keeps' : `${numjobs} jobs keep`} each queue at ≤ ${MAX_IODEPTH_PER_JOB} and each thread under ~${n0(IOPS_PER_JOB)} IOPS; at most ${o.maxJobs} (about the instance's vCPUs).`,
    ),
    ...(queue.rateIopsPerJob ? writeRateOptions(queue.rateIopsPerJob, numjobs) : []),
  ]);
}

/** rate_iops (per job, per direction present) and the poisson arrivals the paced mix needs. */
function writeRateOptions(rate: NonNullable<QueueSize['rateIopsPerJob']>, numjobs: number): JobPart[] {
  const both = rate.read !== null && rate.write !== null;
  const one = rate.read ?? rate.write;
  return [
    optionPart(
      both ? `rate_iops=${rate.read},${rate.write}` : `rate_iops=${one}`,
      `paces each job at the profile's rate (fio applies it per job: ${numjobs} × ${both ? `${rate.read} reads + ${rate.write} writes` : `${one}`} per second), so the volume sees the production load and its latency at that load is what you measure. Remove it (and rate_process) to find the volume's ceiling instead.`,
    ),
    optionPart(
      'rate_process=poisson',
      'requests arrive at random (exponential) intervals, like independent production requests, not on a metronome. Also needed for the mix: with the default linear process and a rate per direction, fio 3.33 issued only half the reads (measured).',
    ),
  ];
}

/** How long and how fio runs and reports: time-based for the full runtime, after a ramp, merged percentiles. */
function writeRunOptions(o: ResolvedJobOptions): JobPart {
  return joinParts([
    optionPart(
      'time_based=1',
      'run for the whole runtime, looping over the target, instead of stopping after one pass.',
    ),
    optionPart(
      `runtime=${o.runtimeSec}`,
      o.runtimeSec >= DEFAULT_FIO_RUNTIME_SEC
        ? `${n1(o.runtimeSec / 60)} minutes — longer than an instance's 30-minute EBS burst window and than gp2 burst credits last at 3,000 IOPS, so the result is what the volume sustains.`
        : `SHORTER than 30 minutes — burst credits and the instance's 30-minute burst window can make the result better than what is sustained. Use it for a trial run only.`,
    ),
    optionPart(
      `ramp_time=${o.rampTimeSec}`,
      `${o.rampTimeSec} s of I/O before measuring, so start-up (queues filling, caches) is not in the numbers.`,
    ),
    optionPart(
      'norandommap=1',
      'pick random offsets without tracking which blocks were hit: no memory per block on large devices (blocks repeat over a long run anyway), and bssplit keeps its proportions (with the map, fio 3.33 under-issued the larger sizes on small targets).',
    ),
    optionPart(
      'randrepeat=0',
      'a different random sequence each run, so a repeated run does not re-read the same blocks.',
    ),
    optionPart(
      'group_reporting=1',
      'one result for all jobs together (IOPS and throughput add; latency percentiles are merged by fio).',
    ),
    optionPart(
      'percentile_list=50:90:99:99.9:99.99',
      'the completion-latency percentiles Blockwise judges (p50 to p99.99).',
    ),
  ]);
}

/** A benchmark that synced gets fdatasync as a commented-out hint: whether the application waits on every write is the user's call. */
function writeSyncHint(profile: IoProfile): JobPart {
  if (!profile.benchmark?.syncs) return linesPart();
  return {
    lines: [
      '; The measured benchmark synced (fsync) while writing. If every write of the application waits for the disk, uncomment:',
      ';fdatasync=1',
    ],
    explanation: [
      'fdatasync: the measured benchmark synced; the line is left commented out — enable it if every write waits on the disk.',
    ],
  };
}

/**
 * The `blockwise upload` command with the planner's labels (CHANGE_ME where the caller gave none)
 * and how to get the CLI; the explanation says what to fill in.
 */
function writeUploadCommand(
  options: Pick<FioJobOptions, 'labels' | 'series' | 'server' | 'cliFrom'>,
  resultFile: string,
): { command: string; explanation: string[] } {
  const labels: Record<string, string> = {};
  for (const key of PLANNER_LABELS) labels[key] = key === 'kind' ? 'ebs' : 'CHANGE_ME';
  Object.assign(labels, options.labels ?? {});
  const placeholders = Object.entries(labels)
    .filter(([, v]) => v === 'CHANGE_ME')
    .map(([k]) => k);
  // $BLOCKWISE_URL stays a variable the shell expands; a real origin is quoted like any word.
  const server = options.server === undefined ? '$BLOCKWISE_URL' : shellWord(options.server);
  const cliUrl =
    options.server === undefined
      ? '"$BLOCKWISE_URL/cli/blockwise.mjs"'
      : shellWord(`${options.server}/cli/blockwise.mjs`);
  const fetchCli = options.cliFrom === 'server';
  const command = [
    ...(fetchCli ? ['curl', '-fsSO', cliUrl, '&&', 'node', 'blockwise.mjs'] : ['blockwise']),
    'upload',
    shellWord(resultFile),
    '--server',
    server,
    ...Object.entries(labels).flatMap(([k, v]) => ['--label', shellWord(`${k}=${v}`)]),
    ...(options.series ? ['--series', shellWord(options.series)] : []),
  ].join(' ');
  const explanation: string[] = [];
  if (fetchCli)
    explanation.push(
      'upload: the server hands out its CLI at /cli/blockwise.mjs (one file; needs Node 20.19+ and nothing else). When the server requires a token, set BLOCKWISE_TOKEN first.',
    );
  if (placeholders.length > 0) {
    explanation.push(
      `upload: replace CHANGE_ME in ${placeholders.join(', ')} with the instance and volume the run used — the planner compares runs by these labels.`,
    );
  }
  return { command, explanation };
}

/** A fio section name from the profile's label: letters, digits, dot, dash, underscore. */
function jobNameOf(profile: IoProfile): string {
  const base = (profile.label ?? '')
    .replace(/[^A-Za-z0-9._-]+/g, '-')
    .replace(/^-+|-+$/g, '')
    .slice(0, 40);
  return base === '' ? `blockwise-${profile.source}` : base;
}
