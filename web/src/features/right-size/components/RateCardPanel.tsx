import { SEED_GUIDE_GP3, pricesOlderThanAYear, type RateCard } from '@blockwise/shared/aws';
import { type Problem } from '@blockwise/shared/problem';
import { memo, useId, useState } from 'react';
import { RegionSelect } from '../../../components/RegionSelect.tsx';
import { parseNumberText } from '../../../lib/parse-number.ts';
import { sameData } from '../../../lib/same-data.ts';

/**
 * The rate card every cost uses, with its region, date and source — a cost without them is not
 * defensible. Editable in a planning session: a region's AWS prices, or your own rates per
 * component (applied by the domain's `applyRateOverrides`, which marks the card as custom).
 */

type RateKey =
  | 'gp3.storage'
  | 'gp3.iops'
  | 'gp3.throughput'
  | 'io2.storage'
  | 'io2.iops'
  | 'io2.iops2'
  | 'io2.iops3'
  | 'io1.storage'
  | 'io1.iops'
  | 'gp2.storage'
  | 'st1.storage'
  | 'sc1.storage';

const RATES: { key: RateKey; label: string; unit: string }[] = [
  { key: 'gp3.storage', label: 'gp3 storage', unit: 'per GB-month' },
  { key: 'gp3.iops', label: 'gp3 IOPS above 3,000', unit: 'per IOPS-month' },
  { key: 'gp3.throughput', label: 'gp3 throughput above 125 MiB/s', unit: 'per MiB/s-month' },
  { key: 'io2.storage', label: 'io2 storage', unit: 'per GB-month' },
  { key: 'io2.iops', label: 'io2 IOPS 1–32,000', unit: 'per IOPS-month' },
  { key: 'io2.iops2', label: 'io2 IOPS 32,001–64,000', unit: 'per IOPS-month' },
  { key: 'io2.iops3', label: 'io2 IOPS above 64,000', unit: 'per IOPS-month' },
  { key: 'io1.storage', label: 'io1 storage', unit: 'per GB-month' },
  { key: 'io1.iops', label: 'io1 IOPS', unit: 'per IOPS-month' },
  { key: 'gp2.storage', label: 'gp2 storage', unit: 'per GB-month' },
  { key: 'st1.storage', label: 'st1 storage', unit: 'per GB-month' },
  { key: 'sc1.storage', label: 'sc1 storage', unit: 'per GB-month' },
];

export function rateOf(card: RateCard, key: RateKey): number {
  const [type, field] = key.split('.') as [keyof RateCard, string];
  return (card[type] as Record<string, number>)[field]!;
}

/** "gp3.iops=0.006,io2.storage=0.1" ⇄ a map; only qualified keys are produced and read here. */
export function parseOverrides(text: string | null): Map<string, string> {
  const out = new Map<string, string>();
  for (const pair of (text ?? '').split(',')) {
    const m = /^\s*([a-z0-9]+\.[a-z0-9]+)\s*=\s*(\S+)\s*$/i.exec(pair);
    if (m) out.set(m[1]!, m[2]!);
  }
  return out;
}

export function serializeOverrides(map: ReadonlyMap<string, string>): string | null {
  const text = [...map].map(([k, v]) => `${k}=${v}`).join(',');
  return text === '' ? null : text;
}

export const SEED_GUIDE_OVERRIDES = `gp3.storage=${SEED_GUIDE_GP3.storage},gp3.iops=${SEED_GUIDE_GP3.iops},gp3.throughput=${SEED_GUIDE_GP3.throughput}`;

type Meta = { region: string | null; location?: string | null; source: string; date: string };

/**
 * Region, date and source of the prices beside the costs, the catalog they come from when known
 * (the built-in one, or the file the server was started with), and a warning when they are over
 * a year old.
 */
export function RateMeta({
  rates,
  catalog,
  today = new Date(),
}: {
  rates: Meta;
  /** e.g. "built-in" or "cat.json, written 2026-11-24". */
  catalog?: string;
  today?: Date;
}) {
  return (
    <>
      <dl className="facts facts--rates">
        <div>
          <dt>Region</dt>
          <dd>
            {rates.region ?? 'custom'}
            {rates.location ? ` (${rates.location})` : ''}
          </dd>
        </div>
        <div>
          <dt>Prices as of</dt>
          <dd>{rates.date}</dd>
        </div>
        {catalog ? (
          <div>
            <dt>Catalog</dt>
            <dd>{catalog}</dd>
          </div>
        ) : null}
        <div className="facts__wide">
          <dt>Source</dt>
          <dd>{rates.source}</dd>
        </div>
      </dl>
      {pricesOlderThanAYear(rates.date, today) ? (
        <p className="callout callout--concern" role="note" data-testid="stale-prices">
          These prices are over a year old: AWS changes prices and opens regions several times a year. Refresh
          them with <code>blockwise catalog update</code> and start the server on the new file with{' '}
          <code>blockwise serve --catalog FILE</code>.
        </p>
      ) : null}
    </>
  );
}

type EditableProps = {
  regions: readonly { code: string; location: string }[];
  region: string;
  overrides: string | null;
  base: RateCard;
  card: RateCard;
  problem: Problem | null;
  onRegion: (region: string) => void;
  onOverrides: (overrides: string | null) => void;
  /** Which catalog the region prices come from (see RateMeta). */
  catalog?: string;
};

/** Compared by value: a what-if step leaves the rate card as it is (bench P16). */
export const RateCardEditor = memo(RateCardEditorView, sameData);

function RateCardEditorView({
  regions,
  region,
  overrides,
  base,
  card,
  problem,
  onRegion,
  onOverrides,
  catalog,
}: EditableProps) {
  const id = useId();
  const map = parseOverrides(overrides);
  const [drafts, setDrafts] = useState<Record<string, string>>({});
  const [errors, setErrors] = useState<Record<string, string>>({});

  const edit = (key: RateKey, text: string) => {
    setDrafts((d) => ({ ...d, [key]: text }));
    const n = parseNumberText(text);
    if (n === null) {
      setErrors((e) => ({ ...e, [key]: 'Expected a non-negative number such as 0.08.' }));
      return;
    }
    setErrors(({ [key]: _, ...rest }) => rest);
    const next = new Map(map);
    if (n === rateOf(base, key)) next.delete(key);
    else next.set(key, String(n));
    onOverrides(serializeOverrides(next));
  };

  const reset = () => {
    setDrafts({});
    setErrors({});
    onOverrides(null);
  };

  return (
    <div className="rate-card">
      <RateMeta rates={card} {...(catalog ? { catalog } : {})} />
      <div className="field-row">
        <RegionSelect
          id={`${id}-region`}
          label="Price region"
          regions={regions}
          value={region}
          onChange={(code) => {
            setDrafts({});
            setErrors({});
            onRegion(code);
          }}
          hint="Regions with a complete EBS price table"
        />
      </div>
      {problem ? (
        <p className="field__error" role="alert">
          Custom rates not applied: {problem.message}
        </p>
      ) : null}
      <div className="table-scroll">
        <table className="table table--dense">
          <caption>EBS rates in USD (edit any rate to use your own)</caption>
          <thead>
            <tr>
              <th scope="col">Component</th>
              <th scope="col" className="num">
                AWS ({base.region})
              </th>
              <th scope="col">Used</th>
            </tr>
          </thead>
          <tbody>
            {RATES.map((r) => {
              const used = rateOf(card, r.key);
              const changed = map.has(r.key);
              return (
                <tr key={r.key} className={changed ? 'is-changed' : undefined}>
                  <th scope="row">
                    {r.label} <span className="cell-note">{r.unit}</span>
                  </th>
                  <td className="num">${rateOf(base, r.key)}</td>
                  <td>
                    <div className="field__control">
                      <span className="field__prefix">$</span>
                      <input
                        className="input input--num input--rate"
                        inputMode="decimal"
                        aria-label={`${r.label}, USD ${r.unit}`}
                        aria-invalid={errors[r.key] ? true : undefined}
                        value={drafts[r.key] ?? String(used)}
                        onChange={(e) => edit(r.key, e.target.value)}
                      />
                    </div>
                    {errors[r.key] ? <p className="field__error">{errors[r.key]}</p> : null}
                  </td>
                </tr>
              );
            })}
          </tbody>
        </table>
      </div>
      <div className="button-row">
        <button
          type="button"
          className="btn btn--small"
          onClick={() => {
            setDrafts({});
            setErrors({});
            onOverrides(SEED_GUIDE_OVERRIDES);
          }}
        >
          Use the “EBS gp3 vs Local NVMe” guide’s gp3 rates ($0.08 / $0.005 / $0.06)
        </button>
        <button type="button" className="btn btn--small btn--ghost" onClick={reset} disabled={map.size === 0}>
          Reset to AWS prices
        </button>
      </div>
    </div>
  );
}
