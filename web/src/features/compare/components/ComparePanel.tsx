import { describeJobSettings, type RunPairComparison } from '@blockwise/shared/compare';
import { HOURS_PER_MONTH } from '@blockwise/shared/units';
import { memo, useId, useState } from 'react';
import { lazyChart } from '../../../components/lazy-chart.ts';
import { sameData } from '../../../lib/same-data.ts';
import { ChartFrame } from '../../../components/ChartFrame.tsx';
import { SelectField } from '../../../components/Field.tsx';
import { Region } from '../../../components/Region.tsx';
import { EmptyState } from '../../../components/States.tsx';
import { Unit } from '../../../components/Unit.tsx';
import { fmtInt, fmtNum, fmtUsd, fmtUsdPrecise } from '../../../lib/format.ts';
import { COLORS, SERIES } from '../../../lib/palette.ts';
import {
  comparePair,
  latencyVerdict,
  pickPair,
  promiseListsOf,
  rateRows,
  seriesOf,
  type Pair,
  type RateRow,
  type RunView,
} from '../compare-rows.ts';
import { LatencyPanel } from './LatencyPanel.tsx';
import { TableScroll } from '../../../components/TableScroll.tsx';

const RatesChart = lazyChart(() => import('./RatesChart.tsx'));

export type NvmePremiumInfo = {
  baseType: string;
  dType: string;
  usdPerHour: number;
  usdPerMonth: number;
  /** Where the premium was priced (the catalog falls back to us-east-1). */
  region?: string;
} | null;

function RatesTable({
  rows,
  unit,
  pair,
  caption,
}: {
  rows: RateRow[];
  unit: 'MiB/s' | 'IOPS';
  pair: Pair;
  caption: string;
}) {
  const f = (v: number) => (unit === 'IOPS' ? fmtInt(v) : fmtNum(v, 1));
  return (
    <table className="table table--dense">
      <caption className="visually-hidden">{caption}</caption>
      <thead>
        <tr>
          <th scope="col">Direction</th>
          <th scope="col" className="num">
            NVMe ({unit})
          </th>
          <th scope="col" className="num">
            EBS ({unit})
          </th>
          <th scope="col" className="num">
            Delta
          </th>
        </tr>
      </thead>
      <tbody>
        {rows.map((r) => (
          <tr key={r.metric}>
            <th scope="row">{r.metric}</th>
            <td className="num">{f(r.nvme)}</td>
            <td className="num">{f(r.ebs)}</td>
            <td className="num">{r.verdict}</td>
          </tr>
        ))}
      </tbody>
      <tfoot>
        <tr>
          <td colSpan={4} className="cell-note">
            EBS: {pair.ebs.title} · NVMe: {pair.nvme.title}. Delta = (EBS − NVMe) ÷ NVMe.
          </td>
        </tr>
      </tfoot>
    </table>
  );
}

function CostTable({ pair, premiums }: { pair: Pair; premiums: Record<string, NvmePremiumInfo> }) {
  const ebsCost = pair.ebs.plan?.cost.current ?? null;
  const nvmeCost = pair.nvme.plan?.cost.nvme ?? null;
  const premium = pair.nvme.instanceType ? premiums[pair.nvme.instanceType] : undefined;
  return (
    <TableScroll label="Cost per month of each option, and per unit of capability">
      <table className="table table--dense">
        <caption>Cost per month of each option, and per unit of capability</caption>
        <thead>
          <tr>
            <th scope="col">Option</th>
            <th scope="col" className="num">
              Per month
            </th>
            <th scope="col" className="num">
              Per IOPS-month
            </th>
            <th scope="col" className="num">
              Per MiB/s-month
            </th>
            <th scope="col">How it is priced</th>
          </tr>
        </thead>
        <tbody>
          <tr>
            <th scope="row">EBS: {pair.ebs.plan?.target?.description ?? pair.ebs.title}</th>
            {ebsCost ? (
              <>
                <td className="num">{fmtUsd(ebsCost.monthlyUsd.total)}</td>
                <td className="num">{fmtUsdPrecise(ebsCost.usdPerIops)}</td>
                <td className="num">{fmtUsdPrecise(ebsCost.usdPerMiBps)}</td>
                <td>
                  storage {fmtUsd(ebsCost.monthlyUsd.storage)} + IOPS {fmtUsd(ebsCost.monthlyUsd.iops)} +
                  throughput {fmtUsd(ebsCost.monthlyUsd.throughput)}; per provisioned capability
                </td>
              </>
            ) : (
              <td colSpan={4}>Label the EBS run with its volume type and size to price it.</td>
            )}
          </tr>
          <tr>
            <th scope="row">NVMe: {pair.nvme.instanceType ?? pair.nvme.title} instance store</th>
            {nvmeCost ? (
              <>
                <td className="num">{fmtUsd(nvmeCost.monthlyPremiumUsd)}</td>
                <td className="num">
                  read {fmtUsdPrecise(nvmeCost.usdPerReadIops)}
                  <br />
                  write {fmtUsdPrecise(nvmeCost.usdPerWriteIops)}
                </td>
                <td className="num">{fmtUsdPrecise(nvmeCost.usdPerMiBps)}</td>
                <td>
                  {premium
                    ? `the ${premium.dType} premium over ${premium.baseType}: $${premium.usdPerHour}/h × ${HOURS_PER_MONTH} h (${premium.region ?? 'us-east-1'} on-demand)`
                    : `the d-variant’s premium over its base type (us-east-1 on-demand, ${HOURS_PER_MONTH} h)`}
                  ; per IOPS on AWS’s 4 KiB spec, per MiB/s on what was measured. Ephemeral: data is lost on
                  stop/terminate.
                </td>
              </>
            ) : (
              <td colSpan={4}>
                {pair.nvme.instanceType
                  ? `No d-variant price pair for ${pair.nvme.instanceType} in the catalog.`
                  : 'Label the NVMe run with its instance type to price the instance store.'}
              </td>
            )}
          </tr>
        </tbody>
      </table>
    </TableScroll>
  );
}

function describeRun(run: RunView): string {
  const config = [
    run.kind === 'ebs' ? run.plan?.target?.description : null,
    run.instanceType ? `on ${run.instanceType}` : null,
  ]
    .filter(Boolean)
    .join(' ');
  return config ? `${run.title} (${config})` : run.title;
}

/** Settings shown in the "same fio job" line: the ones a job file sets (defaults and n/a left out). */
function sameJobText(run: RunView): string {
  return describeJobSettings(run.jobSettings ?? [])
    .filter((s) => s.value !== 'not set' && s.value !== 'n/a')
    .map((s) => `${s.setting} ${s.value}`)
    .join(', ');
}

/**
 * Whether the two runs ran the same fio job, at the top of the comparison: a different job
 * (`jobs_differ`) is announced, with each differing setting, because it voids every verdict below.
 */
function JobsCheck({ comparison, pair }: { comparison: RunPairComparison; pair: Pair }) {
  if (comparison.jobsDiffer === true) {
    return (
      <div className="callout callout--concern" role="alert" data-code="jobs_differ">
        <p>
          <strong>Different fio jobs: no verdict.</strong> These runs did not run the same fio job, so their
          numbers are shown side by side but not judged against each other — the difference may come from the
          job, not the storage. Rerun one of them with the other’s job file to compare.
        </p>
        <TableScroll label="fio settings that differ between the two runs">
          <table className="table table--dense">
            <caption>fio settings that differ</caption>
            <thead>
              <tr>
                <th scope="col">Setting</th>
                <th scope="col">NVMe: {pair.nvme.title}</th>
                <th scope="col">EBS: {pair.ebs.title}</th>
              </tr>
            </thead>
            <tbody>
              {comparison.differences.map((d) => (
                <tr key={d.setting}>
                  <th scope="row">{d.setting}</th>
                  <td>{d.reference}</td>
                  <td>{d.candidate}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </TableScroll>
      </div>
    );
  }
  if (comparison.jobsDiffer === false) {
    return (
      <p className="callout callout--ok">
        <strong>Same fio job on both runs: </strong>
        {sameJobText(pair.nvme)}.
      </p>
    );
  }
  return (
    <p className="field__hint">
      Whether both runs ran the same fio job cannot be checked here (a file without job options, or a
      comparison saved before settings were recorded): compare only runs of the same job file.
    </p>
  );
}

/**
 * NVMe vs EBS: bandwidth and IOPS side by side with deltas, latency percentiles, and cost.
 * Compared by value: the runs do not change with the what-if settings, and a slider step should
 * not redraw this part of the page (bench P16).
 */
export const ComparePanel = memo(ComparePanelView, sameData);

function ComparePanelView({
  runs,
  stored,
  premiums = {},
}: {
  runs: RunView[];
  /** The comparison stored with the result (frozen in a share link), for its pair. */
  stored?: RunPairComparison | null;
  premiums?: Record<string, NvmePremiumInfo>;
}) {
  const id = useId();
  const [chosen, setChosen] = useState<{ ebs?: string; nvme?: string }>({});
  const pair = pickPair(runs, chosen);
  const withLatency = runs.filter((r) => r.headline.readClatMs || r.headline.writeClatMs);

  if (!pair) {
    return (
      <>
        <EmptyState title="Nothing to compare yet">
          <p>
            Label one fio run as <strong>NVMe instance store</strong> and another as{' '}
            <strong>EBS volume</strong> (same fio job, same instance generation) to compare bandwidth, IOPS,
            latency and cost.
          </p>
        </EmptyState>
        {withLatency.length > 0 ? (
          <Region title="Latency of your runs" level={3}>
            <LatencyPanel
              title="Latency of your runs"
              seriesFor={(d) =>
                withLatency.map((r, i) => seriesOf(r, d, `s${i}`, SERIES[i % SERIES.length]!))
              }
              promiseLists={promiseListsOf(withLatency)}
            />
          </Region>
        ) : null}
      </>
    );
  }

  const comparison = comparePair(pair, stored);
  const withheld = comparison.verdict.status === 'withheld';
  const { throughput, iops } = rateRows(comparison);
  const ebsRuns = runs.filter((r) => r.kind === 'ebs');
  const nvmeRuns = runs.filter((r) => r.kind === 'nvme');
  const deltaCaption = withheld ? 'no deltas: different fio jobs' : 'labels show EBS’s delta';

  return (
    <div className="compare">
      {ebsRuns.length > 1 || nvmeRuns.length > 1 ? (
        <div className="field-row">
          <SelectField
            id={`${id}-ebs`}
            label="EBS run"
            value={pair.ebs.id}
            onChange={(e) => setChosen((c) => ({ ...c, ebs: e.target.value }))}
          >
            {ebsRuns.map((r) => (
              <option key={r.id} value={r.id}>
                {r.title}
              </option>
            ))}
          </SelectField>
          <SelectField
            id={`${id}-nvme`}
            label="NVMe run"
            value={pair.nvme.id}
            onChange={(e) => setChosen((c) => ({ ...c, nvme: e.target.value }))}
          >
            {nvmeRuns.map((r) => (
              <option key={r.id} value={r.id}>
                {r.title}
              </option>
            ))}
          </SelectField>
        </div>
      ) : null}
      <JobsCheck comparison={comparison} pair={pair} />
      <p className="compare__legend">
        <span className="legend-item">
          <span className="swatch swatch--nvme" aria-hidden="true" /> NVMe: {describeRun(pair.nvme)}
        </span>
        <span className="legend-item">
          <span className="swatch swatch--ebs" aria-hidden="true" /> EBS: {describeRun(pair.ebs)}
        </span>
      </p>
      <div className="grid-2">
        <ChartFrame
          title="Bandwidth: NVMe vs EBS"
          caption={
            <>
              Throughput in <Unit unit="MiB/s" />; {deltaCaption}
            </>
          }
          height={260}
          table={<RatesTable rows={throughput} unit="MiB/s" pair={pair} caption="Bandwidth: NVMe vs EBS" />}
        >
          <RatesChart
            rows={throughput}
            unit="MiB/s"
            ebsName={pair.ebs.title}
            nvmeName={pair.nvme.title}
            title="Bandwidth"
          />
        </ChartFrame>
        <ChartFrame
          title="IOPS: NVMe vs EBS"
          caption={
            <>
              <Unit unit="IOPS" /> as fio measured them; {deltaCaption}
            </>
          }
          height={260}
          table={<RatesTable rows={iops} unit="IOPS" pair={pair} caption="IOPS: NVMe vs EBS" />}
        >
          <RatesChart
            rows={iops}
            unit="IOPS"
            ebsName={pair.ebs.title}
            nvmeName={pair.nvme.title}
            title="IOPS"
          />
        </ChartFrame>
      </div>
      <Region title="Latency: NVMe vs EBS" level={3} resetKey={`${pair.ebs.id}|${pair.nvme.id}`}>
        <LatencyPanel
          title="NVMe vs EBS"
          seriesFor={(d) => [
            seriesOf(pair.nvme, d, 'nvme', COLORS.nvme, `NVMe: ${pair.nvme.title}`),
            seriesOf(pair.ebs, d, 'ebs', COLORS.ebs, `EBS: ${pair.ebs.title}`),
          ]}
          comparisonFor={(d) => (withheld ? 'withheld' : latencyVerdict(comparison, d))}
          promiseLists={promiseListsOf([pair.nvme, pair.ebs])}
        />
      </Region>
      <Region title="Cost: NVMe vs EBS" level={3}>
        <CostTable pair={pair} premiums={premiums} />
      </Region>
    </div>
  );
}
