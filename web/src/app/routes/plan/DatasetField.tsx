import { useState } from 'react';
import { TextField } from '../../../components/Field.tsx';
import { numberText, parseNumberText } from '../../../lib/parse-number.ts';
import type { PlanSessionView } from './use-plan-session.ts';

/**
 * The dataset size, asked beside the peaks (capacity is part of demand): every recommendation and
 * the NVMe alternative are checked against it. Empty: "capacity not known", never a 1 GiB volume.
 */
export function DatasetField({
  datasetGiB,
  dispatch,
  id,
}: {
  datasetGiB: number | null;
  dispatch: PlanSessionView['dispatch'];
  id: string;
}) {
  const [text, setText] = useState(() => numberText(datasetGiB));
  const [error, setError] = useState<string | null>(null);
  // The session's size is the source: changed from elsewhere (the peaks form, a session loaded or
  // restored), the field shows it; its echo of what this field sent keeps the text as typed.
  const [seen, setSeen] = useState(datasetGiB);
  const [sent, setSent] = useState<number | null | undefined>(undefined);
  if (datasetGiB !== seen) {
    setSeen(datasetGiB);
    if (datasetGiB !== sent) {
      setText(numberText(datasetGiB));
      setError(null);
      setSent(undefined);
    }
  }
  const send = (gib: number | null) => {
    setError(null);
    setSent(gib);
    dispatch({ type: 'settings-changed', settings: { datasetGiB: gib } });
  };
  return (
    <TextField
      id={id}
      className="answer__dataset"
      label="Dataset size (the data the storage must hold)"
      inputMode="decimal"
      suffix="GiB"
      value={text}
      error={error ?? undefined}
      onChange={(e) => {
        const value = e.target.value;
        setText(value);
        const n = parseNumberText(value);
        if (value.trim() === '') send(null);
        else if (n !== null && n > 0) send(n);
        else setError('Enter the dataset size in GiB (a number above 0), or leave it empty.');
      }}
    />
  );
}
