import { useId, useState, type FormEvent } from 'react';
import { SelectField, TextField } from '../../../components/Field.tsx';
import '../archive.css';

export type Filters = { series: string; instance: string; kind: '' | 'nvme' | 'ebs' };

/** Filter the archive by series (CI history name), instance type and storage kind. */
export function RunFilters({ value, onApply }: { value: Filters; onApply: (f: Filters) => void }) {
  const id = useId();
  const [draft, setDraft] = useState(value);
  const submit = (e: FormEvent) => {
    e.preventDefault();
    onApply({ series: draft.series.trim(), instance: draft.instance.trim().toLowerCase(), kind: draft.kind });
  };
  return (
    <form className="filters" onSubmit={submit} role="search" aria-label="Filter runs">
      <TextField
        id={`${id}-series`}
        label="Series"
        placeholder="e.g. pg-data-volume"
        maxLength={100}
        value={draft.series}
        onChange={(e) => setDraft({ ...draft, series: e.target.value })}
      />
      <TextField
        id={`${id}-instance`}
        label="Instance type"
        placeholder="e.g. r6id.4xlarge"
        maxLength={64}
        value={draft.instance}
        onChange={(e) => setDraft({ ...draft, instance: e.target.value })}
      />
      <SelectField
        id={`${id}-kind`}
        label="Storage"
        value={draft.kind}
        onChange={(e) => setDraft({ ...draft, kind: e.target.value as Filters['kind'] })}
      >
        <option value="">Any</option>
        <option value="nvme">NVMe instance store</option>
        <option value="ebs">EBS volume</option>
      </SelectField>
      <div className="filters__actions">
        <button type="submit" className="btn btn--primary">
          Apply filters
        </button>
        <button
          type="button"
          className="btn btn--ghost"
          onClick={() => {
            const empty: Filters = { series: '', instance: '', kind: '' };
            setDraft(empty);
            onApply(empty);
          }}
        >
          Clear
        </button>
      </div>
    </form>
  );
}
