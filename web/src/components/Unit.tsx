import { unitName } from '../lib/format.ts';

/** A unit abbreviation with its meaning on hover ("Mbps" → megabits per second, MB/s = Mbps ÷ 8). */
export function Unit({ unit }: { unit: string }) {
  return (
    <abbr className="unit" title={unitName(unit)}>
      {unit}
    </abbr>
  );
}

/** A number with its unit, e.g. <Quantity value="566.2" unit="MiB/s" />. */
export function Quantity({ value, unit }: { value: string; unit: string }) {
  return (
    <span className="quantity">
      <span className="quantity__value">{value}</span> <Unit unit={unit} />
    </span>
  );
}
