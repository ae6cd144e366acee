import { readFile, stat } from 'node:fs/promises';
import { resolve } from 'node:path';
import { escapeText } from '@blockwise/shared/escape-text';
import { parseFio } from '@blockwise/shared/fio';
import {
  DatasetGrowthSchema,
  ResidencySchema,
  attachContextOf,
  datasetCapacityText,
  planStorage,
  validateVolume,
  volumeCapabilities,
  type DatasetGrowth,
  type LimitTarget,
  type PlanResult,
  type VolumeConfig,
} from '@blockwise/shared/plan';
import {
  AccessPatternSchema,
  profileFromFio,
  profileFromObserved,
  type IoProfile,
} from '@blockwise/shared/profile';
import { profileFromSeries } from '@blockwise/shared/timeseries';
import { measuredLatencyOf, measuredLatencyOfFio, type MeasuredLatency } from '@blockwise/shared/demand';
import { formatBytes, formatUsd, MiB } from '@blockwise/shared/units';
import type { InstanceSpec } from '@blockwise/shared/aws';
import { upgradePool, findInstanceType, nvmePremium, suggestInstanceTypes } from '@blockwise/shared/catalog';
import {
  parseCount,
  parseDurationFlag,
  parseFraction,
  parseGp3Generation,
  parseRateBytesPerSec,
  parseSizeFlag,
  parseThroughputMiBps,
  parseVolumeType,
  resolveRateCard,
  volumeUsageError,
} from './flags.ts';
import { CATALOG_FLAG, applyCatalogFlag, staleRatesNote } from './catalog-flag.ts';
import { EXIT, UsageError, parseFlags, type CliIo, type Command } from './io.ts';
import { measuredLatencyLines, promiseVerdicts } from './latency-text.ts';
import {
  IMPORT_FLAGS,
  InputError,
  importOptionsFrom,
  loadSeries,
  parseSizingStatistic,
} from './metrics-input.ts';

const MAX_FILE_BYTES = 100 * 1024 * 1024;

const usage = `Usage: blockwise plan --instance TYPE (--type gp3|gp2|io1|io2|st1|sc1 --size SIZE [--iops N] [--throughput RATE] [--count N] | --nvme)
                      (--fio FILE [--group N] | --read-iops N --write-iops N --read-bw RATE --write-bw RATE [--runtime 900s]
                       | --metrics FILE [--statistic max|p99|p95] [--ignore-recurring] [--stat Sum|Average] …)
                      [--headroom 0.25] [--region us-east-1] [--rates k=v,...] [--nodes N] [--gp3-limits current|before-2025]
                      [--access random|sequential|mixed] [--sync-commits] [--residency high|low] [--dataset SIZE]
                      [--growth PCT] [--horizon MONTHS] [--catalog FILE] [--json]

  Which limit binds (volume IOPS / throughput, instance EBS IOPS / bandwidth, burst), what to
  provision instead (cheapest per volume type at peak × (1 + headroom)), what it costs, and
  whether the benchmark can be trusted.

  --read-bw / --write-bw  observed throughput WITH a unit: 188MiB/s, 24000KB/s, 1500Mbps
  --runtime               how long the measurement ran (enables the burst-window checks)
  --access                how the I/O lands: random (each I/O one EBS operation), sequential
                          (contiguous I/O of 32 KiB+ merges into 256 KiB operations, 1 MiB on HDD),
                          mixed. fio files say it themselves (rw=); typed-in numbers without it
                          are assumed random, and the plan says so
  --dataset               data the volumes must hold (e.g. 800GiB); default: the measured
                          volume's (or stripe's) whole capacity
  --growth                how fast the dataset grows, %/year compounded (e.g. 30 or 30%, 0–1000);
                          every capacity is sized for the dataset at the end of --horizon
  --horizon               the planning horizon in months (1–60); default 12 with --growth
  --nvme                  the run was on the instance store (local NVMe), not EBS
  --catalog               a catalog file written by \`blockwise catalog update\` (or
                          BLOCKWISE_CATALOG); default: the built-in catalog`;

/**
 * --growth (%/year, compounded) and --horizon (months) as the plan's dataset growth; null without
 * --growth. Growth without --dataset, or a horizon without growth, is a usage error: they would
 * silently change nothing.
 */
function parseGrowthFlags(values: Record<string, string | boolean | undefined>): DatasetGrowth | null {
  const growth = values.growth as string | undefined;
  const horizon = values.horizon as string | undefined;
  if (growth === undefined) {
    if (horizon !== undefined)
      throw new UsageError('--horizon needs --growth (how fast the dataset grows, %/year)', '--horizon');
    return null;
  }
  if (values.dataset === undefined)
    throw new UsageError('--growth needs --dataset (the size the data has today)', '--growth');
  const pct = /^\s*(\d+(?:\.\d+)?)\s*%?\s*$/.exec(growth);
  const months = horizon === undefined ? 12 : /^\s*(\d+)\s*$/.exec(horizon) ? Number(horizon) : NaN;
  const r = DatasetGrowthSchema.safeParse({
    percentPerYear: pct ? Number(pct[1]) : NaN,
    horizonMonths: months,
  });
  if (r.success) return r.data;
  const field = r.error.issues[0]?.path[0] === 'horizonMonths' ? 'horizon' : 'growth';
  throw new UsageError(
    field === 'growth'
      ? `--growth: expected a growth from 0 to 1000 %/year (e.g. 30 or 30%), got "${growth}"`
      : `--horizon: expected a whole number of months from 1 to 60, got "${horizon}"`,
    `--${field}`,
  );
}

async function readFioProfile(file: string, group: number | undefined, io: CliIo): Promise<IoProfile> {
  const path = resolve(io.cwd, file);
  let bytes: Uint8Array;
  try {
    const info = await stat(path);
    if (info.size >= MAX_FILE_BYTES)
      throw new UsageError(`--fio: ${file} is ${formatBytes(info.size)}; the limit is 100 MiB`, '--fio');
    bytes = await readFile(path);
  } catch (error) {
    if (error instanceof UsageError) throw error;
    throw new UsageError(
      `--fio: cannot read ${file}: ${(error as NodeJS.ErrnoException).code ?? String(error)}`,
      '--fio',
    );
  }
  const parsed = parseFio(bytes);
  if (!parsed.ok)
    throw new UsageError(`--fio: ${file}: ${parsed.error.message} (${parsed.error.code})`, '--fio');
  const profile = profileFromFio(parsed.report, group === undefined ? {} : { group });
  if (!profile.ok) throw new UsageError(`--fio: ${file}: ${profile.error.message}`, '--group');
  return profile.value;
}

/**
 * A production metrics export as the demand (the demand model, demand/demand.ts): the statistic
 * at the points' own step, recurring peaks kept unless --ignore-recurring, and — with the volume
 * it was measured on (--type, --iops, --throughput) — censoring at its limits.
 */
async function metricsProfile(
  values: Record<string, string | boolean | undefined>,
  target: LimitTarget | null,
  instance: InstanceSpec | null,
  io: CliIo,
): Promise<{ profile: IoProfile; latency: MeasuredLatency | null }> {
  const file = values.metrics as string;
  const statistic = parseSizingStatistic(values.statistic as string | undefined);
  try {
    const series = await loadSeries(
      file,
      '--metrics',
      importOptionsFrom(values as Record<string, string | undefined>),
      io,
    );
    const volume = target?.kind === 'ebs' ? target.volume : null;
    const caps = volume ? volumeCapabilities(volume, attachContextOf(instance)) : null;
    const p = profileFromSeries(series, {
      statistic,
      ignoreRecurring: values['ignore-recurring'] === true,
      ...(caps ? { limits: { iops: caps.iops, bytesPerSec: caps.throughputMiBps * MiB } } : {}),
    });
    if (!p.ok) throw new InputError(file, p.error);
    return { profile: p.value, latency: measuredLatencyOf(series) };
  } catch (error) {
    if (error instanceof InputError)
      throw new UsageError(`${error.file}: ${error.problem.message} [${error.problem.code}]`, '--metrics');
    throw error;
  }
}

/** Field paths of profileFromObserved → the flags they came from. */
const OBSERVED_FLAGS: Record<string, string> = {
  'read.iops': '--read-iops',
  'write.iops': '--write-iops',
  'read.throughput': '--read-bw',
  'write.throughput': '--write-bw',
};

function observedProfile(values: Record<string, string | undefined>): IoProfile {
  const need = ['read-iops', 'write-iops', 'read-bw', 'write-bw'].filter((f) => values[f] === undefined);
  if (need.length > 0) {
    throw new UsageError(
      `give --fio FILE, or all of --read-iops, --write-iops, --read-bw, --write-bw (missing: ${need.map((f) => `--${f}`).join(', ')})`,
      `--${need[0]}`,
    );
  }
  const r = profileFromObserved({
    read: {
      iops: parseCount(values['read-iops']!, '--read-iops'),
      throughput: parseRateBytesPerSec(values['read-bw']!, '--read-bw'),
      throughputUnit: 'B/s',
    },
    write: {
      iops: parseCount(values['write-iops']!, '--write-iops'),
      throughput: parseRateBytesPerSec(values['write-bw']!, '--write-bw'),
      throughputUnit: 'B/s',
    },
  });
  if (!r.ok) {
    const flag = r.error.path ? OBSERVED_FLAGS[r.error.path] : undefined;
    throw new UsageError(`${flag ?? 'metrics'}: ${r.error.message}`, flag);
  }
  return r.value;
}

const pct = (u: number) => `${(u * 100).toFixed(1)}%`;
const num = (v: number, digits = 0) => v.toLocaleString('en-US', { maximumFractionDigits: digits });

function renderHuman(plan: PlanResult): string {
  const out: string[] = [];
  const p = plan.profile;
  out.push(
    `Profile (${p.source}${p.label ? `: ${escapeText(p.label)}` : ''}${p.durationSec ? `, ${num(p.durationSec / 60, 1)} min` : ''})`,
  );
  for (const dir of ['read', 'write'] as const) {
    const d = p[dir];
    out.push(
      `  ${dir.padEnd(5)} ${num(d.iops).padStart(10)} IOPS  ${num(d.bytesPerSec / 1048576, 1).padStart(9)} MiB/s  ${d.blockSizeBytes ? `${formatBytes(d.blockSizeBytes)} avg I/O (${d.sizeClass} → ${d.likelyBound}-bound)` : 'no I/O'}`,
    );
  }
  if (plan.target || plan.instanceType) {
    out.push('', `Limits — ${[plan.instanceType, plan.target?.description].filter(Boolean).join(', ')}`);
    for (const l of plan.limits) {
      const mark =
        plan.bottleneck?.id === l.id
          ? l.sustained
            ? '◀ bottleneck'
            : '◀ bottleneck (burst)'
          : plan.bottleneck?.sustained?.id === l.id
            ? '(sustained fallback)'
            : l.sustained
              ? ''
              : '(burst)';
      const native = l.native && l.native.unit === 'Mbps' ? ` = ${num(l.native.capacity)} Mbps` : '';
      out.push(
        `  ${l.label.padEnd(34)} ${num(l.demand, 1).padStart(10)} / ${num(l.capacity, 1).padStart(10)} ${l.unit.padEnd(6)}${native.padEnd(16)} ${pct(l.utilization).padStart(7)} ${mark}`,
      );
    }
    if (plan.bottleneck) out.push(`  → ${plan.bottleneck.explanation}`);
  }
  const rs = plan.rightSizing;
  out.push(
    '',
    `Right-sized for peak × ${num(1 + plan.headroom, 2)}: ${num(rs.target.iops)} IOPS, ${num(rs.target.throughputMiBps)} MiB/s, ≥ ${num(rs.target.minSizeGiB)} GiB`,
  );
  if (plan.dataset?.growth) out.push(`  (dataset: ${datasetCapacityText(plan.dataset)})`);
  if (rs.target.iopsUnmerged !== undefined)
    out.push(`  (${num(rs.target.iopsUnmerged)} IOPS if contiguous I/O is not merged: the worst case)`);
  for (const r of rs.recommendations) {
    const count = r.volumeCount ?? 1;
    const status =
      r.status === 'capped-by-instance'
        ? '  (capped by the instance: does not meet the target)'
        : r.status === 'unpriced'
          ? '  (no price in this region)'
          : '';
    const per = r.perVolume;
    const stripe =
      count > 1 && per
        ? `  = ${count} × ${num(per.sizeGiB)} GiB${per.iops !== null ? ` / ${num(per.iops)} IOPS` : ''}${per.throughputMiBps !== null ? ` / ${num(per.throughputMiBps)} MiB/s` : ''} striped`
        : '';
    const head =
      r.status === 'not-viable'
        ? `  ${r.rank}. ${r.type.padEnd(4)} not viable`
        : `  ${r.rank}. ${r.type.padEnd(4)} ${num(r.sizeGiB).padStart(6)} GiB ${num(r.iops).padStart(8)} IOPS ${num(r.throughputMiBps).padStart(6)} MiB/s  ${r.status === 'unpriced' ? '—'.padStart(11) : formatUsd(r.monthlyUsd.total).padStart(11)}/month${status}${stripe}`;
    out.push(head, ...r.reasons.map((x) => `       ${x}`));
  }
  if (rs.instanceAdvice) out.push('', `Instance: ${rs.instanceAdvice.message}`);
  for (const n of rs.notes) out.push(`Note: ${n}`);
  if (plan.cost.current) {
    const c = plan.cost.current;
    out.push(
      '',
      `Cost of the measured configuration: ${formatUsd(c.monthlyUsd.total)}/month (storage ${formatUsd(c.monthlyUsd.storage)}, IOPS ${formatUsd(c.monthlyUsd.iops)}, throughput ${formatUsd(c.monthlyUsd.throughput)})${c.nodes > 1 ? ` × ${c.nodes} nodes = ${formatUsd(c.clusterMonthlyUsd.total)}` : ''}`,
    );
  }
  if (plan.cost.nvme)
    out.push(
      '',
      `Local NVMe costs the d-variant premium: ${formatUsd(plan.cost.nvme.monthlyPremiumUsd)}/month (us-east-1 on-demand)`,
    );
  for (const dir of ['read', 'write'] as const) {
    const l = plan.latency[dir];
    if (!l || l.verdicts.length === 0) continue;
    out.push(
      '',
      `Latency (${dir}, ${plan.latency.load} load${plan.latency.syncCommits ? ', synchronous commits' : ''}${l.approximate ? ', approximate' : ''}): ${l.verdicts.map((v) => `p${v.percentile} ${num(v.valueMs, 3)} ms ${v.verdict}`).join(', ')}`,
      ...l.cliffs.map(
        (c) =>
          `  cliff: p${c.from} ${num(c.fromMs, 2)} ms → p${c.to} ${num(c.toMs, 2)} ms (×${num(c.ratio, 1)})`,
      ),
    );
  }
  out.push('', `Viability: ${plan.viability.message}`);
  if (plan.warnings.length > 0)
    out.push('', 'Warnings:', ...plan.warnings.map((w) => `  [${w.code}] ${escapeText(w.message)}`));
  out.push('', `Prices: ${plan.rates.region ?? 'custom'}, as of ${plan.rates.date} — ${plan.rates.source}`);
  const stale = staleRatesNote(plan.rates.date);
  if (stale) out.push(stale);
  return `${out.join('\n')}\n`;
}

export const planCommand: Command = {
  summary:
    'Which limit binds, what to provision instead, what it costs, and whether the benchmark can be trusted.',
  usage,
  async run(argv, io) {
    const { values } = parseFlags(
      argv,
      {
        instance: { type: 'string' },
        type: { type: 'string' },
        size: { type: 'string' },
        iops: { type: 'string' },
        throughput: { type: 'string' },
        count: { type: 'string' },
        nvme: { type: 'boolean' },
        fio: { type: 'string' },
        group: { type: 'string' },
        'read-iops': { type: 'string' },
        'write-iops': { type: 'string' },
        'read-bw': { type: 'string' },
        'write-bw': { type: 'string' },
        runtime: { type: 'string' },
        headroom: { type: 'string' },
        region: { type: 'string' },
        rates: { type: 'string' },
        nodes: { type: 'string' },
        'gp3-limits': { type: 'string' },
        'sync-commits': { type: 'boolean' },
        residency: { type: 'string' },
        dataset: { type: 'string' },
        growth: { type: 'string' },
        horizon: { type: 'string' },
        access: { type: 'string' },
        metrics: { type: 'string' },
        statistic: { type: 'string' },
        'ignore-recurring': { type: 'boolean' },
        ...IMPORT_FLAGS,
        ...CATALOG_FLAG,
        json: { type: 'boolean' },
      },
      false,
    );
    await applyCatalogFlag(values.catalog, io);

    let instance = null;
    if (values.instance !== undefined) {
      instance = findInstanceType(values.instance) ?? null;
      if (!instance) {
        const near = suggestInstanceTypes(values.instance);
        throw new UsageError(
          `--instance: unknown instance type "${values.instance}"${near.length ? `; did you mean ${near.join(', ')}?` : ''}`,
          '--instance',
        );
      }
    }
    const gp3Generation = parseGp3Generation(values['gp3-limits']);
    let target: LimitTarget | null = null;
    if (values.nvme) {
      if (values.type !== undefined)
        throw new UsageError(
          '--nvme and --type are exclusive: the run was either on local NVMe or on EBS',
          '--nvme',
        );
      if (!instance?.instanceStore)
        throw new UsageError(
          `--nvme: ${instance ? `${instance.instanceType} has no instance store` : 'needs --instance'}`,
          '--nvme',
        );
      target = { kind: 'nvme' };
    } else if (values.type !== undefined) {
      if (values.size === undefined)
        throw new UsageError('--size is required with --type (e.g. 1000 or 1TiB)', '--size');
      const volume: VolumeConfig = {
        type: parseVolumeType(values.type),
        sizeGiB: parseSizeFlag(values.size),
      };
      if (values.iops !== undefined) volume.iops = parseCount(values.iops, '--iops', { min: 1 });
      if (values.throughput !== undefined)
        volume.throughputMiBps = parseThroughputMiBps(values.throughput, '--throughput', io);
      if (values.count !== undefined) volume.count = parseCount(values.count, '--count', { min: 1, max: 64 });
      const problems = validateVolume(volume, gp3Generation);
      if (problems.length > 0) throw volumeUsageError(problems);
      target = { kind: 'ebs', volume };
    }
    if (!target && !instance)
      throw new UsageError(
        'give --instance and/or a volume (--type, --size …) or --nvme to plan against',
        '--instance',
      );

    const observedFlags = ['read-iops', 'write-iops', 'read-bw', 'write-bw'].some(
      (f) => values[f as keyof typeof values] !== undefined,
    );
    if ([values.fio !== undefined, observedFlags, values.metrics !== undefined].filter(Boolean).length > 1)
      throw new UsageError(
        'give one demand: --fio FILE, --metrics FILE or the observed --read-*/--write-* numbers',
        values.fio !== undefined ? '--fio' : '--metrics',
      );
    const group = values.group === undefined ? undefined : parseCount(values.group, '--group');
    const fromMetrics =
      values.metrics !== undefined && values.fio === undefined
        ? await metricsProfile(values, target, instance, io)
        : null;
    let profile =
      values.fio !== undefined
        ? await readFioProfile(values.fio, group, io)
        : fromMetrics
          ? fromMetrics.profile
          : observedProfile(values as Record<string, string | undefined>);
    if (values.runtime !== undefined)
      profile = { ...profile, durationSec: parseDurationFlag(values.runtime, '--runtime') };
    if (values.access !== undefined) {
      const a = AccessPatternSchema.safeParse(values.access);
      if (!a.success)
        throw new UsageError(
          `--access: expected random, sequential or mixed, got "${values.access}"`,
          '--access',
        );
      profile = { ...profile, access: { read: a.data, write: a.data, origin: 'stated' } };
    }

    let residency: 'high' | 'low' | 'unknown' = 'unknown';
    if (values.residency !== undefined) {
      const r = ResidencySchema.safeParse(values.residency);
      if (!r.success)
        throw new UsageError(`--residency: expected high or low, got "${values.residency}"`, '--residency');
      residency = r.data;
    }
    const plan = planStorage({
      profile,
      target,
      instance,
      rateCard: resolveRateCard(
        values.region,
        values.rates,
        target?.kind === 'ebs' ? target.volume.type : undefined,
      ),
      headroom:
        values.headroom === undefined
          ? 0.25
          : parseFraction(values.headroom, '--headroom', { min: 0, max: 5 }),
      gp3Generation,
      nodes: values.nodes === undefined ? 1 : parseCount(values.nodes, '--nodes', { min: 1, max: 100_000 }),
      syncCommits: values['sync-commits'] ?? undefined,
      residency,
      datasetGiB: values.dataset === undefined ? null : parseSizeFlag(values.dataset, '--dataset'),
      datasetGrowth: parseGrowthFlags(values),
      instanceCandidates: instance ? upgradePool(instance) : [],
      nvmePremiumUsdPerHour:
        target?.kind === 'nvme' && instance
          ? (nvmePremium(instance.instanceType, values.region)?.usdPerHour ?? null)
          : null,
    });

    // The measured latency beside the plan (a metrics export's, or the fio run's clat p99 on the
    // storage it ran on): today's type first, then each recommended type.
    const measured =
      values.fio !== undefined
        ? measuredLatencyOfFio(profile, { ...plan.latency, measuredOn: plan.target?.description ?? null })
        : (fromMetrics?.latency ?? null);
    const latencyTypes = [
      ...(target?.kind === 'ebs' ? [target.volume.type] : []),
      ...plan.rightSizing.recommendations.map((r) => r.type),
    ];
    if (values.json) {
      io.stdout(
        `${JSON.stringify({
          ...plan,
          measuredLatency: measured
            ? { ...measured, promises: promiseVerdicts(measured, latencyTypes) }
            : null,
          bottleneck: plan.bottleneck?.id ?? null,
          bottleneckDetail: plan.bottleneck,
          recommendations: plan.rightSizing.recommendations,
        })}\n`,
      );
    } else {
      io.stdout(renderHuman(plan));
      const latency = measuredLatencyLines(measured, latencyTypes);
      if (latency.length > 0) io.stdout(`\n${latency.join('\n')}\n`);
    }
    return EXIT.ok;
  },
};
