import { useId, useState, type FormEvent } from 'react';
import { TextField } from '../../../components/Field.tsx';
import { readDraft } from '../../../features/ingest/components/ObservedForm.tsx';
import { parseNumberText } from '../../../lib/parse-number.ts';
import { newObservedId, type ObservedInput } from '../../session/session-state.ts';
import { GrowthFields } from './GrowthFields.tsx';
import type { PlanSessionView } from './use-plan-session.ts';

const FIELDS = [
  ['read.iops', 'Workload read IOPS', 'IOPS'],
  ['write.iops', 'Workload write IOPS', 'IOPS'],
  ['read.throughput', 'Workload read throughput', 'MiB/s'],
  ['write.throughput', 'Workload write throughput', 'MiB/s'],
] as const;
type Key = (typeof FIELDS)[number][0];

/**
 * The workload's peaks, dataset size and its growth, asked right in the answer box when the session holds
 * capacity evidence only: submitted, they become a typed-in demand source and the answer plans on
 * it at once (chooseDemandSource: the newest demand source). Checked by the typed-in form's rules.
 */
export function PeaksForm({
  session,
  onAdded,
}: {
  session: Pick<PlanSessionView, 'dispatch' | 'state'>;
  onAdded: (id: string) => void;
}) {
  const id = useId();
  const [values, setValues] = useState<Record<Key | 'dataset', string>>({
    'read.iops': '',
    'write.iops': '',
    'read.throughput': '',
    'write.throughput': '',
    dataset: '',
  });
  const [errors, setErrors] = useState<Partial<Record<string, string>>>({});
  const submit = (e: FormEvent) => {
    e.preventDefault();
    const dir = (d: 'read' | 'write') => ({
      iops: values[`${d}.iops`],
      throughput: values[`${d}.throughput`],
      unit: 'MiB/s' as const,
      latency: {},
    });
    const draft = readDraft({ label: 'Workload peaks', read: dir('read'), write: dir('write'), access: '' });
    const found: Partial<Record<string, string>> = draft.ok ? {} : { ...draft.errors };
    const dataset = values.dataset.trim() === '' ? null : parseNumberText(values.dataset);
    if (values.dataset.trim() !== '' && (dataset === null || dataset <= 0))
      found.dataset = 'Enter the dataset size in GiB (a number above 0), or leave it empty.';
    setErrors(found);
    if (!draft.ok || found.dataset) return;
    const input: ObservedInput = { kind: 'observed', id: newObservedId(), metrics: draft.metrics };
    session.dispatch({ type: 'observed-added', input });
    // Not pinned as the user's choice: the newest demand source is planned on (chooseDemandSource),
    // so a metrics import brought next is planned on in turn, and the answer says which it sizes on.
    if (dataset !== null) session.dispatch({ type: 'settings-changed', settings: { datasetGiB: dataset } });
    onAdded(input.id);
  };
  return (
    <form className="answer__peaks" onSubmit={submit} aria-label="The workload’s peaks" noValidate>
      <div className="answer__peaks-fields">
        {FIELDS.map(([key, label, unit]) => (
          <TextField
            key={key}
            id={`${id}-${key}`}
            label={label}
            inputMode="decimal"
            suffix={unit}
            value={values[key]}
            error={errors[key]}
            onChange={(e) => setValues({ ...values, [key]: e.target.value })}
          />
        ))}
        <TextField
          id={`${id}-dataset`}
          label="Dataset size"
          inputMode="decimal"
          suffix="GiB"
          value={values.dataset}
          error={errors.dataset}
          onChange={(e) => setValues({ ...values, dataset: e.target.value })}
        />
      </div>
      {/* How the dataset grows, as the answer asks it beside the dataset size once there is demand:
          the session's setting, the same fields (kept in step with the answer's). */}
      <GrowthFields
        id={`${id}-growth`}
        growth={session.state.settings.datasetGrowth ?? null}
        dispatch={session.dispatch}
      />
      <button type="submit" className="btn btn--primary">
        Plan for these peaks
      </button>
    </form>
  );
}
