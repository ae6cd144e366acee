import { mkdir, writeFile } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import { escapeText } from '@blockwise/shared/escape-text';
import {
  FLEET_DEFAULTS,
  FLEET_HEADROOM_BOUNDS,
  FleetStatisticSchema,
  MAX_POINTS_PER_RESPONSE,
  MAX_QUERIES_PER_REQUEST,
  MODIFICATION_RULE,
  buildMetricQueries,
  FleetEvidenceFlagSchema,
  GET_METRIC_DATA_PRICE,
  concurrencyGroupsOf,
  fleetPlanToCsv,
  fleetPlanToMarkdown,
  fleetPlanToText,
  parseFleetInstances,
  parseFleetVolumes,
  planFleet,
  type FleetCatalog,
  type FleetInstance,
  type FleetStatistic,
} from '@blockwise/shared/fleet';
import { type Result } from '@blockwise/shared/problem';
import { activeCatalog, findInstanceType, upgradePool } from '@blockwise/shared/catalog';
import { CATALOG_FLAG, CATALOG_USAGE, applyCatalogFlag } from './catalog-flag.ts';
import { FleetInputError, readMetricsFiles, readText, threadsFor } from './fleet-metrics.ts';
import { resolveRegionRateCard } from './flags.ts';
import { EXIT, UsageError, parseFlags, type CliIo, type Command } from './io.ts';

const usage = `Usage: blockwise fleet query --volumes volumes.json [--days 14] [--period 300] [--end ISO] [--evidence none|checks|all] [--out DIR] [--json]
       blockwise fleet plan  --volumes volumes.json --metrics m.json [--metrics m2.json …] [--instances instances.json]
                             [--headroom ${FLEET_DEFAULTS.headroom}] [--statistic max|p99|p95] [--region ${FLEET_DEFAULTS.region}] [--rates k=v,…]
                             [--period 300] [--min-days 1] [--min-points 12] [--catalog FILE]
                             [--ignore-recurring] [--fail-on incomplete|under|any|none]
                             [--json | --csv | --format text|markdown|json|csv]

  Right-sizes every EBS volume of an account from files the AWS CLI writes (docs/fleet.md):
    aws ec2 describe-volumes --output json > volumes.json
    aws ec2 describe-instances --output json > instances.json      (optional: the instances' EBS caps)
    blockwise fleet query --volumes volumes.json --out queries/      (then run the printed commands)

  query   the --metric-data-queries JSON for aws cloudwatch get-metric-data: VolumeReadOps,
          VolumeWriteOps, VolumeReadBytes, VolumeWriteBytes (Stat Sum) and VolumeAvgIOPS,
          VolumeAvgThroughput (Stat Maximum: the busiest minute, Nitro instances) per volume,
          ${MAX_QUERIES_PER_REQUEST} queries per request (AWS's limit), with the exact command for each batch. --out DIR writes
          batch-N.json files there; without it the JSON is printed. It prints what the queries cost
          (GetMetricData is priced per metric requested).
  --evidence    AWS's own evidence beside the sizing metrics (docs/fleet.md §1):
                checks (default): per volume VolumeIOPSExceededCheck, VolumeThroughputExceededCheck,
                  VolumeStalledIOCheck (AWS/EBS) and per attached instance InstanceEBSIOPSExceededCheck,
                  InstanceEBSThroughputExceededCheck (AWS/EC2): 0/1 per minute, Stat Sum = minutes
                all: also VolumeAvgReadLatency/VolumeAvgWriteLatency (Maximum), BurstBalance (gp2/st1/sc1,
                  Minimum) and EBSIOBalance%/EBSByteBalance% (Minimum, 5-minute)
                none: the six sizing metrics only
  plan    per volume: current configuration and monthly cost, observed peak, binding limit, the
          cheapest configuration meeting peak × (1 + headroom), saving or risk, and the
          modify-volume command, its rollback and the Terraform diff; totals per type, instance, fleet.

  --days        history to query (default 14; 5-minute points are kept 63 days, 1-hour points 455)
  --period      seconds per point, a multiple of 60 (query: default 300; plan: default taken from the
                timestamps, and a file whose points are spaced otherwise is refused)
  --end         end of the window, ISO 8601 (default now, rounded down to the period)
  --metrics     a get-metric-data output; repeat for each batch and each NextToken page
  --headroom    fraction above the peak to provision for (default ${FLEET_DEFAULTS.headroom}, ${FLEET_HEADROOM_BOUNDS.min} to ${FLEET_HEADROOM_BOUNDS.max})
  --statistic   max (default, as AWS Compute Optimizer), p99 or p95 of the points; p99/p95 keep a
                peak that recurs at the same time of day or week (the volume's notes say so)
  --ignore-recurring  size p99/p95 on the percentile even where a peak recurs (the risk is stated)
  --fail-on     exit 1 when: incomplete (a NextToken page not given, PartialData), under (a volume
                under-provisioned or pinned at its limit), any (either), none (default)
  --region      EBS price table (default ${FLEET_DEFAULTS.region})
  --rates       your own rates over the region's, e.g. gp3.iops=0.005
  --min-days    less history than this is listed as too little (default 1)
  --min-points  fewer points than this is listed as too little (default 12)
${CATALOG_USAGE}

  Exit status: 0 planned; 1 a file is unreadable or not the AWS CLI output expected (the message
  names the file and field), or the plan fails --fail-on; 2 usage.`;

async function readJson(file: string, io: CliIo): Promise<unknown> {
  const text = await readText(file, io.cwd);
  try {
    return JSON.parse(text);
  } catch (error) {
    throw new FleetInputError(file, {
      code: 'json_invalid',
      message: `not JSON (${error instanceof Error ? error.message : String(error)}): expected the output of the aws cli with --output json`,
    });
  }
}

function valueOf<T>(file: string, r: Result<T>): T {
  if (!r.ok) throw new FleetInputError(file, r.error);
  return r.value;
}

function numberFlag(
  flag: string,
  text: string | undefined,
  fallback: number,
  ok: (n: number) => boolean,
  expected: string,
): number {
  if (text === undefined) return fallback;
  const n = Number(text);
  if (text.trim() === '' || !Number.isFinite(n) || !ok(n))
    throw new UsageError(`${flag}: expected ${expected}, got "${text}"`, flag);
  return n;
}

const periodOf = (text: string | undefined) =>
  numberFlag(
    '--period',
    text,
    300,
    (n) => Number.isInteger(n) && n >= 60 && n % 60 === 0,
    'a whole number of minutes in seconds (60, 300, 3600 …)',
  );

async function runQuery(argv: string[], io: CliIo): Promise<number> {
  const { values } = parseFlags(
    argv,
    {
      volumes: { type: 'string' },
      days: { type: 'string' },
      period: { type: 'string' },
      end: { type: 'string' },
      out: { type: 'string' },
      json: { type: 'boolean' },
      evidence: { type: 'string' },
    },
    false,
  );
  const evidence = FleetEvidenceFlagSchema.safeParse(values.evidence);
  if (!evidence.success)
    throw new UsageError(`--evidence: expected none, checks or all, got "${values.evidence}"`, '--evidence');
  if (values.volumes === undefined)
    throw new UsageError(
      '--volumes: required (aws ec2 describe-volumes --output json > volumes.json)',
      '--volumes',
    );
  const days = numberFlag(
    '--days',
    values.days,
    14,
    (n) => n > 0 && n <= 455,
    'days of history, more than 0 and at most 455',
  );
  const period = periodOf(values.period);
  // CloudWatch keeps 1-minute points 15 days, 5-minute points 63 days, 1-hour points 455 days (CloudWatch concepts, "Metrics retention").
  if (days > 15 && period < 300)
    throw new UsageError(
      '--period: CloudWatch keeps points under 5 minutes for 15 days only: use --period 300 or more',
      '--period',
    );
  if (days > 63 && period < 3600)
    throw new UsageError(
      '--period: CloudWatch keeps 5-minute points for 63 days: use --period 3600 for a longer history',
      '--period',
    );
  let end: Date | undefined;
  if (values.end !== undefined) {
    end = new Date(values.end);
    if (Number.isNaN(end.getTime()))
      throw new UsageError(
        `--end: expected an ISO 8601 date such as 2026-11-24T00:00:00Z, got "${values.end}"`,
        '--end',
      );
  }
  let volumes;
  try {
    volumes = valueOf(values.volumes, parseFleetVolumes(await readJson(values.volumes, io)));
  } catch (error) {
    if (error instanceof FleetInputError) return report(error, io, values.json === true);
    throw error;
  }
  const batches = buildMetricQueries({ volumes, days, periodSeconds: period, end, evidence: evidence.data });
  const sizingQueries = volumes.length * 6;
  const evidenceQueries = batches.reduce((n, b) => n + b.queries.length, 0) - sizingQueries;
  const price = GET_METRIC_DATA_PRICE;
  const cost = {
    usdPer1000Metrics: price.usdPer1000,
    priceRegion: price.region,
    priceDate: price.date,
    priceSource: price.source,
    sizingQueries,
    evidenceQueries,
    evidence: evidence.data,
    sizingUsd: price.usdFor(sizingQueries),
    evidenceUsd: price.usdFor(evidenceQueries),
  };
  if (values.out !== undefined) {
    const dir = resolve(io.cwd, values.out);
    await mkdir(dir, { recursive: true });
    for (const b of batches)
      await writeFile(join(dir, b.fileName), `${JSON.stringify(b.queries, null, 2)}\n`);
  }
  if (values.json) {
    io.stdout(`${JSON.stringify({ batches, cost }, null, 2)}\n`);
    return EXIT.ok;
  }
  const pointsPerQuery = Math.ceil((days * 86_400) / period);
  const lines: string[] = [
    `# ${volumes.length} volumes × 6 sizing metrics = ${sizingQueries} queries, + ${evidenceQueries} evidence queries (--evidence ${evidence.data}), in ${batches.length} batch(es) of at most ${MAX_QUERIES_PER_REQUEST}; ${pointsPerQuery} points per query over ${days} days`,
    `# Cost: GetMetricData is priced per metric requested, USD ${price.usdPer1000} per 1,000 (${price.region}, ${price.source}, as of ${price.date}):`,
    `#   sizing ${usd4(cost.sizingUsd)} + evidence ${usd4(cost.evidenceUsd)} = ${usd4(cost.sizingUsd + cost.evidenceUsd)} per run of these commands (other regions may differ)`,
  ];
  for (const b of batches) {
    lines.push(
      '',
      `# Batch ${b.index} of ${batches.length} (${b.queries.length} queries)${values.out !== undefined ? `: written to ${join(values.out, b.fileName)}; run it from that folder` : `: save the JSON below as ${b.fileName}, then run`}`,
    );
    lines.push(b.command);
    if (values.out === undefined) lines.push(JSON.stringify(b.queries, null, 2));
  }
  lines.push(
    '',
    `# A response holds at most ${MAX_POINTS_PER_RESPONSE.toLocaleString('en-US')} points and continues with NextToken. The aws cli follows NextToken itself`,
    '# and merges the pages into one output; with --no-paginate or --max-items, save each page and pass every',
    '# file: blockwise fleet plan --volumes volumes.json --metrics metrics-1.json --metrics metrics-2.json …',
  );
  io.stdout(`${lines.join('\n')}\n`);
  return EXIT.ok;
}

/** Fractions of a cent matter here: 60 queries cost USD 0.0006. */
const usd4 = (usd: number) => `$${usd.toFixed(4)}`;

function report(error: FleetInputError, io: CliIo, json: boolean): number {
  if (json) io.stdout(`${JSON.stringify({ error: { ...error.problem, file: error.file } })}\n`);
  else {
    // Messages from the metrics reader already start with the file name.
    const message = error.problem.message.startsWith(`${error.file}: `)
      ? error.problem.message.slice(error.file.length + 2)
      : error.problem.message;
    io.stderr(`blockwise fleet: ${escapeText(error.file)}: ${escapeText(message)} [${error.problem.code}]\n`);
  }
  return EXIT.failed;
}

type Format = 'text' | 'markdown' | 'json' | 'csv';

function formatOf(values: { json?: boolean; csv?: boolean; format?: string }): Format {
  const chosen = [values.json && 'json', values.csv && 'csv', values.format].filter(Boolean) as string[];
  if (new Set(chosen).size > 1)
    throw new UsageError('--json, --csv and --format: give one output format', '--format');
  const f = chosen[0] ?? 'text';
  if (f !== 'text' && f !== 'markdown' && f !== 'json' && f !== 'csv')
    throw new UsageError(`--format: expected text, markdown, json or csv, got "${f}"`, '--format');
  return f;
}

async function runPlan(argv: string[], io: CliIo): Promise<number> {
  const { values } = parseFlags(
    argv,
    {
      volumes: { type: 'string' },
      metrics: { type: 'string', multiple: true },
      instances: { type: 'string' },
      headroom: { type: 'string' },
      statistic: { type: 'string' },
      region: { type: 'string' },
      rates: { type: 'string' },
      period: { type: 'string' },
      'min-days': { type: 'string' },
      'min-points': { type: 'string' },
      json: { type: 'boolean' },
      csv: { type: 'boolean' },
      format: { type: 'string' },
      'ignore-recurring': { type: 'boolean' },
      'fail-on': { type: 'string' },
      ...CATALOG_FLAG,
    },
    false,
  );
  const failOn = values['fail-on'] ?? 'none';
  if (!['incomplete', 'under', 'any', 'none'].includes(failOn))
    throw new UsageError(`--fail-on: expected incomplete, under, any or none, got "${failOn}"`, '--fail-on');
  const format = formatOf(values);
  if (values.volumes === undefined)
    throw new UsageError(
      '--volumes: required (aws ec2 describe-volumes --output json > volumes.json)',
      '--volumes',
    );
  if (!values.metrics || values.metrics.length === 0)
    throw new UsageError(
      '--metrics: required, once per get-metric-data output (run `blockwise fleet query` for the commands)',
      '--metrics',
    );
  const headroom = numberFlag(
    '--headroom',
    values.headroom,
    FLEET_DEFAULTS.headroom,
    (n) => n >= FLEET_HEADROOM_BOUNDS.min && n <= FLEET_HEADROOM_BOUNDS.max,
    `a fraction from ${FLEET_HEADROOM_BOUNDS.min} to ${FLEET_HEADROOM_BOUNDS.max}, e.g. 0.25 for 25%`,
  );
  const stat = FleetStatisticSchema.safeParse(values.statistic ?? FLEET_DEFAULTS.statistic);
  if (!stat.success)
    throw new UsageError(`--statistic: expected max, p99 or p95, got "${values.statistic}"`, '--statistic');
  const statistic: FleetStatistic = stat.data;
  // Given, it is checked against the files; else each volume's Period comes from its timestamps.
  const periodSeconds = values.period === undefined ? undefined : periodOf(values.period);
  const minHistoryDays = numberFlag(
    '--min-days',
    values['min-days'],
    1,
    (n) => n >= 0,
    'a number of days ≥ 0',
  );
  const minPoints = numberFlag(
    '--min-points',
    values['min-points'],
    12,
    (n) => Number.isInteger(n) && n >= 1,
    'a whole number ≥ 1',
  );
  await applyCatalogFlag(values.catalog, io);
  const rateCard = resolveRegionRateCard(values.region ?? FLEET_DEFAULTS.region, values.rates);
  const region = rateCard.region ?? values.region ?? FLEET_DEFAULTS.region;
  const snapshot =
    region !== null && Object.hasOwn(activeCatalog().ebs, region)
      ? (activeCatalog().ebs[region]!.snapshot.standard ?? null)
      : null;
  const catalog: FleetCatalog = {
    rateCard,
    findInstance: findInstanceType,
    instancePool: upgradePool,
    snapshotUsdPerGibMonth: snapshot,
  };

  try {
    const volumes = valueOf(values.volumes, parseFleetVolumes(await readJson(values.volumes, io)));
    let instances: FleetInstance[] | undefined;
    if (values.instances !== undefined)
      instances = valueOf(values.instances, parseFleetInstances(await readJson(values.instances, io)));
    // Large inputs are read in worker threads, one per core (fleet-metrics.ts; docs/fleet.md §5).
    const volumeIds = volumes.map((v) => v.volumeId);
    const threads = await threadsFor(values.metrics, io.cwd);
    // Volumes sharing an instance are summed point by point while reading (docs/fleet.md §2).
    const metrics = await readMetricsFiles(
      values.metrics,
      io.cwd,
      volumeIds,
      threads,
      periodSeconds,
      concurrencyGroupsOf(volumes),
    );
    const plan = planFleet({
      volumes,
      metrics,
      instances,
      catalog,
      headroom,
      statistic,
      region,
      minHistoryDays,
      minPoints,
      ...(periodSeconds !== undefined ? { periodSeconds } : {}),
      ...(values['ignore-recurring'] === true ? { ignoreRecurring: true } : {}),
    });
    if (format === 'json') io.stdout(`${JSON.stringify(plan, null, 2)}\n`);
    else if (format === 'csv') io.stdout(fleetPlanToCsv(plan));
    else if (format === 'markdown') io.stdout(fleetPlanToMarkdown(plan));
    else io.stdout(fleetPlanToText(plan));
    // Incomplete data is never silent (demand model): named on stderr, and an exit status on request.
    const incomplete = plan.incomplete ?? [];
    if (incomplete.length > 0 && format !== 'json')
      io.stderr(
        `fleet plan: INCOMPLETE data for ${incomplete.length} volume(s):\n${incomplete.map((i) => `  ${i.volumeId}: ${escapeText(i.reason)}`).join('\n')}\n`,
      );
    const under = plan.volumes.some((v) => v.status === 'under');
    const fails =
      (incomplete.length > 0 && (failOn === 'incomplete' || failOn === 'any')) ||
      (under && (failOn === 'under' || failOn === 'any'));
    return fails ? EXIT.failed : EXIT.ok;
  } catch (error) {
    if (error instanceof FleetInputError) return report(error, io, format === 'json');
    throw error;
  }
}

export const fleetCommand: Command = {
  summary: 'right-size every EBS volume of an account from describe-volumes and CloudWatch data',
  usage: `${usage}\n\n  ${MODIFICATION_RULE}`,
  run: async (argv, io) => {
    const [sub, ...rest] = argv;
    if (sub === 'query') return runQuery(rest, io);
    if (sub === 'plan') return runPlan(rest, io);
    throw new UsageError(
      `expected a subcommand, query or plan, got ${sub === undefined ? 'nothing' : `"${sub}"`}`,
    );
  },
};
