import { writeFile } from 'node:fs/promises';
import { basename, resolve } from 'node:path';
import { generateFioJob, type FioEngine, type FioJobOptions } from '@blockwise/shared/fio-job';
import { profileFromObserved, type IoProfile } from '@blockwise/shared/profile';
import { profileFromSeries } from '@blockwise/shared/timeseries';
import { parseBytes } from '@blockwise/shared/units';
import { parseCount, parseDurationFlag, parseRateBytesPerSec } from './flags.ts';
import { EXIT, UsageError, parseFlags, type CliIo, type Command } from './io.ts';
import {
  IMPORT_FLAGS,
  IMPORT_USAGE,
  InputError,
  importOptionsFrom,
  loadFioProfile,
  loadSeries,
  loadSysbench,
  parseGroupFlag,
  parseSizingStatistic,
  reportInputError,
} from './metrics-input.ts';

const usage = `Usage: blockwise fio-job (--read-iops N --write-iops N --read-bw RATE --write-bw RATE
                         | --fio FILE [--group N] | --metrics FILE [--statistic max|p99|p95] | --sysbench FILE)
                        [--engine libaio|io_uring] [--runtime 30m] [--ramp 60s] [--target /dev/nvme1n1] [--size 100GiB]
                        [--latency-ms 1] [--max-jobs 4] [--no-pace] [--label key=value ...] [--series S]
                        [--output job.fio] [--json]

  Writes the fio job that reproduces a workload on a candidate volume — every option with a comment
  saying why — the command that runs it, and the \`blockwise upload\` command that sends the result
  back with the labels the planner compares runs by.

  --read-bw/--write-bw  observed throughput WITH a unit: 188MiB/s, 24000KB/s, 1500Mbps
  --metrics             a CloudWatch/Grafana export (see \`blockwise metrics --help\`); sized on --statistic
  --runtime             measured time after the ramp (default 30m: outlasts 30-minute burst windows)
  --target              the device or file to test; without it the job says filename=CHANGE_ME
  --size                for a file target: its size (a device is used whole)
  --latency-ms          per-I/O latency assumed for the queue depth (Little's law; EBS ~0.5–1 ms)
  --max-jobs            at most this many fio jobs (about the instance's vCPUs; default 4)
  --no-pace             no rate_iops: let fio run as fast as the queue allows (find the ceiling)
  --label, --series     passed to the upload command (kind=ebs, instanceType=…, volumeType=…, volumeSizeGiB=…,
                        volumeIops=…, volumeThroughputMiBps=…)
  --output              write the job file there; otherwise it goes to stdout and the commands to stderr
${IMPORT_USAGE}`;

const ENGINES: FioEngine[] = ['libaio', 'io_uring'];

function observedProfile(values: Record<string, string | boolean | string[] | undefined>): IoProfile {
  const need = ['read-iops', 'write-iops', 'read-bw', 'write-bw'].filter((f) => values[f] === undefined);
  if (need.length > 0) {
    throw new UsageError(
      `give one source: --fio FILE, --metrics FILE, --sysbench FILE, or all of --read-iops, --write-iops, --read-bw, --write-bw (missing: ${need.map((f) => `--${f}`).join(', ')})`,
      `--${need[0]}`,
    );
  }
  const text = (k: string) => values[k] as string;
  const r = profileFromObserved({
    read: {
      iops: parseCount(text('read-iops'), '--read-iops'),
      throughput: parseRateBytesPerSec(text('read-bw'), '--read-bw'),
      throughputUnit: 'B/s',
    },
    write: {
      iops: parseCount(text('write-iops'), '--write-iops'),
      throughput: parseRateBytesPerSec(text('write-bw'), '--write-bw'),
      throughputUnit: 'B/s',
    },
  });
  if (!r.ok) {
    const flag = r.error.path ? `--${r.error.path.replace('.', '-').replace('throughput', 'bw')}` : undefined;
    throw new UsageError(`${flag ?? 'metrics'}: ${r.error.message}`, flag);
  }
  return r.value;
}

function parseLabels(pairs: string[] | undefined): Record<string, string> {
  const labels: Record<string, string> = {};
  for (const pair of pairs ?? []) {
    const eq = pair.indexOf('=');
    if (eq <= 0) throw new UsageError(`--label: expected key=value, got "${pair}"`, '--label');
    labels[pair.slice(0, eq).trim()] = pair.slice(eq + 1).trim();
  }
  return labels;
}

async function profileFrom(
  values: Record<string, string | boolean | string[] | undefined>,
  io: CliIo,
): Promise<IoProfile> {
  const sources = ['fio', 'metrics', 'sysbench'].filter((k) => values[k] !== undefined);
  const typed = ['read-iops', 'write-iops', 'read-bw', 'write-bw'].some((k) => values[k] !== undefined);
  if (sources.length + (typed ? 1 : 0) > 1) {
    throw new UsageError(
      `give one source, not ${[...sources.map((s) => `--${s}`), ...(typed ? ['--read-iops/…'] : [])].join(' and ')}`,
    );
  }
  if (values.fio !== undefined)
    return loadFioProfile(values.fio as string, parseGroupFlag(values.group as string | undefined), io);
  if (values.sysbench !== undefined)
    return (await loadSysbench(values.sysbench as string, '--sysbench', io)).profile;
  if (values.metrics !== undefined) {
    const file = values.metrics as string;
    const series = await loadSeries(
      file,
      '--metrics',
      importOptionsFrom(values as Record<string, string | undefined>),
      io,
    );
    const p = profileFromSeries(series, {
      statistic: parseSizingStatistic(values.statistic as string | undefined),
    });
    if (!p.ok) throw new InputError(file, p.error);
    return p.value;
  }
  return observedProfile(values);
}

export const fioJobCommand: Command = {
  summary:
    'The fio job (with a comment for every choice) that reproduces a workload on a candidate volume, and how to upload its result.',
  usage,
  async run(argv, io) {
    const { values } = parseFlags(
      argv,
      {
        'read-iops': { type: 'string' },
        'write-iops': { type: 'string' },
        'read-bw': { type: 'string' },
        'write-bw': { type: 'string' },
        fio: { type: 'string' },
        group: { type: 'string' },
        metrics: { type: 'string' },
        statistic: { type: 'string' },
        sysbench: { type: 'string' },
        ...IMPORT_FLAGS,
        engine: { type: 'string' },
        runtime: { type: 'string' },
        ramp: { type: 'string' },
        target: { type: 'string' },
        size: { type: 'string' },
        'latency-ms': { type: 'string' },
        'max-jobs': { type: 'string' },
        'no-pace': { type: 'boolean' },
        label: { type: 'string', multiple: true },
        series: { type: 'string' },
        output: { type: 'string' },
        json: { type: 'boolean' },
      },
      false,
    );
    const json = values.json === true;
    const options: FioJobOptions = { labels: parseLabels(values.label), pace: values['no-pace'] !== true };
    if (values.engine !== undefined) {
      const engine = ENGINES.find((e) => e === values.engine!.trim());
      if (!engine)
        throw new UsageError(`--engine: expected libaio or io_uring, got "${values.engine}"`, '--engine');
      options.engine = engine;
    }
    if (values.runtime !== undefined) options.runtimeSec = parseDurationFlag(values.runtime, '--runtime');
    if (values.ramp !== undefined) options.rampTimeSec = parseDurationFlag(values.ramp, '--ramp');
    if (values.target !== undefined) options.target = values.target;
    if (values.size !== undefined) {
      const size = parseBytes(values.size);
      if (!size.ok) throw new UsageError(`--size: expected ${size.expected}, got "${values.size}"`, '--size');
      options.sizeBytes = Math.round(size.value);
    }
    if (values['latency-ms'] !== undefined) {
      const ms = Number(values['latency-ms']);
      if (!(ms > 0) || !Number.isFinite(ms))
        throw new UsageError(
          `--latency-ms: expected milliseconds above 0, got "${values['latency-ms']}"`,
          '--latency-ms',
        );
      options.assumedLatencyMs = ms;
    }
    if (values['max-jobs'] !== undefined)
      options.maxJobs = parseCount(values['max-jobs'], '--max-jobs', { min: 1, max: 1024 });
    if (values.series !== undefined) options.series = values.series;
    if (values.output !== undefined) options.jobFileName = basename(values.output);

    let profile: IoProfile;
    try {
      profile = await profileFrom(values, io);
    } catch (error) {
      if (error instanceof InputError) return reportInputError('fio-job', error, io, json);
      throw error;
    }
    const r = generateFioJob(profile, options);
    if (!r.ok) {
      const flag = {
        runtime: '--runtime',
        rampTime: '--ramp',
        assumedLatencyMs: '--latency-ms',
        size: '--size',
      }[r.error.path ?? ''];
      if (flag) throw new UsageError(`${flag}: ${r.error.message}`, flag);
      return reportInputError('fio-job', new InputError('profile', r.error), io, json);
    }
    const job = r.value;
    if (values.output !== undefined) {
      const path = resolve(io.cwd, values.output);
      try {
        await writeFile(path, job.jobFile);
      } catch (error) {
        throw new UsageError(
          `--output: cannot write ${values.output}: ${(error as NodeJS.ErrnoException).code ?? String(error)}`,
          '--output',
        );
      }
    }
    if (json) {
      io.stdout(`${JSON.stringify({ ...job, profile, output: values.output ?? null })}\n`);
      return EXIT.ok;
    }
    const next = [
      'Run it (from the directory holding the job file):',
      `  ${job.commandLine}`,
      'Then send the result back (fill in the CHANGE_ME labels):',
      `  ${job.uploadCommand}`,
    ];
    if (values.output !== undefined) {
      io.stdout(
        [
          `Wrote ${values.output}.`,
          '',
          ...next,
          '',
          'Why each setting:',
          ...job.explanation.map((e) => `  - ${e}`),
          '',
        ].join('\n'),
      );
    } else {
      io.stdout(job.jobFile);
      io.stderr(`${next.join('\n')}\n`);
    }
    return EXIT.ok;
  },
};
