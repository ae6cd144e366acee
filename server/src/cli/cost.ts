import { missingPrices, VOLUME_TRAITS, VOLUME_TYPES } from '@blockwise/shared/aws';
import {
  clusterMonthlyCost,
  costPerCapability,
  durationCost,
  monthlyCost,
  validateVolume,
  type DurationCost,
  type VolumeConfig,
} from '@blockwise/shared/plan';
import { formatUsd } from '@blockwise/shared/units';
import {
  parseCount,
  parseGp3Generation,
  parseHoursFlag,
  parseSizeFlag,
  parseThroughputMiBps,
  parseVolumeType,
  requireFlag,
  resolveRateCardFor,
  volumeUsageError,
} from './flags.ts';
import { CATALOG_FLAG, CATALOG_USAGE, applyCatalogFlag, staleRatesNote } from './catalog-flag.ts';
import { EXIT, parseFlags, type Command } from './io.ts';

const usage = `Usage: blockwise cost --type gp3|gp2|io1|io2|st1|sc1 --size SIZE [--iops N] [--throughput RATE]
                      [--region us-east-1 | --rates k=v,...] [--count N] [--nodes N] [--hours H]
                      [--gp3-limits current|before-2025]
                      [--catalog FILE] [--json]

  --size        GiB, or with a unit: 1000, 1TiB, 500GiB
  --iops        provisioned IOPS (gp3, io1, io2): 16000 or 16k
  --throughput  gp3 MiB/s, provisioned whole: 500, 500MiB/s (a fraction is rounded up, with a note;
                MB/s and Mbps are refused: they never land on a whole MiB/s)
  --region      EBS price table (default us-east-1; dated, with source). A region whose table
                lacks the type's price (sa-east-1 has no io2 price) is refused for that type only
  --rates       your own rates over the region's: storage=0.08,iops=0.005,throughput=0.06
                (io2 tiers: iops, iops2, iops3; or qualified gp3.storage=…)
  --count       identical volumes (striped or one per mount), default 1
  --nodes       instances carrying this configuration, default 1
  --hours       how long the volumes live, for short-lived ones (a CI runner's): 0.2, or 12m, 720s.
                EBS bills per second with a 60-second minimum; the monthly rates are spread over
                730 h (docs/domain.md §8)
${CATALOG_USAGE}`;

export const costCommand: Command = {
  summary: 'Monthly cost of an EBS volume configuration: storage, IOPS and throughput, × volumes × nodes.',
  usage,
  async run(argv, io) {
    const { values } = parseFlags(
      argv,
      {
        type: { type: 'string' },
        size: { type: 'string' },
        iops: { type: 'string' },
        throughput: { type: 'string' },
        region: { type: 'string' },
        rates: { type: 'string' },
        count: { type: 'string' },
        nodes: { type: 'string' },
        hours: { type: 'string' },
        'gp3-limits': { type: 'string' },
        ...CATALOG_FLAG,
        json: { type: 'boolean' },
      },
      false,
    );
    await applyCatalogFlag(values.catalog, io);
    const type = parseVolumeType(
      requireFlag(values.type, '--type', `${VOLUME_TYPES.slice(0, -1).join(', ')} or ${VOLUME_TYPES.at(-1)}`),
    );
    const volume: VolumeConfig = {
      type,
      sizeGiB: parseSizeFlag(requireFlag(values.size, '--size', 'e.g. 1000 or 1TiB')),
    };
    if (values.iops !== undefined) volume.iops = parseCount(values.iops, '--iops', { min: 1 });
    if (values.throughput !== undefined)
      volume.throughputMiBps = parseThroughputMiBps(values.throughput, '--throughput', io);
    const count = values.count === undefined ? 1 : parseCount(values.count, '--count', { min: 1, max: 64 });
    const nodes =
      values.nodes === undefined ? 1 : parseCount(values.nodes, '--nodes', { min: 1, max: 100_000 });
    const lifeSeconds = values.hours === undefined ? null : parseHoursFlag(values.hours, '--hours');
    const problems = validateVolume(volume, parseGp3Generation(values['gp3-limits']));
    if (problems.length > 0) throw volumeUsageError(problems);
    const rates = resolveRateCardFor(values.region, values.rates, type);

    const perVolume = monthlyCost(volume, rates);
    const per = costPerCapability(volume, rates);
    // The fleet total as the planner computes it: per component, × volumes × nodes, then summed.
    const total = clusterMonthlyCost({ ...volume, count }, rates, nodes).total;
    const unpriced = missingPrices(rates).map((m) => m.type);
    const forLife =
      lifeSeconds === null ? null : durationCost({ ...volume, count }, rates, lifeSeconds, nodes);
    if (values.json) {
      io.stdout(
        `${JSON.stringify({
          volume,
          monthlyUsd: perVolume,
          count,
          nodes,
          totalMonthlyUsd: total,
          ...(forLife ? { forDuration: { ...forLife, hours: forLife.seconds / 3600 } } : {}),
          perProvisioned: { usdPerIops: per.usdPerIops, usdPerMiBps: per.usdPerMiBps },
          rates,
        })}\n`,
      );
      return EXIT.ok;
    }
    const lines = [
      `${VOLUME_TRAITS[type].name}, ${volume.sizeGiB} GiB${volume.iops ? `, ${volume.iops.toLocaleString('en-US')} IOPS` : ''}${volume.throughputMiBps ? `, ${volume.throughputMiBps} MiB/s` : ''}`,
      `  storage      ${formatUsd(perVolume.storage).padStart(12)} / month`,
      `  IOPS         ${formatUsd(perVolume.iops).padStart(12)} / month`,
      `  throughput   ${formatUsd(perVolume.throughput).padStart(12)} / month`,
      `  per volume   ${formatUsd(perVolume.total).padStart(12)} / month`,
      count * nodes > 1 ? `  × ${count} volume(s) × ${nodes} node(s) = ${formatUsd(total)} / month` : null,
      forLife ? durationLine(forLife, count * nodes) : null,
      `  ${formatUsd(per.usdPerIops * 1000)} per 1,000 IOPS-month, ${formatUsd(per.usdPerMiBps)} per MiB/s-month of what it delivers`,
      `Rates: ${rates.region ?? 'custom'}${rates.location ? ` (${rates.location})` : ''}, as of ${rates.date}; ${rates.source}`,
      unpriced.length > 0 ? `  (no ${unpriced.join(', ')} price in this table)` : null,
      staleRatesNote(rates.date),
    ].filter((l) => l !== null);
    io.stdout(`${lines.join('\n')}\n`);
    return EXIT.ok;
  },
};

/** "for 12 min (720 s billed): $0.002192 …": per-second billing, 60-s minimum, 730-h month. */
function durationLine(cost: DurationCost, volumes: number): string {
  const lived =
    cost.seconds < 3600 ? `${+(cost.seconds / 60).toFixed(2)} min` : `${+(cost.seconds / 3600).toFixed(3)} h`;
  const what = volumes > 1 ? `all ${volumes} volumes` : 'the volume';
  return [
    `  for ${lived} (${cost.billedSeconds.toLocaleString('en-US')} s billed): $${cost.total.toFixed(6)} for ${what}`,
    `    storage $${cost.storage.toFixed(6)}, IOPS $${cost.iops.toFixed(6)}, throughput $${cost.throughput.toFixed(6)}`,
    `    (monthly rates × billed seconds ÷ 2,628,000 s in 730 h; per-second billing, 60-second minimum)`,
  ].join('\n');
}
