import { MERGE_MIN_IO_BYTES } from '@blockwise/shared/aws';
import {
  classifyBlockSize,
  profileFromObserved,
  type AccessPattern,
  type ObservedMetrics,
} from '@blockwise/shared/profile';
import {
  THROUGHPUT_UNIT_NAMES,
  averageBlockSize,
  formatBytes,
  iops as toIops,
  toBytesPerSec,
  type ThroughputUnit,
} from '@blockwise/shared/units';
import { useId, useRef, useState, type FormEvent } from 'react';
import { SelectField, TextField } from '../../../components/Field.tsx';
import { unitName } from '../../../lib/format.ts';
import { numberProblem, numberText, parseNumberText, suffixRefusal } from '../../../lib/parse-number.ts';
import '../ingest.css';

/**
 * Numbers typed in from a dashboard (CloudWatch, Grafana, Datadog): peak read/write IOPS and
 * throughput in any unit, optional latency percentiles. Validated by `profileFromObserved` — the
 * same rules the API applies — with each message next to its field.
 */

export const LATENCY_PERCENTILES = ['50', '99', '99.9', '99.99'] as const;
type Dir = 'read' | 'write';

type DirDraft = { iops: string; throughput: string; unit: ThroughputUnit; latency: Record<string, string> };
/** '' = unknown: the domain assumes random (the safe side) and says so. */
type Draft = { label: string; read: DirDraft; write: DirDraft; access: AccessPattern | '' };
type Errors = Partial<Record<string, string>>;

const emptyDir = (): DirDraft => ({ iops: '', throughput: '', unit: 'MiB/s', latency: {} });

function draftOf(m: ObservedMetrics | undefined): Draft {
  if (!m) return { label: '', read: emptyDir(), write: emptyDir(), access: '' };
  const dir = (d: ObservedMetrics['read']): DirDraft => ({
    iops: numberText(d.iops),
    throughput: numberText(d.throughput),
    unit: d.throughputUnit,
    latency: Object.fromEntries(Object.entries(d.latencyMs ?? {}).map(([k, v]) => [k, numberText(v)])),
  });
  return { label: m.label ?? '', read: dir(m.read), write: dir(m.write), access: m.access ?? '' };
}

/** The access pattern choices, unknown first (the default: nothing is claimed). */
export const ACCESS_CHOICES: readonly { value: AccessPattern | ''; label: string; hint: string }[] = [
  {
    value: '',
    label: 'Unknown (assume random)',
    hint: 'each I/O counts as one EBS operation; HDD volumes are ruled out',
  },
  { value: 'random', label: 'Random', hint: 'databases, key-value stores: each I/O counts as one operation' },
  {
    value: 'sequential',
    label: 'Sequential',
    hint: `logs, scans, backups: contiguous I/O of ${MERGE_MIN_IO_BYTES.value / 1024} KiB or more merges into fewer operations`,
  },
  { value: 'mixed', label: 'Mixed', hint: 'both, in a share nobody measured' },
];

const DIR_NAME: Record<Dir, string> = { read: 'read', write: 'write' };

/** Draft → ObservedMetrics, or the field errors (keys like `read.iops`). */
export function readDraft(
  draft: Draft,
): { ok: true; metrics: ObservedMetrics } | { ok: false; errors: Errors } {
  const errors: Errors = {};
  const dir = (d: Dir) => {
    const x = draft[d];
    // IOPS are a count ("12k" as dashboards print it); throughput has a unit beside it.
    const iops = parseNumberText(x.iops, { suffixes: true });
    const throughput = parseNumberText(x.throughput);
    if (x.iops.trim() === '')
      errors[`${d}.iops`] = `Enter the peak ${DIR_NAME[d]} IOPS (0 if there were no ${d}s).`;
    else if (iops === null)
      errors[`${d}.iops`] =
        numberProblem(x.iops, { suffixes: true }) === 'negative'
          ? `Peak ${DIR_NAME[d]} IOPS: must be 0 or more (IOPS cannot be negative).`
          : `Peak ${DIR_NAME[d]} IOPS: expected a number such as 12000, 12,000 or 12k.`;
    if (x.throughput.trim() === '')
      errors[`${d}.throughput`] = `Enter the peak ${DIR_NAME[d]} throughput (0 if there were no ${d}s).`;
    else if (throughput === null)
      errors[`${d}.throughput`] =
        numberProblem(x.throughput) === 'negative'
          ? `Peak ${DIR_NAME[d]} throughput: must be 0 or more (throughput cannot be negative).`
          : numberProblem(x.throughput) === 'suffix'
            ? `Peak ${DIR_NAME[d]} throughput: ${suffixRefusal(x.unit)}`
            : `Peak ${DIR_NAME[d]} throughput: expected a number such as 500, in the unit picked beside it.`;
    const latencyMs: Record<string, number> = {};
    for (const p of LATENCY_PERCENTILES) {
      const text = x.latency[p] ?? '';
      if (text.trim() === '') continue;
      const v = parseNumberText(text);
      if (v === null)
        errors[`${d}.latencyMs.${p}`] =
          numberProblem(text) === 'suffix'
            ? `p${p}: ${suffixRefusal('ms')}`
            : `p${p}: expected milliseconds such as 12.5.`;
      else latencyMs[p] = v;
    }
    return {
      iops: iops ?? 0,
      throughput: throughput ?? 0,
      throughputUnit: x.unit,
      ...(Object.keys(latencyMs).length > 0 ? { latencyMs } : {}),
    };
  };
  const metrics: ObservedMetrics = {
    ...(draft.label.trim() ? { label: draft.label.trim() } : {}),
    read: dir('read'),
    write: dir('write'),
    ...(draft.access ? { access: draft.access } : {}),
  };
  if (Object.keys(errors).length > 0) return { ok: false, errors };
  // The domain's own rules (ranges, throughput without IOPS…), with the field they name.
  const checked = profileFromObserved(metrics);
  if (!checked.ok) {
    const path = checked.error.path ?? 'form';
    const key = path.replace(/\.throughputUnit$/, '.throughput');
    return { ok: false, errors: { [key]: checked.error.message } };
  }
  return { ok: true, metrics };
}

/** "≈ 64 KiB per I/O — medium: IOPS or throughput can bind" while typing. */
function blockSizeHint(d: DirDraft): string | null {
  const iops = parseNumberText(d.iops, { suffixes: true });
  const tp = parseNumberText(d.throughput);
  if (iops === null || tp === null || iops <= 0) return null;
  const size = averageBlockSize(toBytesPerSec(tp, d.unit), toIops(iops));
  if (size === null) return null;
  const cls = classifyBlockSize(size);
  const bound = {
    iops: 'IOPS likely bind',
    either: 'IOPS or throughput can bind',
    throughput: 'throughput likely binds',
  }[cls.likelyBound];
  return `≈ ${formatBytes(size)} per I/O (bytes/s ÷ IOPS) — ${cls.sizeClass} I/O: ${bound}`;
}

type Props = {
  initial?: ObservedMetrics;
  submitLabel?: string;
  onSubmit: (metrics: ObservedMetrics) => void;
  onCancel?: () => void;
  /** Focus the first field on mount (the form replaced the button that opened it). */
  autoFocus?: boolean;
};

export function ObservedForm({
  initial,
  submitLabel = 'Add typed-in metrics',
  onSubmit,
  onCancel,
  autoFocus = false,
}: Props) {
  const id = useId();
  const [draft, setDraft] = useState<Draft>(() => draftOf(initial));
  const [errors, setErrors] = useState<Errors>({});
  const formRef = useRef<HTMLFormElement>(null);

  const setDir = (d: Dir, patch: Partial<DirDraft>) => {
    setDraft((x) => ({ ...x, [d]: { ...x[d], ...patch } }));
    setErrors((e) => {
      const next = { ...e };
      for (const key of Object.keys(patch)) {
        if (key === 'latency') {
          for (const p of LATENCY_PERCENTILES) delete next[`${d}.latencyMs.${p}`];
        } else delete next[`${d}.${key === 'unit' ? 'throughput' : key}`];
      }
      delete next.form;
      return next;
    });
  };

  const submit = (event: FormEvent) => {
    event.preventDefault();
    const r = readDraft(draft);
    if (!r.ok) {
      setErrors(r.errors);
      // Focus the first field in error so keyboard and screen-reader users land on it.
      requestAnimationFrame(() =>
        formRef.current?.querySelector<HTMLElement>('[aria-invalid="true"]')?.focus(),
      );
      return;
    }
    setErrors({});
    onSubmit(r.metrics);
    if (!initial) setDraft(draftOf(undefined));
  };

  const errorCount = Object.keys(errors).length;

  return (
    <form
      ref={formRef}
      className="observed-form"
      noValidate
      onSubmit={submit}
      aria-describedby={`${id}-intro`}
    >
      <p id={`${id}-intro`} className="field__hint">
        Peak values (not averages) from the same period, e.g. the maximum 5-minute point over 14 days. IOPS
        and throughput are per second; CloudWatch sums per period must be divided by the period in seconds.
      </p>
      {errorCount > 0 ? (
        <p className="form-error" role="alert">
          {errorCount === 1 ? 'One field needs attention.' : `${errorCount} fields need attention.`}
        </p>
      ) : null}
      <TextField
        id={`${id}-label`}
        label="Label (optional)"
        placeholder="e.g. pg-primary, 14-day peak"
        maxLength={200}
        value={draft.label}
        autoFocus={autoFocus}
        onChange={(e) => setDraft((x) => ({ ...x, label: e.target.value }))}
      />
      <div className="observed-form__dirs">
        {(['read', 'write'] as const).map((d) => {
          const x = draft[d];
          const hint = blockSizeHint(x);
          const Dir = d === 'read' ? 'Reads' : 'Writes';
          return (
            <fieldset key={d} className="fieldset">
              <legend>{Dir}</legend>
              <TextField
                id={`${id}-${d}-iops`}
                label={`Peak ${d} IOPS`}
                inputMode="decimal"
                autoComplete="off"
                value={x.iops}
                error={errors[`${d}.iops`]}
                onChange={(e) => setDir(d, { iops: e.target.value })}
                suffix="IOPS"
              />
              <div className="field-row">
                <TextField
                  id={`${id}-${d}-tp`}
                  className="field--grow"
                  label={`Peak ${d} throughput`}
                  inputMode="decimal"
                  autoComplete="off"
                  value={x.throughput}
                  error={errors[`${d}.throughput`]}
                  onChange={(e) => setDir(d, { throughput: e.target.value })}
                />
                <SelectField
                  id={`${id}-${d}-unit`}
                  label={<span>Unit</span>}
                  aria-label={`${Dir} throughput unit`}
                  value={x.unit}
                  onChange={(e) => setDir(d, { unit: e.target.value as ThroughputUnit })}
                >
                  {THROUGHPUT_UNIT_NAMES.map((u) => (
                    <option key={u} value={u} title={unitName(u)}>
                      {u}
                    </option>
                  ))}
                </SelectField>
              </div>
              <p className="field__hint">{unitName(x.unit)}</p>
              {hint ? (
                <p className="field__hint field__hint--strong" aria-live="polite">
                  {hint}
                </p>
              ) : null}
              <fieldset className="fieldset fieldset--inner">
                <legend>{Dir}: completion latency, optional (ms)</legend>
                <div className="latency-grid">
                  {LATENCY_PERCENTILES.map((p) => (
                    <TextField
                      key={p}
                      id={`${id}-${d}-p${p}`}
                      label={`p${p}`}
                      aria-label={`${Dir} p${p} latency in milliseconds`}
                      inputMode="decimal"
                      autoComplete="off"
                      value={x.latency[p] ?? ''}
                      error={errors[`${d}.latencyMs.${p}`]}
                      onChange={(e) => setDir(d, { latency: { ...x.latency, [p]: e.target.value } })}
                      suffix="ms"
                    />
                  ))}
                </div>
              </fieldset>
            </fieldset>
          );
        })}
      </div>
      <fieldset className="fieldset" aria-describedby={`${id}-access-hint`}>
        <legend>Access pattern</legend>
        <p id={`${id}-access-hint`} className="field__hint">
          How the I/O lands on the device. It decides how EBS counts operations.
        </p>
        <ul className="access-choices">
          {ACCESS_CHOICES.map((c) => {
            const key = c.value || 'unknown';
            return (
              <li key={key}>
                <label className="radio">
                  <input
                    type="radio"
                    name={`${id}-access`}
                    value={c.value}
                    checked={draft.access === c.value}
                    aria-describedby={`${id}-access-${key}`}
                    onChange={() => setDraft((x) => ({ ...x, access: c.value }))}
                  />
                  {c.label}
                </label>
                <span id={`${id}-access-${key}`} className="access-choices__hint">
                  {c.hint}
                </span>
              </li>
            );
          })}
        </ul>
      </fieldset>
      {errors.form ? <p className="field__error">{errors.form}</p> : null}
      <div className="form-actions">
        <button type="submit" className="btn btn--primary">
          {submitLabel}
        </button>
        {onCancel ? (
          <button type="button" className="btn" onClick={onCancel}>
            Cancel
          </button>
        ) : null}
      </div>
    </form>
  );
}
