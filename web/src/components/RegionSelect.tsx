import { SelectField } from './Field.tsx';

/**
 * The price region picker: one option per region ("us-east-1 — US East (N. Virginia)"), from the
 * list the caller filtered (regions with a complete EBS price table). A value missing from the
 * list (the catalog not loaded yet, a region from a link) stays shown rather than silently
 * displaying another region.
 */
export function RegionSelect({
  regions,
  value,
  onChange,
  label,
  hint,
  id,
}: {
  regions: readonly { code: string; location: string }[];
  value: string;
  onChange: (region: string) => void;
  label: string;
  hint?: string;
  id?: string;
}) {
  return (
    <SelectField
      {...(id ? { id } : {})}
      label={label}
      {...(hint ? { hint } : {})}
      value={value}
      onChange={(e) => onChange(e.target.value)}
    >
      {regions.some((r) => r.code === value) ? null : <option value={value}>{value}</option>}
      {regions.map((r) => (
        <option key={r.code} value={r.code}>
          {r.code} — {r.location}
        </option>
      ))}
    </SelectField>
  );
}
