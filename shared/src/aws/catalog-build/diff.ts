import { sourceDate } from '../active-catalog.ts';
import { INSTANCE_COLUMNS, type CatalogData, type EbsRegion } from '../catalog-schema.ts';

/** What changed between two catalogs, as `blockwise catalog update` prints it. */
export type CatalogDiff = {
  ebsRegionsAdded: { region: string; location: string | null; date: string }[];
  ebsRegionsRemoved: string[];
  /** Regions whose prices moved, with each component that changed (null: no price). */
  ebsRegionsChanged: {
    region: string;
    from: string;
    to: string;
    changes: { component: string; before: number | null; after: number | null }[];
  }[];
  /** Regions whose prices were re-read and did not change: only the date moved. */
  ebsRegionsUnchanged: number;
  ec2: { region: string; before: number; after: number; added: number; removed: number; changed: number }[];
  instancesAdded: string[];
  instancesRemoved: string[];
  instancesChanged: { instanceType: string; fields: string[] }[];
};

const dateOf = (catalog: CatalogData, region: EbsRegion) => {
  const source = catalog.sources[region.source];
  return source ? sourceDate(source) : 'unknown';
};

function ebsComponents(region: EbsRegion): Map<string, number | null> {
  const out = new Map<string, number | null>();
  for (const [type, rates] of Object.entries(region.rates))
    for (const [key, value] of Object.entries(rates)) out.set(`${type}.${key}`, value);
  out.set('snapshot.standard', region.snapshot.standard);
  out.set('snapshot.archive', region.snapshot.archive);
  return out;
}

export function diffCatalogs(before: CatalogData, after: CatalogData): CatalogDiff {
  const diff: CatalogDiff = {
    ebsRegionsAdded: [],
    ebsRegionsRemoved: Object.keys(before.ebs).filter((r) => !Object.hasOwn(after.ebs, r)),
    ebsRegionsChanged: [],
    ebsRegionsUnchanged: 0,
    ec2: [],
    instancesAdded: [],
    instancesRemoved: [],
    instancesChanged: [],
  };
  for (const [region, next] of Object.entries(after.ebs)) {
    const prev = Object.hasOwn(before.ebs, region) ? before.ebs[region] : undefined;
    if (!prev) {
      diff.ebsRegionsAdded.push({ region, location: next.location, date: dateOf(after, next) });
      continue;
    }
    if (
      prev.source === next.source &&
      before.sources[prev.source]?.fetchedAt === after.sources[next.source]?.fetchedAt
    )
      continue;
    const old = ebsComponents(prev);
    const changes = [...ebsComponents(next)]
      .filter(([component, value]) => old.get(component) !== value)
      .map(([component, value]) => ({ component, before: old.get(component) ?? null, after: value }));
    if (changes.length === 0) diff.ebsRegionsUnchanged++;
    else
      diff.ebsRegionsChanged.push({ region, from: dateOf(before, prev), to: dateOf(after, next), changes });
  }
  for (const [region, next] of Object.entries(after.ec2)) {
    const prev = before.ec2[region]?.usdPerHour ?? {};
    const types = new Set([...Object.keys(prev), ...Object.keys(next.usdPerHour)]);
    let added = 0;
    let removed = 0;
    let changed = 0;
    for (const t of types) {
      const a = Object.hasOwn(prev, t) ? prev[t] : undefined;
      const b = Object.hasOwn(next.usdPerHour, t) ? next.usdPerHour[t] : undefined;
      if (a === undefined) added++;
      else if (b === undefined) removed++;
      else if (a !== b) changed++;
    }
    if (added + removed + changed > 0)
      diff.ec2.push({
        region,
        before: Object.keys(prev).length,
        after: Object.keys(next.usdPerHour).length,
        added,
        removed,
        changed,
      });
  }
  const oldRows = new Map(before.instances.rows.map((r) => [r[0], r]));
  const newNames = new Set(after.instances.rows.map((r) => r[0]));
  diff.instancesRemoved = [...oldRows.keys()].filter((t) => !newNames.has(t));
  // Numbers and attributes only: a new source for the same numbers is not a change.
  const compared = INSTANCE_COLUMNS.slice(2, 18);
  for (const row of after.instances.rows) {
    const old = oldRows.get(row[0]);
    if (!old) {
      diff.instancesAdded.push(row[0]);
      continue;
    }
    const fields = compared.filter((_, i) => old[i + 2] !== row[i + 2]);
    if (fields.length > 0) diff.instancesChanged.push({ instanceType: row[0], fields: [...fields] });
  }
  return diff;
}

const price = (v: number | null) => (v === null ? '—' : `$${v}`);
const list = (names: string[], max = 12) =>
  `${names.slice(0, max).join(', ')}${names.length > max ? `, … (${names.length - max} more)` : ''}`;

/** The diff as lines for a terminal; "no changes" when there are none. */
export function formatCatalogDiff(diff: CatalogDiff): string {
  const out: string[] = [];
  for (const r of diff.ebsRegionsAdded)
    out.push(
      `+ EBS prices for ${r.region}${r.location ? ` (${r.location})` : ''}, as of ${r.date}: new region`,
    );
  for (const r of diff.ebsRegionsRemoved) out.push(`- EBS prices for ${r}: removed`);
  for (const r of diff.ebsRegionsChanged) {
    out.push(`~ EBS ${r.region} (${r.from} → ${r.to}):`);
    for (const c of r.changes)
      out.push(`    ${c.component.padEnd(18)} ${price(c.before)} → ${price(c.after)}`);
  }
  if (diff.ebsRegionsUnchanged > 0)
    out.push(`  EBS prices of ${diff.ebsRegionsUnchanged} region(s) re-read, unchanged (new date)`);
  for (const e of diff.ec2)
    out.push(
      `~ EC2 on-demand Linux prices, ${e.region}: ${e.before} → ${e.after} types (${e.added} added, ${e.removed} removed, ${e.changed} changed)`,
    );
  if (diff.instancesAdded.length > 0)
    out.push(`+ ${diff.instancesAdded.length} instance type(s): ${list(diff.instancesAdded)}`);
  if (diff.instancesRemoved.length > 0)
    out.push(`- ${diff.instancesRemoved.length} instance type(s): ${list(diff.instancesRemoved)}`);
  if (diff.instancesChanged.length > 0) {
    out.push(`~ ${diff.instancesChanged.length} instance type(s) changed:`);
    for (const c of diff.instancesChanged.slice(0, 12))
      out.push(`    ${c.instanceType}: ${c.fields.join(', ')}`);
    if (diff.instancesChanged.length > 12) out.push(`    … (${diff.instancesChanged.length - 12} more)`);
  }
  return out.length > 0 ? `${out.join('\n')}\n` : 'no changes\n';
}
