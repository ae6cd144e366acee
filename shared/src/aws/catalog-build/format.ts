import type { CatalogData } from '../catalog-schema.ts';

const json = (v: unknown) => JSON.stringify(v);
const lines = (entries: [string, unknown][], value: (v: unknown) => string = json) =>
  entries.map(([k, v]) => `${json(k)}:${value(v)}`).join(',\n');

/**
 * The catalog as text: compact, one source / region / instance type per line, so the committed
 * built-in catalog reviews as a readable diff when it is regenerated.
 */
export function formatCatalog(catalog: CatalogData): string {
  const { format, generatedAt, note, sources, ebs, ec2, instances, dVariantPairs } = catalog;
  const ec2Text = Object.entries(ec2)
    .map(
      ([region, r]) =>
        `${json(region)}:{"source":${json(r.source)},"usdPerHour":{\n${lines(Object.entries(r.usdPerHour))}\n}}`,
    )
    .join(',\n');
  return [
    `{"format":${json(format)},"generatedAt":${json(generatedAt)},${note === undefined ? '' : `"note":${json(note)},`}`,
    `"sources":{\n${lines(Object.entries(sources))}\n},`,
    `"ebs":{\n${lines(Object.entries(ebs))}\n},`,
    `"ec2":{\n${ec2Text}\n},`,
    `"instances":{"columns":${json(instances.columns)},"rows":[\n${instances.rows.map(json).join(',\n')}\n]},`,
    `"dVariantPairs":[\n${dVariantPairs.map(json).join(',\n')}\n]}`,
    '',
  ].join('\n');
}
