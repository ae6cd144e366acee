import { useState } from 'react';
import { DatasetGrowthSchema, type DatasetGrowth } from '@blockwise/shared/plan';
import { TextField } from '../../../components/Field.tsx';
import { numberText, parseNumberText } from '../../../lib/parse-number.ts';
import type { PlanSessionView } from './use-plan-session.ts';

/** The horizon when only a growth is typed: a year, the period a growth rate is quoted for. */
const DEFAULT_HORIZON_MONTHS = 12;

const sameGrowth = (a: DatasetGrowth | null, b: DatasetGrowth | null) =>
  a?.percentPerYear === b?.percentPerYear && a?.horizonMonths === b?.horizonMonths;

/**
 * How fast the dataset grows and over how many months to plan, beside the dataset size: every
 * capacity check (EBS sizes, the NVMe alternative's store) then holds the grown size, and the
 * answer says both (shared plan/dataset-growth.ts). An empty growth plans for today's size.
 */
export function GrowthFields({
  growth,
  dispatch,
  id,
}: {
  growth: DatasetGrowth | null;
  dispatch: PlanSessionView['dispatch'];
  id: string;
}) {
  const [percentText, setPercentText] = useState(() => numberText(growth?.percentPerYear ?? null));
  const [monthsText, setMonthsText] = useState(() => numberText(growth?.horizonMonths ?? null));
  const [errors, setErrors] = useState<{ percent?: string; months?: string }>({});
  // The session's growth is the source: when it changes from elsewhere (the other growth fields, a
  // session loaded or restored), the fields show it. Its echo of what these fields sent keeps the
  // text as typed (an empty horizon stays empty while the session holds 12 months).
  const [seen, setSeen] = useState(growth);
  const [sent, setSent] = useState<DatasetGrowth | null | undefined>(undefined);
  if (!sameGrowth(growth, seen)) {
    setSeen(growth);
    if (sent === undefined || !sameGrowth(growth, sent)) {
      setPercentText(numberText(growth?.percentPerYear ?? null));
      setMonthsText(numberText(growth?.horizonMonths ?? null));
      setErrors({});
      setSent(undefined);
    }
  }
  const send = (datasetGrowth: DatasetGrowth | null) => {
    setErrors({});
    setSent(datasetGrowth);
    dispatch({ type: 'settings-changed', settings: { datasetGrowth } });
  };

  const apply = (percent: string, months: string) => {
    if (percent.trim() === '') {
      // No growth: planned for today's size; a horizon alone changes nothing, so it is not judged.
      send(null);
      return;
    }
    const percentPerYear = parseNumberText(percent);
    const horizonMonths = months.trim() === '' ? DEFAULT_HORIZON_MONTHS : parseNumberText(months);
    const r = DatasetGrowthSchema.safeParse({
      percentPerYear: percentPerYear ?? Number.NaN,
      horizonMonths: horizonMonths ?? Number.NaN,
    });
    if (r.success) {
      send(r.data);
      return;
    }
    const fields = new Set(r.error.issues.map((i) => i.path[0]));
    setErrors({
      percent: fields.has('percentPerYear')
        ? 'Enter the growth in %/year (0 to 1,000), or leave it empty to plan for today’s size.'
        : undefined,
      months: fields.has('horizonMonths')
        ? 'Enter the horizon in whole months (1 to 60), or leave it empty for 12 months.'
        : undefined,
    });
  };

  return (
    <div className="answer__growth">
      <TextField
        id={`${id}-percent`}
        className="answer__dataset"
        label="Dataset growth (compounded yearly)"
        inputMode="decimal"
        suffix="%/year"
        value={percentText}
        error={errors.percent}
        onChange={(e) => {
          setPercentText(e.target.value);
          apply(e.target.value, monthsText);
        }}
      />
      <TextField
        id={`${id}-months`}
        className="answer__dataset"
        label="Planning horizon"
        inputMode="numeric"
        suffix="months"
        placeholder={String(DEFAULT_HORIZON_MONTHS)}
        value={monthsText}
        error={errors.months}
        onChange={(e) => {
          setMonthsText(e.target.value);
          apply(percentText, e.target.value);
        }}
      />
    </div>
  );
}
