import {
  GP2,
  GP3,
  HDD,
  VOLUME_TRAITS,
  VOLUME_TYPES,
  provisionableGp3ThroughputMiBps,
  type Gp3Generation,
  type VolumeType,
} from '@blockwise/shared/aws';
import {
  datasetCapacityOf,
  datasetCapacityText,
  includedSettingsOf,
  isUsable,
  provisionedFieldsOf,
  settingRangesOf,
  volumeWithSettings,
  type Recommendation,
  type Residency,
  volumeOfRecommendation,
} from '@blockwise/shared/plan';
import { type Problem } from '@blockwise/shared/problem';
import { type PlanSession } from '@blockwise/shared/records';
import { memo, useId } from 'react';
import { SelectField, TextField } from '../../../components/Field.tsx';
import { SliderField } from '../../../components/SliderField.tsx';
import { fmtInt } from '../../../lib/format.ts';
import { sameData } from '../../../lib/same-data.ts';
import { numberText, parseNumberText } from '../../../lib/parse-number.ts';
import { describeRecommendation } from '../../../lib/plan-text.ts';

/**
 * The what-if knobs: headroom, latency percentile, cluster size, gp3 limits generation, workload
 * facts, and candidate volumes with size / IOPS / throughput sliders. Every change recomputes the
 * plans at once (the domain is pure and fast); invalid combinations are explained by the domain's
 * `validateVolume` next to the field and left out of the computation until fixed.
 */

type Candidate = PlanSession['candidates'][number];

export type WhatIfSettings = Pick<
  PlanSession,
  | 'headroom'
  | 'nodes'
  | 'gp3Generation'
  | 'syncCommits'
  | 'residency'
  | 'datasetGiB'
  | 'datasetGrowth'
  | 'candidates'
>;

/** The dataset as the answer says it: today's size, and the grown one when it grows. */
function datasetSizeText(settings: WhatIfSettings): string {
  const c = datasetCapacityOf(settings.datasetGiB, settings.datasetGrowth);
  return c ? datasetCapacityText(c) : 'not known';
}

type Props = {
  settings: WhatIfSettings;
  focusPercentile: string;
  candidateProblems: Problem[][];
  recommendations: readonly Recommendation[];
  onSettings: (patch: Partial<WhatIfSettings>) => void;
  onFocusPercentile: (p: string) => void;
  onCandidate: (index: number, volume: Candidate) => void;
  onAddCandidate: (volume: Candidate) => void;
  onRemoveCandidate: (index: number) => void;
};

export const PERCENTILES = ['50', '99', '99.9', '99.99'] as const;

const GP3_GENERATIONS = [
  ['current', 'Current'],
  ['before-2025', 'Before 2025'],
] as const satisfies readonly (readonly [Gp3Generation, string])[];

/**
 * A starting configuration for a type, at the given size (at least the type's smallest): what it
 * includes; io1/io2, which include no IOPS, start at gp3's included 3,000 so types compare alike.
 */
export function defaultCandidate(type: VolumeType, sizeGiB = 1000): Candidate {
  const ranges = settingRangesOf(type);
  const included = includedSettingsOf(type);
  const start = volumeWithSettings({
    type,
    sizeGiB: Math.max(sizeGiB, ranges.sizeGiB[0]),
    iops: ranges.iops ? (included.iops ?? GP3.iops.included.value) : null,
    throughputMiBps: included.throughputMiBps,
    count: 1,
  });
  return { ...start, count: 1 };
}

/** Switching type keeps the size and what the new type can take. */
function retype(c: Candidate, type: VolumeType): Candidate {
  const d = defaultCandidate(type, c.sizeGiB);
  if (provisionedFieldsOf(type).iops && c.iops !== undefined) d.iops = c.iops;
  return { ...d, count: c.count };
}

function problemFor(problems: Problem[], path: string): string | null {
  return problems.filter((p) => p.path === path).map((p) => p.message)[0] ?? null;
}

/**
 * One candidate volume's fields. Compared by value (with the page's stable handlers): a headroom
 * step leaves every candidate as it is and should not re-render them (bench P16).
 */
const CandidateEditor = memo(function CandidateEditor({
  index,
  candidate,
  gen,
  problems,
  onCandidate,
  onRemoveCandidate,
}: {
  index: number;
  candidate: Candidate;
  gen: Gp3Generation;
  problems: Problem[];
  onCandidate: (index: number, c: Candidate) => void;
  onRemoveCandidate: (index: number) => void;
}) {
  const onChange = (c: Candidate) => onCandidate(index, c);
  const onRemove = () => onRemoveCandidate(index);
  const id = useId();
  const r = settingRangesOf(candidate.type, gen);
  const included = includedSettingsOf(candidate.type);
  const name = `Candidate ${index + 1}`;
  const other = problems.filter((p) => !['sizeGiB', 'iops', 'throughputMiBps'].includes(p.path ?? ''));
  return (
    <fieldset className="candidate">
      <legend>
        {name}: {candidate.type}
        {problems.length > 0 ? <span className="badge badge--concern">needs a fix</span> : null}
      </legend>
      <div className="candidate__grid">
        <SelectField
          id={`${id}-type`}
          label="Volume type"
          value={candidate.type}
          onChange={(e) => onChange(retype(candidate, e.target.value as VolumeType))}
        >
          {VOLUME_TYPES.map((t) => (
            <option key={t} value={t}>
              {VOLUME_TRAITS[t].name}
            </option>
          ))}
        </SelectField>
        <TextField
          id={`${id}-count`}
          label="Striped volumes"
          inputMode="numeric"
          value={numberText(candidate.count)}
          onChange={(e) => {
            const n = parseNumberText(e.target.value);
            if (n !== null && Number.isInteger(n) && n >= 1 && n <= 64) onChange({ ...candidate, count: n });
          }}
          hint="1–64, RAID 0"
        />
      </div>
      <SliderField
        label={`${name} size`}
        value={candidate.sizeGiB}
        min={r.sizeGiB[0]}
        max={r.sizeGiB[1]}
        step={1}
        scale="log"
        unit="GiB"
        error={problemFor(problems, 'sizeGiB')}
        onChange={(sizeGiB) => onChange({ ...candidate, sizeGiB })}
      />
      {r.iops ? (
        <SliderField
          label={`${name} IOPS`}
          value={candidate.iops ?? r.iops[0]}
          min={r.iops[0]}
          max={r.iops[1]}
          step={100}
          unit="IOPS"
          suffixes
          hint={
            included.iops !== null ? `${fmtInt(included.iops)} included` : 'all provisioned IOPS are billed'
          }
          error={problemFor(problems, 'iops')}
          onChange={(iops) => onChange({ ...candidate, iops })}
        />
      ) : (
        <p className="field__hint">
          {candidate.type === 'gp2'
            ? `gp2 IOPS follow the size: ${GP2.iops.perGiB.value} per GiB, ${fmtInt(GP2.iops.baselineMin.value)}–${fmtInt(GP2.iops.baselineMax.value)} (bursts to ${fmtInt(GP2.iops.burst.value)} below 1 TiB).`
            : hddSizeHint(candidate.type)}
        </p>
      )}
      {r.throughputMiBps ? (
        <SliderField
          label={`${name} throughput`}
          value={candidate.throughputMiBps ?? r.throughputMiBps[0]}
          min={r.throughputMiBps[0]}
          max={r.throughputMiBps[1]}
          step={5}
          unit="MiB/s"
          hint={`Whole MiB/s (a fraction is rounded up); ${included.throughputMiBps ?? 0} MiB/s included; at most ${GP3.throughputMiBps.maxPerProvisionedIops.value} MiB/s per provisioned IOPS`}
          error={problemFor(problems, 'throughputMiBps')}
          // gp3 throughput is provisioned in whole MiB/s: the field then shows the rounded value.
          onChange={(tp) => onChange({ ...candidate, throughputMiBps: provisionableGp3ThroughputMiBps(tp) })}
        />
      ) : null}
      {other.map((p) => (
        <p key={p.message} className="field__error">
          {p.message}
        </p>
      ))}
      <button type="button" className="btn btn--small btn--ghost" onClick={onRemove}>
        Remove {name.toLowerCase()}
      </button>
    </fieldset>
  );
}, sameData);

/** The add-a-candidate buttons: the side-by-side types first, then every other type in the registry's order. */
const ADD_FIRST: readonly VolumeType[] = ['gp3', 'io2', 'gp2'];
const ADD_ORDER: readonly VolumeType[] = [
  ...ADD_FIRST,
  ...VOLUME_TYPES.filter((t) => !ADD_FIRST.includes(t)),
];

/** st1/sc1: throughput is bought per TiB of size (aws/volume-types.ts HDD, AWS EBS User Guide "HDD volumes"). */
function hddSizeHint(type: VolumeType): string {
  if (type !== 'st1' && type !== 'sc1') return `${type}: performance follows the size.`;
  const h = HDD[type];
  return `${type} throughput follows the size: ${h.baselineMiBpsPerTiB.value} MiB/s per TiB sustained, ${h.burstMiBpsPerTiB.value} MiB/s per TiB on burst credits, at most ${fmtInt(h.maxMiBps.value)} MiB/s (${fmtInt(h.maxIops.value)} I/O of up to 1 MiB per second).`;
}

export function WhatIfControls(props: Props) {
  const { settings, focusPercentile, candidateProblems, recommendations } = props;
  const id = useId();
  const headroomPct = Math.round(settings.headroom * 100);
  // Sized and priced (meets the target, or capped by the instance): what can be bought as stated.
  const viable = recommendations.filter(
    (r) => isUsable(r) && (r.type === 'gp3' || r.type === 'io2' || r.type === 'gp2'),
  );
  const firstSize = settings.candidates[0]?.sizeGiB ?? 1000;
  return (
    <div className="what-if">
      <div className="what-if__knobs">
        <SliderField
          label="Headroom above the peak"
          value={headroomPct}
          min={0}
          max={100}
          step={5}
          unit="%"
          hint="The guide advises 20–30%; below 11.1% EBS’s 90% delivery promise can fall short"
          error={headroomPct > 500 ? 'At most 500%.' : null}
          onChange={(pct) => pct >= 0 && pct <= 500 && props.onSettings({ headroom: pct / 100 })}
        />
        <SelectField
          id={`${id}-pct`}
          label="Judge latency at"
          value={focusPercentile}
          onChange={(e) => props.onFocusPercentile(e.target.value)}
          hint="The percentile each plan’s verdict is summarized at"
        >
          {PERCENTILES.map((p) => (
            <option key={p} value={p}>
              p{p}
            </option>
          ))}
        </SelectField>
        <SliderField
          label="Cluster size (nodes)"
          value={settings.nodes}
          min={1}
          max={64}
          step={1}
          unit="nodes"
          suffixes
          hint="One volume configuration per node; costs multiply"
          onChange={(nodes) =>
            Number.isInteger(nodes) && nodes >= 1 && nodes <= 100_000 && props.onSettings({ nodes })
          }
        />
        <SelectField
          id={`${id}-gen`}
          label="gp3 limits"
          value={settings.gp3Generation}
          onChange={(e) => props.onSettings({ gp3Generation: e.target.value as Gp3Generation })}
        >
          {GP3_GENERATIONS.map(([gen, text]) => (
            <option key={gen} value={gen}>
              {`${text}: ${fmtInt(GP3.iops.max[gen].value)} IOPS, ${fmtInt(GP3.throughputMiBps.max[gen].value)} MiB/s, ${fmtInt(GP3.sizeGiB.max[gen].value / 1024)} TiB`}
            </option>
          ))}
        </SelectField>
        <SelectField
          id={`${id}-res`}
          label="Working set in RAM (residency)"
          value={settings.residency}
          onChange={(e) => props.onSettings({ residency: e.target.value as Residency })}
        >
          <option value="unknown">Unknown</option>
          <option value="high">High: reads mostly served from RAM</option>
          <option value="low">Low: reads go to the device</option>
        </SelectField>
        <p className="field__hint">
          Dataset size: {datasetSizeText(settings)} — asked beside the peaks,{' '}
          <a href="#answer">in the answer</a>.
        </p>
        <label className="checkbox">
          <input
            type="checkbox"
            checked={settings.syncCommits}
            onChange={(e) => props.onSettings({ syncCommits: e.target.checked })}
          />
          Synchronous commits (every write waits on fsync: latency thresholds halve)
        </label>
      </div>
      <div className="what-if__candidates">
        <h3 className="subhead">Candidate volumes</h3>
        {settings.candidates.length === 0 ? (
          <p className="field__hint">
            No candidate yet: add the volume you run today and the alternatives you consider. Without one,
            only right-sizing and the instance’s limits are shown.
          </p>
        ) : null}
        {settings.candidates.map((c, i) => (
          <CandidateEditor
            key={i}
            index={i}
            candidate={c}
            gen={settings.gp3Generation}
            problems={candidateProblems[i] ?? []}
            onCandidate={props.onCandidate}
            onRemoveCandidate={props.onRemoveCandidate}
          />
        ))}
        <div className="button-row" role="group" aria-label="Add a candidate volume">
          {ADD_ORDER.map((t) => (
            <button
              key={t}
              type="button"
              className="btn btn--small"
              disabled={settings.candidates.length >= 10}
              onClick={() => props.onAddCandidate(defaultCandidate(t, firstSize))}
            >
              + {t}
            </button>
          ))}
        </div>
        {viable.length > 0 ? (
          <button
            type="button"
            className="btn btn--small"
            disabled={settings.candidates.length + viable.length > 10}
            onClick={() =>
              viable.forEach((r) => {
                const v = volumeOfRecommendation(r);
                props.onAddCandidate({ ...v, count: v.count ?? 1 });
              })
            }
          >
            Add the right-sized {viable.map((r) => r.type).join(', ')} as candidates
          </button>
        ) : null}
        {viable.length > 0 ? (
          <ul className="notes" aria-label="The right-sized configurations that button adds">
            {viable.map((r) => (
              <li key={r.type}>
                {describeRecommendation(r)}
                {r.status === 'capped-by-instance'
                  ? ' — capped by the instance: does not meet the target'
                  : ''}
              </li>
            ))}
          </ul>
        ) : null}
        <p className="field__hint">
          {settings.candidates.length} of 10 candidates · sizes in GiB (up to{' '}
          {fmtInt(GP3.sizeGiB.max[settings.gp3Generation].value)} for gp3)
        </p>
      </div>
    </div>
  );
}
