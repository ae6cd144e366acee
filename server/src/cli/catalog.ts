import { existsSync } from 'node:fs';
import { resolve } from 'node:path';
import { pricesOlderThanAYear } from '@blockwise/shared/aws';
import {
  activeCatalog,
  builtInCatalog,
  catalogInfo,
  describeSource,
  formatCatalogDiff,
  sourceDate,
  type CatalogData,
} from '@blockwise/shared/catalog';
import { CatalogInputError } from '../catalog/errors.ts';
import { loadCatalogFile, useCatalog } from '../catalog/load.ts';
import { DEFAULT_OFFERS_BASE } from '../catalog/offer-source.ts';
import { buildUpdatedCatalog, writeCatalogAtomically } from '../catalog/update.ts';
import { EXIT, UsageError, parseFlags, type CliIo, type Command } from './io.ts';

const usage = `Usage: blockwise catalog update [--offers BASE|none]... [--instances FILE]... [--regions R1,R2]
                                [--out FILE] [--base builtin|FILE]
       blockwise catalog show [--catalog FILE]

  update  refreshes prices and instance limits from AWS's public sources and writes one catalog
          file that plan, cost and serve read with --catalog FILE (or BLOCKWISE_CATALOG):
  --offers     the AWS Price List bulk API base (default ${DEFAULT_OFFERS_BASE}, public, no
               account), a mirror URL, or a folder mirroring its paths:
               BASE/offers/v1.0/aws/AmazonEC2/current/region_index.json, then each region's
               currentVersionUrl. EBS prices (storage, gp3 IOPS and throughput, io1/io2 IOPS with
               io2's three tiers, snapshots) and on-demand Linux instance prices. A region's file
               is hundreds of MB to GB: it is streamed, never held. "none": no prices this time
  --instances  a saved \`aws ec2 describe-instance-types --output json\` (EBS limits, attachment
               limits, instance store layout), merged over the catalog's instance types
  --regions    only these regions of the region index (default: all)
  --out        the catalog to write (default: BLOCKWISE_CATALOG, else ./blockwise-catalog.json).
               Written to a temporary file, then renamed: a failed update leaves it as it was
  --base       what the inputs are merged over: builtin, or a catalog file (default: --out when
               it exists, else builtin). Regions and types the inputs do not list keep theirs

  Prints what changed. AWS publishes a new price list version whenever prices change (no fixed
  schedule: AmazonEC2's version index shows one every few weeks); refresh before planning real
  money, monthly at least (plan, cost and the web app warn when prices are over a year old).

  show    where the catalog in use comes from: dates, sources, regions`;

export const catalogCommand: Command = {
  summary:
    'Refresh EBS/EC2 prices and instance limits from AWS (catalog update), or show the catalog in use.',
  usage,
  async run(argv, io) {
    const [sub, ...rest] = argv;
    if (sub === 'update') return update(rest, io);
    if (sub === 'show') return show(rest, io);
    throw new UsageError(`expected a subcommand: update or show${sub ? `, got "${sub}"` : ''}`);
  },
};

async function update(argv: string[], io: CliIo): Promise<number> {
  const { values } = parseFlags(
    argv,
    {
      offers: { type: 'string', multiple: true },
      instances: { type: 'string', multiple: true },
      regions: { type: 'string' },
      out: { type: 'string' },
      base: { type: 'string' },
    },
    false,
  );
  const out = values.out ?? (io.env.BLOCKWISE_CATALOG || 'blockwise-catalog.json');
  const outPath = resolve(io.cwd, out);
  const offers = values.offers ?? [DEFAULT_OFFERS_BASE];
  const regions = values.regions === undefined ? null : parseRegions(values.regions);
  try {
    const base = await baseCatalog(values.base, out, outPath, io);
    io.stderr(`Merging over ${base.label}\n`);
    const result = await buildUpdatedCatalog({
      base: base.catalog,
      offers: offers.filter((o) => o !== 'none').map((o) => ({ base: o })),
      instances: (values.instances ?? []).map((file) => ({ file })),
      regions,
      cwd: io.cwd,
      now: new Date(),
      log: (line) => io.stderr(`  ${line}\n`),
    });
    for (const w of result.warnings) io.stderr(`warning: ${w}\n`);
    await writeCatalogAtomically(outPath, result.catalog);
    io.stdout(formatCatalogDiff(result.diff));
    const c = result.catalog;
    io.stdout(
      `Wrote ${out}: EBS prices for ${Object.keys(c.ebs).length} regions, EC2 prices for ${Object.keys(c.ec2).length}, ${c.instances.rows.length} instance types. Use it with --catalog ${out} (or BLOCKWISE_CATALOG=${out}).\n`,
    );
    return EXIT.ok;
  } catch (error) {
    if (!(error instanceof CatalogInputError)) throw error;
    const flag = (error as CatalogInputError & { flag?: string }).flag;
    if (flag) throw new UsageError(`${flag}: ${error.message}`, flag);
    io.stderr(
      `blockwise catalog update: ${error.message}\nNothing was written${existsSync(outPath) ? `; ${out} is unchanged` : ''}.\n`,
    );
    return EXIT.failed;
  }
}

function parseRegions(text: string): string[] {
  const regions = text
    .split(',')
    .map((r) => r.trim())
    .filter(Boolean);
  if (regions.length === 0 || regions.some((r) => !/^[a-z0-9-]+$/.test(r)))
    throw new UsageError(
      `--regions: expected region codes such as us-east-1,eu-west-1, got "${text}"`,
      '--regions',
    );
  return regions;
}

async function baseCatalog(
  flag: string | undefined,
  out: string,
  outPath: string,
  io: CliIo,
): Promise<{ catalog: CatalogData; label: string }> {
  if (flag === 'builtin') return { catalog: builtInCatalog(), label: 'the built-in catalog' };
  if (flag !== undefined) return { catalog: await loadCatalogFile(flag, io.cwd), label: flag };
  if (!existsSync(outPath)) return { catalog: builtInCatalog(), label: 'the built-in catalog' };
  try {
    return { catalog: await loadCatalogFile(out, io.cwd), label: `the previous ${out}` };
  } catch (error) {
    if (error instanceof CatalogInputError)
      throw new CatalogInputError(
        error.file,
        error.field,
        `${error.reason}; to start over from the built-in catalog, pass --base builtin`,
      );
    throw error;
  }
}

async function show(argv: string[], io: CliIo): Promise<number> {
  const { values } = parseFlags(argv, { catalog: { type: 'string' } }, false);
  try {
    await useCatalog(values.catalog, io.env, io.cwd);
  } catch (error) {
    if (!(error instanceof CatalogInputError)) throw error;
    io.stderr(`blockwise catalog show: ${error.message}\n`);
    return EXIT.failed;
  }
  const info = catalogInfo();
  const catalog = activeCatalog();
  const lines = [
    `Catalog: ${info.origin}${info.builtIn ? ' (shipped with Blockwise)' : ''}, written ${info.generatedAt.slice(0, 10)}`,
    `  EBS prices: ${info.ebsRegions} regions, dated ${info.pricesFrom ?? '—'} to ${info.pricesTo ?? '—'}`,
    `  EC2 on-demand prices: ${Object.keys(catalog.ec2).join(', ') || 'none'}`,
    `  Instance types: ${info.instanceTypes}`,
  ];
  if (info.pricesFrom && pricesOlderThanAYear(info.pricesFrom, new Date()))
    lines.push(
      `  Warning: some prices are from ${info.pricesFrom}, over a year old: refresh with \`blockwise catalog update\`.`,
    );
  lines.push('', 'Sources:');
  for (const source of Object.values(catalog.sources))
    lines.push(`  ${source.id} [${sourceDate(source)}]: ${describeSource(source)}`, `    ${source.location}`);
  io.stdout(`${lines.join('\n')}\n`);
  return EXIT.ok;
}
