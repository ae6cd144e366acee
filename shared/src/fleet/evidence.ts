import type { Censoring } from '../demand/censoring.ts';
import { judgeLatencyPromise } from '../demand/measured-latency.ts';
import { descriptorOf, VOLUME_TYPES, type VolumeType } from '../aws/volume-types.ts';
import { fail, ok, type Result } from '../problem.ts';
import { formatInt } from '../units.ts';
import {
  EvidenceLevelSchema,
  INSTANCE_EVIDENCE_METRICS,
  VOLUME_EVIDENCE_METRICS,
  type EvidenceLevel,
  type EvidenceMetricName,
  type EvidenceSeries,
  type FleetInstanceEvidence,
  type FleetMetrics,
  type FleetVolume,
  type FleetVolumeEvidence,
  type MetricDataQuery,
} from './schema.ts';

/**
 * AWS's own evidence of throttling (issue 28): the exceeded checks say, per minute, whether the
 * workload asked a volume or an instance for more than its limit; the latency and balance metrics
 * say what it cost. Sources (docs/metrics-inputs.md has each metric's name, unit and statistic):
 * Amazon EBS User Guide, "Amazon CloudWatch metrics for Amazon EBS",
 * https://docs.aws.amazon.com/ebs/latest/userguide/using_cloudwatch_ebs.html; Amazon EC2 User
 * Guide, "Instance metrics" (EBS metrics for Nitro-based instances),
 * https://docs.aws.amazon.com/AWSEC2/latest/UserGuide/viewing_metrics_with_cloudwatch.html.
 *
 * The checks are 0/1 per minute; queried with Stat Sum at the fleet's Period, each point is the
 * number of minutes of that period the check fired, so the points stay as many as the Sums'
 * (5,000 volumes × 14 days at 1-minute resolution would be 20,160 points per series).
 */
type Spec = {
  namespace: 'AWS/EBS' | 'AWS/EC2';
  stat: 'Sum' | 'Maximum' | 'Minimum';
  kind: 'check' | 'latency' | 'balance';
  level: 'checks' | 'all';
  /** Query Id suffix: `v<volume index>_<suffix>` or `i<instance index>_<suffix>`. */
  suffix: string;
  /** Published only for these volume types (BurstBalance: gp2, st1, sc1). */
  types?: readonly string[];
};

export const EVIDENCE_SPECS: Record<EvidenceMetricName, Spec> = {
  VolumeIOPSExceededCheck: {
    namespace: 'AWS/EBS',
    stat: 'Sum',
    kind: 'check',
    level: 'checks',
    suffix: 'iops_x',
  },
  VolumeThroughputExceededCheck: {
    namespace: 'AWS/EBS',
    stat: 'Sum',
    kind: 'check',
    level: 'checks',
    suffix: 'tput_x',
  },
  VolumeStalledIOCheck: {
    namespace: 'AWS/EBS',
    stat: 'Sum',
    kind: 'check',
    level: 'checks',
    suffix: 'stall',
  },
  // Latency: AWS names Minimum and Maximum as the meaningful statistics; Maximum is the worst minute.
  VolumeAvgReadLatency: {
    namespace: 'AWS/EBS',
    stat: 'Maximum',
    kind: 'latency',
    level: 'all',
    suffix: 'r_lat',
  },
  VolumeAvgWriteLatency: {
    namespace: 'AWS/EBS',
    stat: 'Maximum',
    kind: 'latency',
    level: 'all',
    suffix: 'w_lat',
  },
  BurstBalance: {
    namespace: 'AWS/EBS',
    stat: 'Minimum',
    kind: 'balance',
    level: 'all',
    suffix: 'burst',
    types: ['gp2', 'st1', 'sc1'],
  },
  InstanceEBSIOPSExceededCheck: {
    namespace: 'AWS/EC2',
    stat: 'Sum',
    kind: 'check',
    level: 'checks',
    suffix: 'iops_x',
  },
  InstanceEBSThroughputExceededCheck: {
    namespace: 'AWS/EC2',
    stat: 'Sum',
    kind: 'check',
    level: 'checks',
    suffix: 'tput_x',
  },
  'EBSIOBalance%': { namespace: 'AWS/EC2', stat: 'Minimum', kind: 'balance', level: 'all', suffix: 'io_bal' },
  'EBSByteBalance%': {
    namespace: 'AWS/EC2',
    stat: 'Minimum',
    kind: 'balance',
    level: 'all',
    suffix: 'byte_bal',
  },
};

/**
 * `fleet query --evidence`, default `checks`. They decide what the plan says (throttled or not,
 * which limit binds) at a third more metrics requested (3 per volume + 2 per instance beside the 6);
 * latency and balances explain rather than decide, and `all` roughly doubles the extra queries.
 */
export const FleetEvidenceFlagSchema = EvidenceLevelSchema.default('checks');

/** EBSIOBalance% / EBSByteBalance% are basic monitoring: one point per 5 minutes. */
const BASIC_MONITORING_SECONDS = 300;

/**
 * CloudWatch GetMetricData is priced per metric requested: USD 0.01 per 1,000 metrics in
 * us-east-1 (Amazon CloudWatch pricing, https://aws.amazon.com/cloudwatch/pricing/, as of
 * 2026-11-28: the figure quoted from that page for issue 28, not re-fetched: no network here). Each MetricDataQuery of a request is one metric requested.
 */
export const GET_METRIC_DATA_PRICE = {
  usdPer1000: 0.01,
  region: 'us-east-1',
  date: '2026-11-28',
  source: 'https://aws.amazon.com/cloudwatch/pricing/',
  /** What `queries` metrics requested cost per run of the commands, USD. */
  usdFor: (queries: number) => (queries / 1000) * 0.01,
} as const;

const includes = (level: EvidenceLevel, spec: Spec) =>
  level === 'all' || (level === 'checks' && spec.level === 'checks');

/** The attached instances, in the order of the volumes (their first attachment, then Multi-Attach's others). */
export function instanceIdsOf(
  volumes: readonly Pick<FleetVolume, 'instanceId' | 'alsoAttachedTo'>[],
): string[] {
  const seen = new Set<string>();
  for (const v of volumes) for (const id of [v.instanceId, ...v.alsoAttachedTo]) if (id) seen.add(id);
  return [...seen];
}

/** `vol-0abc VolumeIOPSExceededCheck`, `i-0abc EBSIOBalance%`: the Label names the subject and metric. */
const evidenceLabel = (id: string, metric: EvidenceMetricName) => `${id} ${metric}`;

/**
 * The evidence queries at `level`: per volume the AWS/EBS checks (and, at `all`, latency and
 * BurstBalance for gp2/st1/sc1), per attached instance the AWS/EC2 checks (and balances).
 */
export function buildEvidenceQueries(
  volumes: readonly Pick<FleetVolume, 'volumeId' | 'type' | 'instanceId' | 'alsoAttachedTo'>[],
  level: EvidenceLevel,
  periodSeconds: number,
): MetricDataQuery[] {
  if (level === 'none') return [];
  const out: MetricDataQuery[] = [];
  const query = (
    id: string,
    subject: string,
    dimension: 'VolumeId' | 'InstanceId',
    metric: EvidenceMetricName,
    period: number,
  ): MetricDataQuery => {
    const spec = EVIDENCE_SPECS[metric];
    return {
      Id: id,
      Label: evidenceLabel(subject, metric),
      MetricStat: {
        Metric: {
          Namespace: spec.namespace,
          MetricName: metric,
          Dimensions: [{ Name: dimension, Value: subject }],
        },
        Period: period,
        Stat: spec.stat,
      },
      ReturnData: true,
    };
  };
  volumes.forEach((v, i) => {
    for (const metric of VOLUME_EVIDENCE_METRICS) {
      const spec = EVIDENCE_SPECS[metric];
      if (!includes(level, spec) || (spec.types && !spec.types.includes(v.type))) continue;
      out.push(query(`v${i}_${spec.suffix}`, v.volumeId, 'VolumeId', metric, periodSeconds));
    }
  });
  instanceIdsOf(volumes).forEach((instanceId, k) => {
    for (const metric of INSTANCE_EVIDENCE_METRICS) {
      const spec = EVIDENCE_SPECS[metric];
      if (!includes(level, spec)) continue;
      const period =
        spec.kind === 'balance' ? Math.max(periodSeconds, BASIC_MONITORING_SECONDS) : periodSeconds;
      out.push(query(`i${k}_${spec.suffix}`, instanceId, 'InstanceId', metric, period));
    }
  });
  return out;
}

const ALL_EVIDENCE = [...VOLUME_EVIDENCE_METRICS, ...INSTANCE_EVIDENCE_METRICS] as readonly string[];
const VOLUME_ID_OF_SUFFIX = new Map(
  VOLUME_EVIDENCE_METRICS.map((m) => [EVIDENCE_SPECS[m].suffix, m] as const),
);
const EVIDENCE_ID = /^v(\d+)_([a-z_]+)$/;

/**
 * The subject and metric of an evidence result: from its Label (`<id> <metric>`), else, for a
 * volume's query whose Label was changed, from its Id through the volume order. Instance results
 * need their Label (the instance order is not passed to the readers). null: not evidence.
 */
export function evidenceTargetOf(
  label: string | undefined,
  id: string,
  volumeIds: readonly string[] | undefined,
): { id: string; metric: EvidenceMetricName } | null {
  if (label !== undefined) {
    const [subject, metric, ...rest] = label.trim().split(/\s+/);
    if (subject && metric && rest.length === 0 && ALL_EVIDENCE.includes(metric)) {
      const instance = (INSTANCE_EVIDENCE_METRICS as readonly string[]).includes(metric);
      // A volume metric names a volume, an instance metric an instance.
      if (instance === subject.startsWith('i-') && (instance || subject.startsWith('vol-')))
        return { id: subject, metric: metric as EvidenceMetricName };
    }
  }
  const m = EVIDENCE_ID.exec(id);
  const metric = m ? VOLUME_ID_OF_SUFFIX.get(m[2]!) : undefined;
  const volumeId = m ? volumeIds?.[Number(m[1])] : undefined;
  return metric && volumeId ? { id: volumeId, metric } : null;
}

/** Latency above 10 minutes per operation is not an average latency: refused as input. */
const MAX_LATENCY_MS = 600_000;

/**
 * Each point within what the metric can be: a check's Sum is 0 to the period's minutes; a
 * latency 0 to MAX_LATENCY_MS; a balance 0 to 100 %. Else the file is refused, naming the point.
 */
export function checkEvidenceValues(
  values: ArrayLike<number>,
  metric: EvidenceMetricName,
  periodSeconds: number,
  file: string,
  where: string,
): Result<true> {
  const kind = EVIDENCE_SPECS[metric].kind;
  const ceiling = kind === 'check' ? periodSeconds / 60 : kind === 'latency' ? MAX_LATENCY_MS : 100;
  const what =
    kind === 'check'
      ? `minutes of a ${periodSeconds}-s period (a Sum of a 0/1 per-minute check)`
      : kind === 'latency'
        ? 'milliseconds'
        : 'percent';
  for (let i = 0; i < values.length; i++) {
    const v = values[i]!;
    if (v >= 0 && v <= ceiling) continue;
    const path = `${where}.Values.${i}`;
    return fail(
      'metrics_invalid',
      `${file}: ${path}: ${metric}: expected 0 to ${ceiling} ${what}, got ${v}`,
      path,
    );
  }
  return ok(true);
}

const DAY_MS = 86_400_000;

const newEvidenceSeries = (): EvidenceSeries => ({
  count: 0,
  sum: 0,
  min: Infinity,
  max: -Infinity,
  positive: 0,
  positiveSum: 0,
  days: new Map(),
  daysKnown: true,
});

/** Folds one result's points into its subject's series; `timeOf(i)` is each point's time, ms (null: unknown). */
export function foldEvidence(
  into: FleetMetrics,
  target: { id: string; metric: EvidenceMetricName },
  values: ArrayLike<number>,
  timeOf: ((i: number) => number) | null,
): void {
  const all = (into.evidence ??= new Map());
  let perSubject = all.get(target.id);
  if (perSubject === undefined) all.set(target.id, (perSubject = {}));
  const s = (perSubject[target.metric] ??= newEvidenceSeries());
  if (timeOf === null && values.length > 0) s.daysKnown = false;
  for (let i = 0; i < values.length; i++) {
    const v = values[i]!;
    s.count++;
    s.sum += v;
    if (v < s.min) s.min = v;
    if (v > s.max) s.max = v;
    if (v > 0) {
      s.positive++;
      s.positiveSum += v;
    }
    if (timeOf === null) continue;
    const t = timeOf(i);
    if (!Number.isFinite(t)) {
      s.daysKnown = false;
      continue;
    }
    const day = Math.floor(t / DAY_MS);
    const d = s.days.get(day);
    if (d === undefined) s.days.set(day, { sum: v, min: v });
    else {
      d.sum += v;
      if (v < d.min) d.min = v;
    }
  }
}

/** Adds `from`'s evidence to `into`'s (worker threads' parts): sums, extremes and days combine in any order. */
export function mergeEvidence(into: FleetMetrics, from: FleetMetrics['evidence']): void {
  if (from === undefined) return;
  const all = (into.evidence ??= new Map());
  for (const [id, perSubject] of from) {
    const target = all.get(id);
    if (target === undefined) {
      all.set(id, perSubject);
      continue;
    }
    for (const metric of Object.keys(perSubject) as EvidenceMetricName[]) {
      const s = perSubject[metric]!;
      const t = target[metric];
      if (t === undefined) {
        target[metric] = s;
        continue;
      }
      t.count += s.count;
      t.sum += s.sum;
      t.min = Math.min(t.min, s.min);
      t.max = Math.max(t.max, s.max);
      t.positive += s.positive;
      t.positiveSum += s.positiveSum;
      t.daysKnown &&= s.daysKnown;
      for (const [day, d] of s.days) {
        const e = t.days.get(day);
        if (e === undefined) t.days.set(day, { ...d });
        else {
          e.sum += d.sum;
          e.min = Math.min(e.min, d.min);
        }
      }
    }
  }
}

/* ---------- What the plan says (planFleet) ---------- */

const n0 = formatInt;
const dateOf = (day: number) => new Date(day * DAY_MS).toISOString().slice(0, 10);
const minutesOf = (s: EvidenceSeries | undefined) => (s && s.count > 0 ? s.sum : null);

/** Per UTC day, the larger of two checks' minutes that day (days with none left out); null when not placeable. */
function throttledDaysOf(a: EvidenceSeries | undefined, b: EvidenceSeries | undefined) {
  const present = [a, b].filter((s): s is EvidenceSeries => s !== undefined && s.count > 0);
  if (present.length === 0 || present.some((s) => !s.daysKnown)) return null;
  const days = new Map<number, number>();
  for (const s of present)
    for (const [day, d] of s.days) if (d.sum > 0) days.set(day, Math.max(days.get(day) ?? 0, d.sum));
  return [...days].sort((x, y) => x[0] - y[0]).map(([day, minutes]) => ({ date: dateOf(day), minutes }));
}

const maxOrNull = (a: number | null, b: number | null) => (a === null ? b : b === null ? a : Math.max(a, b));

/** Days a balance's minimum reached 0 (credits ran out); null when no data or the days are unknown. */
function emptyDaysOf(...series: (EvidenceSeries | undefined)[]): number | null {
  const present = series.filter((s): s is EvidenceSeries => s !== undefined && s.count > 0);
  if (present.length === 0 || present.some((s) => !s.daysKnown)) return null;
  const days = new Set<number>();
  for (const s of present) for (const [day, d] of s.days) if (d.min <= 0) days.add(day);
  return days.size;
}

const latencyOf = (s: EvidenceSeries | undefined) =>
  s && s.positive > 0
    ? { typicalMs: Math.round((s.positiveSum / s.positive) * 1000) / 1000, maxMs: s.max, points: s.positive }
    : null;

const isVolumeType = (t: string): t is VolumeType => (VOLUME_TYPES as readonly string[]).includes(t);

/** The instance's evidence, or null when none of its metrics was read. */
export function instanceEvidenceOf(metrics: FleetMetrics, instanceId: string): FleetInstanceEvidence | null {
  const e = metrics.evidence?.get(instanceId);
  if (e === undefined) return null;
  const iops = minutesOf(e.InstanceEBSIOPSExceededCheck);
  const tput = minutesOf(e.InstanceEBSThroughputExceededCheck);
  const io = e['EBSIOBalance%'];
  const byte = e['EBSByteBalance%'];
  const ioMin = io && io.count > 0 ? io.min : null;
  const byteMin = byte && byte.count > 0 ? byte.min : null;
  const empty = emptyDaysOf(io, byte);
  const days = throttledDaysOf(e.InstanceEBSIOPSExceededCheck, e.InstanceEBSThroughputExceededCheck);
  const findings: string[] = [];
  const said = (m: number | null, what: string) =>
    m === null ? `${what}: no data` : m > 0 ? `${what} exceeded ${n0(m)} min` : `${what} never exceeded`;
  findings.push(
    `${said(iops, 'EBS IOPS (InstanceEBSIOPSExceededCheck)')}; ${said(tput, 'EBS throughput (InstanceEBSThroughputExceededCheck)')}${days && days.length > 0 ? `; throttled on ${days.length} day(s), worst ${days.reduce((a, d) => (d.minutes > a.minutes ? d : a)).date} with ${n0(Math.max(...days.map((d) => d.minutes)))} min` : ''}`,
  );
  if (ioMin !== null || byteMin !== null)
    findings.push(
      `EBS burst balance minimum: IO ${ioMin === null ? 'no data' : `${ioMin} %`}, bytes ${byteMin === null ? 'no data' : `${byteMin} %`}${empty !== null && empty > 0 ? `; credits ran out on ${empty} day(s)` : ''}`,
    );
  return {
    iopsExceededMinutes: iops,
    throughputExceededMinutes: tput,
    throttledDays: days,
    ioBalanceMinPct: ioMin,
    byteBalanceMinPct: byteMin,
    balanceEmptyDays: empty,
    findings,
  };
}

/**
 * The latency clause of a finding: the volume's typical latency against its own type's promise,
 * judged by judgeLatencyPromise (demand/measured-latency.ts), the one rule every measured latency
 * goes through — so "above" means more than the 20 % the fio comparison allows over the bound. A
 * latency under the promise's floor is within it here: the volume is already on that type.
 */
export function promiseClause(type: VolumeType, text: string, typicalMs: number): string {
  const judged = judgeLatencyPromise({ statistic: 'average', ms: typicalMs }, type);
  if (judged.promise === null) return `; ${type} promises ${text}`;
  const bound = judged.promise.underMs;
  if (judged.verdict === 'faster-than-today')
    return `; above what ${type} promises (${text}, < ${bound} ms, by more than the 20 % allowed)`;
  return typicalMs > bound
    ? `; within what ${type} promises (${text}, < ${bound} ms, with the 20 % allowed)`
    : `; within what ${type} promises (${text})`;
}

/** The measured volume evidence before the model is compared with it (volumeEvidenceOf → judgeBinding). */
export type VolumeChecks = {
  evidence: FleetVolumeEvidence;
  /** Exceeded-check censoring to feed the demand (one per quantity that fired). */
  censoring: Censoring[];
};

/**
 * A volume's evidence: minutes each check fired, per day, the instance's checks, latency beside
 * the type's promise, burst balance. `limits` are the volume's IOPS and MiB/s (for the censoring
 * records); `periodSeconds` turns the points into minutes covered. null when nothing was read.
 */
export function volumeEvidenceOf(
  metrics: FleetMetrics,
  v: Pick<FleetVolume, 'volumeId' | 'type' | 'instanceId'>,
  limits: { iops: number | null; mibps: number | null },
  periodSeconds: number,
): VolumeChecks | null {
  const e = metrics.evidence?.get(v.volumeId);
  const inst = v.instanceId ? metrics.evidence?.get(v.instanceId) : undefined;
  if (e === undefined && inst === undefined) return null;
  const iops = minutesOf(e?.VolumeIOPSExceededCheck);
  const tput = minutesOf(e?.VolumeThroughputExceededCheck);
  const stalled = minutesOf(e?.VolumeStalledIOCheck);
  const throttled = maxOrNull(iops, tput);
  const instanceThrottled = maxOrNull(
    minutesOf(inst?.InstanceEBSIOPSExceededCheck),
    minutesOf(inst?.InstanceEBSThroughputExceededCheck),
  );
  const days = throttledDaysOf(e?.VolumeIOPSExceededCheck, e?.VolumeThroughputExceededCheck);
  const readLatency = latencyOf(e?.VolumeAvgReadLatency);
  const writeLatency = latencyOf(e?.VolumeAvgWriteLatency);
  const promise = isVolumeType(v.type)
    ? {
        text: descriptorOf(v.type).trade.latency,
        maxMs: descriptorOf(v.type).latencyPromise?.underMs ?? null,
      }
    : null;
  const burst = e?.BurstBalance;
  const burstMin = burst && burst.count > 0 ? burst.min : null;
  const burstEmpty = emptyDaysOf(burst);
  const findings: string[] = [];
  const minutes = (m: number | null, what: string) =>
    m === null ? `${what}: no data` : m > 0 ? `${what} exceeded ${n0(m)} min` : `${what} never exceeded`;
  if (iops !== null || tput !== null)
    findings.push(
      `${minutes(iops, 'volume IOPS (VolumeIOPSExceededCheck)')}; ${minutes(tput, 'volume throughput (VolumeThroughputExceededCheck)')}${days && days.length > 0 ? `; throttled on ${days.length} day(s), worst ${days.reduce((a, d) => (d.minutes > a.minutes ? d : a)).date} with ${n0(Math.max(...days.map((d) => d.minutes)))} min` : ''}`,
    );
  else if (e !== undefined) findings.push('volume exceeded checks: no data');
  if (stalled !== null && stalled > 0)
    findings.push(
      `I/O stalled ${n0(stalled)} min (VolumeStalledIOCheck): check the volume's health before sizing`,
    );
  const window = Math.round(periodSeconds / 60);
  const covered = (s: EvidenceSeries | undefined) => (s ? s.count * window : 0);
  const censoring: Censoring[] = [];
  const censor = (
    quantity: Censoring['quantity'],
    m: number | null,
    limit: number | null,
    s?: EvidenceSeries,
  ) => {
    if (m === null || m <= 0 || limit === null || !(limit > 0)) return;
    const points = Math.max(covered(s), m);
    censoring.push({
      quantity,
      evidence: 'exceeded-check',
      limit,
      pointsAtLimit: m,
      points,
      share: m / points,
      exact: true,
    });
  };
  censor('iops', iops, limits.iops, e?.VolumeIOPSExceededCheck);
  censor(
    'throughput',
    tput,
    limits.mibps === null ? null : limits.mibps * 1_048_576,
    e?.VolumeThroughputExceededCheck,
  );
  const latencyLine = (dir: string, l: ReturnType<typeof latencyOf>, s: EvidenceSeries | undefined) => {
    if (s === undefined) return;
    if (l === null) {
      findings.push(`${dir} latency: no data (no minute with completed I/O)`);
      return;
    }
    const verdict = promise === null ? '' : promiseClause(v.type as VolumeType, promise.text, l.typicalMs);
    findings.push(
      `${dir} latency ${l.typicalMs.toFixed(2)} ms typical, ${l.maxMs.toFixed(2)} ms worst minute (VolumeAvg${dir === 'read' ? 'Read' : 'Write'}Latency, ${l.points} periods with I/O)${verdict}`,
    );
  };
  latencyLine('read', readLatency, e?.VolumeAvgReadLatency);
  latencyLine('write', writeLatency, e?.VolumeAvgWriteLatency);
  if (burst !== undefined)
    findings.push(
      burstMin === null
        ? 'burst balance: no data'
        : `burst balance minimum ${burstMin} %${burstEmpty !== null && burstEmpty > 0 ? `: credits ran out on ${burstEmpty} day(s)` : ''} (BurstBalance)`,
    );
  return {
    evidence: {
      iopsExceededMinutes: iops,
      throughputExceededMinutes: tput,
      stalledMinutes: stalled,
      throttledMinutes: throttled,
      throttledDays: days,
      instanceThrottledMinutes: instanceThrottled,
      readLatency,
      writeLatency,
      latencyPromise: promise,
      burstBalanceMinPct: burstMin,
      burstEmptyDays: burstEmpty,
      bindingCheck: throttled === null && instanceThrottled === null ? 'no-data' : 'none',
      modelBinding: null,
      findings,
    },
    censoring,
  };
}

/**
 * What the checks say of the model's binding limit. `confirmed`: the side the model names
 * (volume or instance) is the side whose check fired. `contradicted`: the model names one side,
 * only the other's check fired — the checks are AWS's measurement, so they are trusted and the
 * binding limit becomes the side that fired. Answers the binding to use and the sentence.
 */
export function judgeBinding(
  evidence: FleetVolumeEvidence,
  binding: {
    id: 'volume-iops' | 'volume-throughput' | 'instance-iops' | 'instance-throughput' | 'none';
    explanation: string;
  },
  instanceEvidence: FleetInstanceEvidence | null,
  instanceId: string | null,
): {
  bindingCheck: FleetVolumeEvidence['bindingCheck'];
  binding: typeof binding;
  sentence: string | null;
} {
  const vol = evidence.throttledMinutes;
  const ins = evidence.instanceThrottledMinutes;
  if (vol === null && ins === null) return { bindingCheck: 'no-data', binding, sentence: null };
  const volFired = (vol ?? 0) > 0;
  const insFired = (ins ?? 0) > 0;
  if (!volFired && !insFired) return { bindingCheck: 'none', binding, sentence: null };
  const modelSide = binding.id.startsWith('volume')
    ? 'volume'
    : binding.id.startsWith('instance')
      ? 'instance'
      : null;
  const volWhich =
    (evidence.iopsExceededMinutes ?? 0) >= (evidence.throughputExceededMinutes ?? 0) ? 'iops' : 'throughput';
  const insWhich =
    (instanceEvidence?.iopsExceededMinutes ?? 0) >= (instanceEvidence?.throughputExceededMinutes ?? 0)
      ? 'iops'
      : 'throughput';
  const volCheck = volWhich === 'iops' ? 'VolumeIOPSExceededCheck' : 'VolumeThroughputExceededCheck';
  const insCheck =
    insWhich === 'iops' ? 'InstanceEBSIOPSExceededCheck' : 'InstanceEBSThroughputExceededCheck';
  if (modelSide === 'volume' && volFired)
    return {
      bindingCheck: 'confirmed',
      binding,
      sentence: `the checks confirm the binding limit: ${volCheck} fired ${n0(vol!)} min (${binding.explanation})`,
    };
  if (modelSide === 'instance' && insFired)
    return {
      bindingCheck: 'confirmed',
      binding,
      sentence: `the checks confirm the binding limit: ${instanceId}'s ${insCheck} fired ${n0(ins!)} min (${binding.explanation})`,
    };
  if (insFired && !volFired) {
    const id = insWhich === 'iops' ? 'instance-iops' : 'instance-throughput';
    return {
      bindingCheck: 'contradicted',
      binding: {
        id,
        explanation: `CloudWatch: ${instanceId}'s ${insCheck} fired ${n0(ins!)} min, the volume's checks ${vol === null ? 'have no data' : 'never'}: the instance's EBS limit throttles it (the model said: ${binding.explanation})`,
      },
      sentence: `the checks contradict the model's binding limit (${binding.id}): ${instanceId}'s ${insCheck} fired ${n0(ins!)} min and the volume's checks ${vol === null ? 'have no data' : 'never fired'} — trusting the checks, the instance binds: change the instance, not the volume`,
    };
  }
  const id = volWhich === 'iops' ? 'volume-iops' : 'volume-throughput';
  return {
    bindingCheck: 'contradicted',
    binding: {
      id,
      explanation: `CloudWatch: ${volCheck} fired ${n0(vol!)} min${insFired ? '' : `, ${instanceId ?? 'the instance'}'s checks ${ins === null ? 'have no data' : 'never'}`}: the volume's limit throttles it (the model said: ${binding.explanation})`,
    },
    sentence: `the checks contradict the model's binding limit (${binding.id}): ${volCheck} fired ${n0(vol!)} min — trusting the checks, the volume binds`,
  };
}
