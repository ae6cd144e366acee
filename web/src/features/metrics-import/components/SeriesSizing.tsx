import {
  SIZING_STATISTICS,
  SIZING_STATISTIC_LABELS,
  type SizingStatistic,
} from '@blockwise/shared/timeseries';
import type { Warning } from '@blockwise/shared/problem';
import { EmptyState, LoadingState } from '../../../components/States.tsx';
import { TableScroll } from '../../../components/TableScroll.tsx';
import { Warnings } from '../../../components/Warnings.tsx';
import { fmtPct } from '../../../lib/format.ts';
import type { ImportedSeries } from '../metrics-reader.ts';
import { comparisonRows, type PlanContext, type StatisticOption } from '../series-view.ts';

const capitalize = (s: string) => s.charAt(0).toUpperCase() + s.slice(1);

/**
 * The sizing statistic (max / p99 / p95 of the points): the choice, what each buys and costs side
 * by side, the chosen profile's own warnings and, against the session's candidate, the censoring
 * warnings (demand pinned at a limit is at least that limit). A series without operation counts
 * cannot be sized and says why.
 */
export function SeriesSizing({
  id,
  title,
  imported,
  statistic,
  onStatistic,
  plan,
  catalogStatus,
  choices,
  censored,
}: {
  id: string;
  title: string;
  imported: ImportedSeries;
  statistic: SizingStatistic;
  onStatistic: (statistic: SizingStatistic) => void;
  plan: PlanContext | null;
  catalogStatus: 'loading' | 'ready' | 'error';
  choices: readonly StatisticOption[];
  censored: readonly Warning[];
}) {
  const chosen = choices.find((c) => c.statistic === statistic);
  const seriesWarnings = new Set(imported.series.warnings.map((w) => `${w.code}|${w.message}`));
  return (
    <section className="series-panel__section" aria-labelledby={`${id}-sizing`}>
      <h3 className="subhead" id={`${id}-sizing`}>
        Sizing statistic
      </h3>
      {!imported.profiles ? (
        <EmptyState title="This series cannot be sized">
          <p>{imported.sizingProblem?.message ?? 'The series has no read or write operation counts.'}</p>
        </EmptyState>
      ) : (
        <>
          <fieldset className="fieldset fieldset--inline">
            <legend>
              Size on<span className="visually-hidden"> ({title})</span>
            </legend>
            {SIZING_STATISTICS.map((s) => (
              <label key={s} className="radio">
                <input
                  type="radio"
                  name={`${id}-statistic`}
                  value={s}
                  checked={statistic === s}
                  onChange={() => onStatistic(s)}
                />
                {capitalize(SIZING_STATISTIC_LABELS[s])}
              </label>
            ))}
          </fieldset>
          <p className="field__hint">
            The maximum of the points at their own step is sized on (never averaged up: EBS enforces its
            limits per second). p99 ignores the busiest 1% of points, p95 the busiest 5%: cheaper, for
            workloads that can queue through their peaks — but a peak that recurs at the same time of day or
            week is kept, and the warnings say so. The chosen profile is what this session plans for.
          </p>
          {catalogStatus === 'loading' ? (
            <LoadingState label="Loading the AWS catalog to price each choice…" />
          ) : null}
          {catalogStatus === 'error' ? (
            <p className="field__hint field__hint--warn">
              The AWS catalog could not be loaded: the demand is shown without recommendations or costs.
            </p>
          ) : null}
          <StatisticComparison title={title} statistic={statistic} plan={plan} choices={choices} />
          {chosen ? (
            <Warnings
              warnings={chosen.profile.warnings.filter(
                (w) => w.code !== 'timeseries_sizing' && !seriesWarnings.has(`${w.code}|${w.message}`),
              )}
              compact
            />
          ) : null}
          {censored.length > 0 && plan?.candidate ? (
            <div className="series-panel__censored" data-testid="series-censored">
              <p className="field__hint">
                Against the session’s candidate volume ({plan.candidate.type}), if this series was measured on
                it:
              </p>
              <Warnings warnings={censored} compact />
            </div>
          ) : null}
        </>
      )}
    </section>
  );
}

/** Each sizing statistic side by side (what it buys, what it costs), the one in use marked. */
function StatisticComparison({
  title,
  statistic,
  plan,
  choices,
}: {
  title: string;
  statistic: SizingStatistic;
  plan: PlanContext | null;
  choices: readonly StatisticOption[];
}) {
  const compare = comparisonRows(choices, plan?.nodes ?? 1);
  const isChosen = (c: StatisticOption | undefined) => c?.statistic === statistic;
  return (
    <TableScroll label={`${title}: each sizing statistic side by side`}>
      <table className="table table--dense stat-compare">
        <caption>
          {title}: each sizing statistic side by side
          {plan
            ? ` (${plan.instance?.instanceType ?? 'no instance chosen'}, ${plan.rateCard.region ?? 'default'} prices of ${plan.rateCard.date}, headroom ${fmtPct(plan.headroom, 0)})`
            : ''}
        </caption>
        <thead>
          <tr>
            <th scope="col">
              <span className="visually-hidden">Quantity</span>
            </th>
            {choices.map((c) => (
              <th
                key={c.statistic}
                scope="col"
                className={`num${isChosen(c) ? ' is-chosen' : ''}`}
                aria-current={isChosen(c) ? 'true' : undefined}
              >
                {c.name}
                {isChosen(c) ? ' (in use)' : ''}
              </th>
            ))}
          </tr>
        </thead>
        <tbody>
          {compare.map((row) => (
            <tr key={row.label}>
              <th scope="row">{row.label}</th>
              {row.cells.map((cell, i) => (
                <td
                  key={choices[i]?.statistic ?? i}
                  className={`num${isChosen(choices[i]) ? ' is-chosen' : ''}`}
                >
                  {cell}
                </td>
              ))}
            </tr>
          ))}
        </tbody>
      </table>
    </TableScroll>
  );
}
