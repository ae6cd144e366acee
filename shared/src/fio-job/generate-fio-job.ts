import { fail, ok, type Result } from '../problem.ts';
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

export function generateFioJob(profile: IoProfile, options: FioJobOptions = {}): Result<GeneratedFioJob> {
  const readIops = profile.read.iops;
  const writeIops = profile.write.iops;
  const totalIops = readIops + writeIops;
  if (!(totalIops > 0)) return fail('no_io', 'the profile has no read or write IOPS to reproduce', 'iops');
  const engine = options.engine ?? 'libaio';
  const runtimeSec = options.runtimeSec ?? DEFAULT_FIO_RUNTIME_SEC;
  const rampTimeSec = options.rampTimeSec ?? DEFAULT_FIO_RAMP_SEC;
  const latencyMs = options.assumedLatencyMs ?? DEFAULT_ASSUMED_LATENCY_MS;
  const maxJobs = Math.max(1, Math.floor(options.maxJobs ?? DEFAULT_MAX_JOBS));
  const pace = options.pace ?? true;
  if (!(runtimeSec >= 1))
    return fail('bad_option', `runtime must be at least 1 s, got ${runtimeSec}`, 'runtime');
  if (!(rampTimeSec >= 0))
    return fail('bad_option', `ramp time cannot be negative, got ${rampTimeSec}`, 'rampTime');
  if (!(latencyMs > 0))
    return fail('bad_option', `assumed latency must be above 0 ms, got ${latencyMs}`, 'assumedLatencyMs');
  if (options.sizeBytes !== undefined && options.sizeBytes !== null && !(options.sizeBytes >= 4 * KiB)) {
    return fail('bad_option', `size must be at least 4 KiB, got ${options.sizeBytes} bytes`, 'size');
  }

  const lines: string[] = [];
  const explanation: string[] = [];
  /** One option line with the comment that justifies it; the same sentence goes into the explanation. */
  const option = (line: string, why: string) => {
    lines.push(`; ${line.split('=')[0]}: ${why}`, line);
    explanation.push(`${line}: ${why}`);
  };

  const hasRead = readIops > 0;
  const hasWrite = writeIops > 0;
  const sequential = profile.benchmark?.sequential === true;
  const rw: FioJobSettings['rw'] =
    hasRead && hasWrite
      ? sequential
        ? 'rw'
        : 'randrw'
      : hasRead
        ? sequential
          ? 'read'
          : 'randread'
        : sequential
          ? 'write'
          : 'randwrite';
  const rwmixread =
    hasRead && hasWrite ? Math.min(99, Math.max(1, Math.round((100 * readIops) / totalIops))) : null;

  const readBlock = blockSizeOf(profile.read);
  const writeBlock = blockSizeOf(profile.write);
  const readSplit = hasRead ? splitBlockSize(readBlock.bytes) : null;
  const writeSplit = hasWrite ? splitBlockSize(writeBlock.bytes) : null;
  const single = (s: BlockSplit[] | null) => s !== null && s.length === 1;
  let blockSizeOption: string;
  if (readSplit && writeSplit) {
    blockSizeOption =
      single(readSplit) && single(writeSplit)
        ? `bs=${fioSize(readSplit[0]!.bytes)},${fioSize(writeSplit[0]!.bytes)}`
        : `bssplit=${splitText(readSplit)},${splitText(writeSplit)}`;
  } else {
    const only = (readSplit ?? writeSplit)!;
    blockSizeOption = single(only) ? `bs=${fioSize(only[0]!.bytes)}` : `bssplit=${splitText(only)}`;
  }

  // Little's law: I/Os in flight = IOPS × time each I/O takes. Paced runs get twice that, so a
  // latency spike does not starve the rate; unpaced runs get exactly that, so at the assumed
  // latency they reach the target (and more if the volume is faster).
  const neededInFlight = totalIops * (latencyMs / 1000);
  const outstanding = Math.max(1, Math.ceil(neededInFlight * (pace ? 2 : 1)));
  const numjobs = Math.min(
    maxJobs,
    Math.max(1, Math.ceil(outstanding / MAX_IODEPTH_PER_JOB), Math.ceil(totalIops / IOPS_PER_JOB)),
  );
  const iodepth = Math.max(1, Math.ceil(outstanding / numjobs));
  const rateIopsPerJob = pace
    ? {
        read: hasRead ? Math.ceil(readIops / numjobs) : null,
        write: hasWrite ? Math.ceil(writeIops / numjobs) : null,
      }
    : null;

  // Header: what this reproduces, and the one warning that matters most.
  const dirLine = (name: string, load: DirectionLoad, block: { bytes: number; known: boolean }) =>
    load.iops > 0
      ? `${name} ${n0(load.iops)} IOPS × ${block.known ? `${n1(block.bytes / KiB)} KiB` : 'unknown size'} = ${n1(load.bytesPerSec / MiB)} MiB/s`
      : `${name} none`;
  const sourceText = `${profile.source} profile${profile.label ? ` "${profile.label.replace(/[\r\n]+/g, ' ')}"` : ''}`;
  lines.push(
    '; Blockwise fio job: reproduces a workload on a candidate volume.',
    `; From the ${sourceText}: ${dirLine('read', profile.read, readBlock)}; ${dirLine('write', profile.write, writeBlock)}.`,
    '; WARNING: fio writes to the target. On a device every byte is overwritten: use a new, empty volume.',
    '; Run:    fio --output-format=json+ --output=result.json THIS_FILE',
    '',
    '[global]',
  );

  // fio splits filename on ':' (several files); a literal colon is written '\:'.
  const target =
    options.target === undefined || options.target === null ? null : options.target.replace(/:/g, '\\:');
  const isDevice = target !== null && target.startsWith('/dev/');
  if (target === null) {
    option(
      'filename=CHANGE_ME',
      'the device (/dev/nvme1n1: the whole volume, overwritten) or a file on the mounted filesystem (then set size too). fio refuses to run until this is set.',
    );
    lines.push(
      '; size: only for a file: at least the working set, e.g. size=100g. A device is used whole.',
      ';size=100g',
    );
  } else if (isDevice) {
    option(`filename=${target}`, `the raw device ${target}, used whole (no size): its data is destroyed.`);
  } else {
    option(`filename=${target}`, 'a file on the filesystem under test (fio creates it).');
    const size = options.sizeBytes ?? null;
    if (size === null) {
      option(
        'size=CHANGE_ME',
        'how large the test file is; at least the working set, e.g. 100g. fio refuses to run until this is set.',
      );
    } else {
      option(
        `size=${fioSize(size)}`,
        `a ${fioSize(size)} test file (direct=1 keeps the page cache out, so it need not exceed RAM).`,
      );
    }
  }
  option(
    `ioengine=${engine}`,
    engine === 'libaio'
      ? 'Linux native asynchronous I/O, what most databases use; several I/Os in flight per job.'
      : 'Linux ≥ 5.1 asynchronous I/O with fewer system calls per I/O than libaio.',
  );
  option(
    'direct=1',
    'O_DIRECT, bypassing the page cache, so the volume is measured, not RAM (fio defaults to buffered I/O).',
  );
  option(
    `rw=${rw}`,
    rw === 'randrw' || rw === 'randread' || rw === 'randwrite'
      ? `${hasRead && hasWrite ? 'reads and writes mixed' : hasRead ? 'reads only (the profile has no writes)' : 'writes only (the profile has no reads)'} at random offsets — the conservative choice: EBS merges sequential I/O into fewer operations, random I/O it cannot.`
      : 'sequential, as the measured benchmark was.',
  );
  if (rwmixread !== null) {
    option(
      `rwmixread=${rwmixread}`,
      `${n0(readIops)} of ${n0(totalIops)} I/Os are reads (${n1((100 * readIops) / totalIops)}%); fio splits I/Os by count.`,
    );
  }
  const blockWhy: string[] = [];
  for (const [name, split, block] of [
    ['read', readSplit, readBlock],
    ['write', writeSplit, writeBlock],
  ] as const) {
    if (!split) continue;
    if (!block.known) {
      blockWhy.push(
        `${name}: size unknown (the profile has no ${name} throughput), ${sizeText(UNKNOWN_BLOCK_BYTES)} assumed — set it`,
      );
    } else if (split.length === 1) {
      blockWhy.push(`${name} ${sizeText(split[0]!.bytes)} (average ${n1(block.bytes / KiB)} KiB)`);
    } else {
      blockWhy.push(
        `${name} average ${n1(block.bytes / KiB)} KiB = ${split.map((s) => `${s.percent}% × ${sizeText(s.bytes)}`).join(' + ')} (= ${n1(meanOf(split) / KiB)} KiB: aligned sizes, each a multiple of the smallest, as fio requires)`,
      );
    }
  }
  const large = [readSplit, writeSplit].some((s) => s?.some((x) => x.bytes > 256 * KiB));
  option(
    blockSizeOption,
    `${blockWhy.join('; ')}.${blockSizeOption.startsWith('bssplit') ? ' Syntax: read sizes, then write sizes, each size/percent.' : ''} Only the average is known: if the application's real mix is known (16 KiB pages + 128 KiB scans), write that instead.${large ? ' EBS counts each 256 KiB of a larger I/O as one operation.' : ''}`,
  );
  option(
    `iodepth=${iodepth}`,
    `Little's law — ${n0(totalIops)} IOPS × ${latencyMs} ms per I/O (EBS SSD volumes: ~0.5–1 ms) = ${n1(neededInFlight)} I/Os in flight${pace ? ', doubled so a latency spike cannot starve the rate' : ''}: ${outstanding} over ${numjobs} job${numjobs === 1 ? '' : 's'}.${iodepth > MAX_IODEPTH_PER_JOB ? ` Above ${MAX_IODEPTH_PER_JOB} per job because only ${maxJobs} jobs are allowed.` : ''}`,
  );
  option(
    `numjobs=${numjobs}`,
    `${numjobs === 1 ? 'one job keeps' : `${numjobs} jobs keep`} each queue at ≤ ${MAX_IODEPTH_PER_JOB} and each thread under ~${n0(IOPS_PER_JOB)} IOPS; at most ${maxJobs} (about the instance's vCPUs).`,
  );
  if (rateIopsPerJob) {
    const rate = [rateIopsPerJob.read, rateIopsPerJob.write];
    const rateOption =
      hasRead && hasWrite ? `rate_iops=${rate[0]},${rate[1]}` : `rate_iops=${rate[0] ?? rate[1]}`;
    option(
      rateOption,
      `paces each job at the profile's rate (fio applies it per job: ${numjobs} × ${hasRead && hasWrite ? `${rate[0]} reads + ${rate[1]} writes` : `${rate[0] ?? rate[1]}`} per second), so the volume sees the production load and its latency at that load is what you measure. Remove it (and rate_process) to find the volume's ceiling instead.`,
    );
    option(
      'rate_process=poisson',
      'requests arrive at random (exponential) intervals, like independent production requests, not on a metronome. Also needed for the mix: with the default linear process and a rate per direction, fio 3.33 issued only half the reads (measured).',
    );
  }
  option(
    'time_based=1',
    'run for the whole runtime, looping over the target, instead of stopping after one pass.',
  );
  option(
    `runtime=${runtimeSec}`,
    runtimeSec >= DEFAULT_FIO_RUNTIME_SEC
      ? `${n1(runtimeSec / 60)} minutes — longer than an instance's 30-minute EBS burst window and than gp2 burst credits last at 3,000 IOPS, so the result is what the volume sustains.`
      : `SHORTER than 30 minutes — burst credits and the instance's 30-minute burst window can make the result better than what is sustained. Use it for a trial run only.`,
  );
  option(
    `ramp_time=${rampTimeSec}`,
    `${rampTimeSec} s of I/O before measuring, so start-up (queues filling, caches) is not in the numbers.`,
  );
  option(
    'norandommap=1',
    'pick random offsets without tracking which blocks were hit: no memory per block on large devices (blocks repeat over a long run anyway), and bssplit keeps its proportions (with the map, fio 3.33 under-issued the larger sizes on small targets).',
  );
  option(
    'randrepeat=0',
    'a different random sequence each run, so a repeated run does not re-read the same blocks.',
  );
  option(
    'group_reporting=1',
    'one result for all jobs together (IOPS and throughput add; latency percentiles are merged by fio).',
  );
  option(
    'percentile_list=50:90:99:99.9:99.99',
    'the completion-latency percentiles Blockwise judges (p50 to p99.99).',
  );
  if (profile.benchmark?.syncs) {
    lines.push(
      '; The measured benchmark synced (fsync) while writing. If every write of the application waits for the disk, uncomment:',
      ';fdatasync=1',
    );
    explanation.push(
      'fdatasync: the measured benchmark synced; the line is left commented out — enable it if every write waits on the disk.',
    );
  }
  lines.push('', `[${jobNameOf(profile)}]`, '');
  const jobFile = `${lines.join('\n')}`;

  const resultFile = options.resultFile ?? 'result.json';
  const jobFileName = options.jobFileName ?? 'blockwise.fio';
  const commandLine = ['fio', '--output-format=json+', `--output=${resultFile}`, jobFileName]
    .map(shellWord)
    .join(' ');

  const labels: Record<string, string> = {};
  for (const key of PLANNER_LABELS) labels[key] = key === 'kind' ? 'ebs' : 'CHANGE_ME';
  Object.assign(labels, options.labels ?? {});
  const placeholders = Object.entries(labels)
    .filter(([, v]) => v === 'CHANGE_ME')
    .map(([k]) => k);
  const server = options.server ?? '$BLOCKWISE_URL';
  // $BLOCKWISE_URL stays a variable the shell expands; a real origin is quoted like any word.
  const cliUrl =
    options.server === undefined
      ? '"$BLOCKWISE_URL/cli/blockwise.mjs"'
      : shellWord(`${server}/cli/blockwise.mjs`);
  const fetchCli = options.cliFrom === 'server';
  const uploadCommand = [
    ...(fetchCli ? ['curl', '-fsSO', cliUrl, '&&', 'node', 'blockwise.mjs'] : ['blockwise']),
    'upload',
    shellWord(resultFile),
    '--server',
    options.server === undefined ? server : shellWord(server),
    ...Object.entries(labels).flatMap(([k, v]) => ['--label', shellWord(`${k}=${v}`)]),
    ...(options.series ? ['--series', shellWord(options.series)] : []),
  ].join(' ');
  if (fetchCli)
    explanation.push(
      'upload: the server hands out its CLI at /cli/blockwise.mjs (one file; needs Node 20.19+ and nothing else). When the server requires a token, set BLOCKWISE_TOKEN first.',
    );
  if (placeholders.length > 0) {
    explanation.push(
      `upload: replace CHANGE_ME in ${placeholders.join(', ')} with the instance and volume the run used — the planner compares runs by these labels.`,
    );
  }
  if (target === null)
    explanation.push('filename: set the device or file before running (fio stops on CHANGE_ME).');
  return ok({
    jobFile,
    commandLine,
    uploadCommand,
    explanation,
    settings: {
      rw,
      rwmixread,
      blockSizes: { read: readSplit, write: writeSplit },
      blockSizeOption,
      ioengine: engine,
      iodepth,
      numjobs,
      rateIopsPerJob,
      runtimeSec,
      rampTimeSec,
    },
  });
}

/** A fio section name from the profile's label: letters, digits, dot, dash, underscore. */
function jobNameOf(profile: IoProfile): string {
  const base = (profile.label ?? '')
    .replace(/[^A-Za-z0-9._-]+/g, '-')
    .replace(/^-+|-+$/g, '')
    .slice(0, 40);
  return base === '' ? `blockwise-${profile.source}` : base;
}
