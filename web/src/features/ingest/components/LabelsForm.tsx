import {
  VOLUME_TRAITS,
  VOLUME_TYPES,
  provisionableGp3ThroughputMiBps,
  type InstanceSpec,
  type VolumeType,
} from '@blockwise/shared/aws';
import {
  includedSettingsOf,
  provisionedFieldsOf,
  validateVolume,
  volumeFromLabels,
} from '@blockwise/shared/plan';
import { RunLabelsSchema, type RunLabels } from '@blockwise/shared/records';
import { useId, useState } from 'react';
import { SelectField, TextField } from '../../../components/Field.tsx';
import { numberProblem, numberText, parseNumberText, suffixRefusal } from '../../../lib/parse-number.ts';
import { InstanceCombobox } from '../../../components/InstanceCombobox.tsx';

/**
 * What a run measured: local NVMe or an EBS volume (type, size, IOPS, throughput, striping), on
 * which instance type, in which region. Validated with the API's RunLabelsSchema and the volume
 * rules (`validateVolume`); valid labels apply at once, so the analysis follows the typing.
 */

export type Region = { code: string; location: string };

type Draft = {
  name: string;
  kind: '' | 'nvme' | 'ebs';
  instanceType: string | null;
  region: string;
  volumeType: VolumeType | '';
  size: string;
  iops: string;
  throughput: string;
  count: string;
};

function draftOf(l: RunLabels): Draft {
  return {
    name: l.name ?? '',
    kind: l.kind ?? '',
    instanceType: l.instanceType ?? null,
    region: l.region ?? '',
    volumeType: l.volumeType ?? '',
    size: numberText(l.volumeSizeGiB),
    iops: numberText(l.volumeIops),
    throughput: numberText(l.volumeThroughputMiBps),
    count: numberText(l.volumeCount),
  };
}

type Errors = Partial<
  Record<'name' | 'size' | 'iops' | 'throughput' | 'count' | 'instanceType' | 'region' | 'form', string>
>;

type NumberField = 'size' | 'iops' | 'throughput' | 'count';
/** IOPS and volume counts are counts ("16k"); size and throughput have a unit beside them. */
const FIELD_UNITS: Partial<Record<NumberField, string>> = { size: 'GiB', throughput: 'MiB/s' };

/** Draft → RunLabels, or the errors by field. */
export function readLabels(d: Draft): { ok: true; labels: RunLabels } | { ok: false; errors: Errors } {
  const errors: Errors = {};
  const num = (text: string, field: NumberField, what: string) => {
    if (text.trim() === '') return undefined;
    const unit = FIELD_UNITS[field];
    const n = parseNumberText(text, { suffixes: unit === undefined });
    if (unit !== undefined && numberProblem(text) === 'suffix') {
      errors[field] = `${what}: ${suffixRefusal(unit)}`;
      return undefined;
    }
    if (n === null || n <= 0) {
      errors[field] = `${what}: expected a positive number.`;
      return undefined;
    }
    return n;
  };
  const labels: RunLabels = {};
  if (d.name.trim()) labels.name = d.name.trim();
  if (d.kind) labels.kind = d.kind;
  if (d.instanceType) labels.instanceType = d.instanceType;
  if (d.region) labels.region = d.region;
  if (d.kind === 'ebs' && d.volumeType) {
    labels.volumeType = d.volumeType;
    const size = num(d.size, 'size', 'Size');
    if (size !== undefined) labels.volumeSizeGiB = size;
    const takes = provisionedFieldsOf(d.volumeType);
    if (takes.iops) {
      const iops = num(d.iops, 'iops', 'IOPS');
      if (iops !== undefined) labels.volumeIops = iops;
    }
    if (takes.throughputMiBps) {
      const tp = num(d.throughput, 'throughput', 'Throughput');
      // gp3 throughput is provisioned in whole MiB/s; the field says so when it rounds.
      if (tp !== undefined) labels.volumeThroughputMiBps = provisionableGp3ThroughputMiBps(tp);
    }
    const count = num(d.count, 'count', 'Striped volumes');
    if (count !== undefined) {
      if (!Number.isInteger(count) || count > 64)
        errors.count = 'Striped volumes: a whole number from 1 to 64.';
      else labels.volumeCount = count;
    }
  }
  const parsed = RunLabelsSchema.safeParse(labels);
  if (!parsed.success) {
    for (const issue of parsed.error.issues) {
      const key = String(issue.path[0] ?? 'form');
      const field =
        (
          {
            volumeSizeGiB: 'size',
            volumeIops: 'iops',
            volumeThroughputMiBps: 'throughput',
            volumeCount: 'count',
          } as Record<string, keyof Errors>
        )[key] ?? (key as keyof Errors);
      errors[field] ??= issue.message;
    }
  }
  const volume = volumeFromLabels(labels);
  if (volume && !errors.size && !errors.iops && !errors.throughput) {
    for (const p of validateVolume(volume)) {
      const field = (
        { sizeGiB: 'size', iops: 'iops', throughputMiBps: 'throughput', count: 'count' } as Record<
          string,
          keyof Errors
        >
      )[p.path ?? ''];
      errors[field ?? 'form'] ??= p.message;
    }
  }
  return Object.keys(errors).length > 0 ? { ok: false, errors } : { ok: true, labels };
}

/** "Rounded up to 126 MiB/s …" when the typed gp3 throughput is a fraction of a MiB/s, else null. */
export function throughputRoundingNote(text: string): string | null {
  const typed = parseNumberText(text);
  if (typed === null || typed <= 0) return null;
  const whole = provisionableGp3ThroughputMiBps(typed);
  return whole === typed
    ? null
    : `Rounded up to ${whole} MiB/s: gp3 throughput is provisioned in whole MiB/s.`;
}

type Props = {
  labels: RunLabels;
  onChange: (labels: RunLabels) => void;
  instanceTypes: readonly InstanceSpec[] | null;
  regions: readonly Region[] | null;
  catalogError?: string | null;
  /** Used in accessible names when several forms are on the page ("Labels for fio-r5d.json"). */
  subject: string;
};

export function LabelsForm({ labels, onChange, instanceTypes, regions, catalogError, subject }: Props) {
  const id = useId();
  const [draft, setDraft] = useState<Draft>(() => draftOf(labels));
  const [errors, setErrors] = useState<Errors>({});

  const update = (patch: Partial<Draft>) => {
    const next = { ...draft, ...patch };
    // Choosing gp3 fills in what it includes (3,000 IOPS, 125 MiB/s) as a starting point.
    if (patch.volumeType) {
      const included = includedSettingsOf(patch.volumeType);
      if (!next.iops && included.iops !== null) next.iops = String(included.iops);
      if (!next.throughput && included.throughputMiBps !== null)
        next.throughput = String(included.throughputMiBps);
    }
    setDraft(next);
    const r = readLabels(next);
    if (r.ok) {
      setErrors({});
      onChange(r.labels);
    } else setErrors(r.errors);
  };

  const ebs = draft.kind === 'ebs';
  const vt = draft.volumeType;
  const takes = vt ? provisionedFieldsOf(vt) : { iops: false, throughputMiBps: false };
  const missingVolume = ebs && (!vt || draft.size.trim() === '');

  return (
    <div className="labels-form" role="group" aria-label={`Labels for ${subject}`}>
      <TextField
        id={`${id}-name`}
        label="Name (optional)"
        placeholder="e.g. r6id.4xlarge gp3 16k"
        maxLength={200}
        value={draft.name}
        error={errors.name}
        onChange={(e) => update({ name: e.target.value })}
      />
      <fieldset className="fieldset fieldset--inline">
        <legend>Storage measured</legend>
        {(
          [
            ['nvme', 'NVMe instance store'],
            ['ebs', 'EBS volume'],
            ['', 'Not specified'],
          ] as const
        ).map(([value, text]) => (
          <label key={value || 'none'} className="radio">
            <input
              type="radio"
              name={`${id}-kind`}
              value={value}
              checked={draft.kind === value}
              onChange={() => update({ kind: value })}
            />
            {text}
          </label>
        ))}
      </fieldset>
      {ebs ? (
        <div className="labels-form__volume">
          <SelectField
            id={`${id}-vt`}
            label="Volume type"
            value={vt}
            onChange={(e) => update({ volumeType: e.target.value as VolumeType | '' })}
          >
            <option value="">Choose…</option>
            {VOLUME_TYPES.map((t) => (
              <option key={t} value={t}>
                {VOLUME_TRAITS[t].name}
              </option>
            ))}
          </SelectField>
          <TextField
            id={`${id}-size`}
            label="Size"
            inputMode="decimal"
            autoComplete="off"
            value={draft.size}
            error={errors.size}
            suffix="GiB"
            onChange={(e) => update({ size: e.target.value })}
          />
          {takes.iops ? (
            <TextField
              id={`${id}-iops`}
              label="Provisioned IOPS"
              inputMode="decimal"
              autoComplete="off"
              value={draft.iops}
              error={errors.iops}
              suffix="IOPS"
              onChange={(e) => update({ iops: e.target.value })}
            />
          ) : null}
          {takes.throughputMiBps ? (
            <TextField
              id={`${id}-tp`}
              label="Provisioned throughput"
              inputMode="decimal"
              autoComplete="off"
              value={draft.throughput}
              hint={throughputRoundingNote(draft.throughput)}
              error={errors.throughput}
              suffix="MiB/s"
              onChange={(e) => update({ throughput: e.target.value })}
            />
          ) : null}
          <TextField
            id={`${id}-count`}
            label="Striped volumes (RAID 0)"
            hint="Leave empty for one volume."
            inputMode="numeric"
            autoComplete="off"
            value={draft.count}
            error={errors.count}
            onChange={(e) => update({ count: e.target.value })}
          />
          {missingVolume ? (
            <p className="field__hint field__hint--warn">
              Add the volume type and size to check the volume’s own limits.
            </p>
          ) : null}
        </div>
      ) : null}
      <InstanceCombobox
        label="Instance type"
        value={draft.instanceType}
        types={instanceTypes}
        catalogError={catalogError ?? null}
        onChange={(t) => update({ instanceType: t })}
      />
      <SelectField
        id={`${id}-region`}
        label="Region"
        hint="Where the run was measured (stored with it)."
        value={draft.region}
        error={errors.region}
        onChange={(e) => update({ region: e.target.value })}
        disabled={regions === null}
      >
        <option value="">{regions === null ? 'Loading regions…' : 'Not specified'}</option>
        {draft.region && regions && !regions.some((r) => r.code === draft.region) ? (
          <option value={draft.region}>{draft.region} (no price table)</option>
        ) : null}
        {(regions ?? []).map((r) => (
          <option key={r.code} value={r.code}>
            {r.code} — {r.location}
          </option>
        ))}
      </SelectField>
      {errors.form ? <p className="field__error">{errors.form}</p> : null}
    </div>
  );
}
