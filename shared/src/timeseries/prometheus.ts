import { z } from 'zod';
import type { Warning } from '../problem.ts';
import { formatInt } from '../units.ts';
import { choiceRequired } from './build-series.ts';
import { isEbsCsiName, seriesFromEbsCsi, type CsiSeries } from './ebs-csi.ts';
import { seriesFromDeviceMetrics, type DeviceMetricSeries } from './device-series.ts';
import { decodeMetricsJson, importFailure } from './input.ts';
import { PROMQL_COUNTERS } from './promql.ts';
import { impossibleValue } from './values.ts';
import type { IoMetric, SeriesImportOptions, SeriesImportResult, ValueKind } from './series.schema.ts';

/**
 * The Prometheus HTTP API's `query_range` answer (`GET /api/v1/query_range?query=…&start=…&end=…
 * &step=…`) for node_exporter's disk counters:
 *
 *     {"status":"success","data":{"resultType":"matrix","result":[
 *       {"metric":{"__name__":"node_disk_reads_completed_total","device":"nvme0n1",…},
 *        "values":[[1795527948,"220514"],…]}, …]}}
 *
 * Quantities, by name: `node_disk_reads_completed_total`, `node_disk_writes_completed_total`
 * (operations), `node_disk_read_bytes_total`, `node_disk_written_bytes_total` (bytes); before
 * node_exporter 0.16 `node_disk_reads_completed`, `node_disk_sectors_read` (512-byte sectors)….
 *
 * - **Counters** (the plain selector, recommended: `PROMQL_COUNTERS`): cumulative since boot.
 *   Turned into rates here the way Prometheus's rate() does between two samples: the increase ÷
 *   the seconds between them; a value that goes down is a counter reset (reboot), counted from
 *   zero. Each rate covers the interval between its two samples and is placed at its start; one
 *   that spans a scrape gap is an average over the gap, placed in the gap's last step.
 * - **Rates** (`rate(…[1m])`): used as they are, at their timestamps (the end of each window).
 *   rate() drops the metric name, so the name must travel in a label (`PROMQL_RATES` uses
 *   label_replace to a `metric` label).
 *
 * Which it is follows from the name — a bare `*_total` name is a counter, a name or label naming
 * the metric without `__name__` (a function was applied) or with `rate`/`irate` in a recording
 * rule's name is a rate — unless `valueKind` says; a "counter" that keeps going down is asked
 * about (`choice_required`). One device is read, by its `device` label (`device`, else the
 * busiest). A JSON array of several answers (one query per file, saved together) is merged.
 */

const NAMES: Record<string, { metric: IoMetric; factor: number; unit: string }> = {
  reads_completed: { metric: 'readOps', factor: 1, unit: 'operations' },
  writes_completed: { metric: 'writeOps', factor: 1, unit: 'operations' },
  read_bytes: { metric: 'readBytes', factor: 1, unit: 'bytes' },
  written_bytes: { metric: 'writeBytes', factor: 1, unit: 'bytes' },
  sectors_read: { metric: 'readBytes', factor: 512, unit: 'sectors (512 B)' },
  sectors_written: { metric: 'writeBytes', factor: 512, unit: 'sectors (512 B)' },
};
const NAME =
  /node_disk_(reads_completed|writes_completed|read_bytes|written_bytes|sectors_read|sectors_written)(?:_total)?/;

const SampleSchema = z.tuple([z.number(), z.string()]);
const SeriesSchema = z.object({
  metric: z.record(z.string(), z.string()),
  values: z.array(SampleSchema).optional(),
  value: SampleSchema.optional(),
});
const ResponseSchema = z.object({
  status: z.string(),
  errorType: z.string().optional(),
  error: z.string().optional(),
  warnings: z.array(z.string()).optional(),
  data: z.object({ resultType: z.string(), result: z.array(SeriesSchema) }).optional(),
});

const labelText = (labels: Record<string, string>) => {
  const { __name__: name, ...rest } = labels;
  const inner = Object.entries(rest)
    .map(([k, v]) => `${k}="${v}"`)
    .join(',');
  return `${name ?? ''}{${inner}}`;
};

type Classified = { name: string; kind: ValueKind };

/** Which quantity a series is, and whether its name says counter or rate. */
function classify(labels: Record<string, string>): Classified | null {
  const name = labels.__name__;
  if (name !== undefined) {
    const m = NAME.exec(name);
    if (m) {
      const bare = m.index === 0 && m[0].length === name.length;
      return { name: m[1]!, kind: bare || !/(^|[:_])(i?rate|deriv)/.test(name) ? 'counter' : 'rate' };
    }
  }
  // No name (a function such as rate() dropped it): a label naming the metric.
  for (const [k, v] of Object.entries(labels)) {
    if (k === '__name__') continue;
    const m = NAME.exec(v) ?? (NAMES[v] ? [v, v] : null);
    if (m) return { name: m[1]!, kind: 'rate' };
  }
  return null;
}

type Sample = { t: number; v: number | null };

export function parsePrometheusQueryRange(
  input: string | Uint8Array,
  options: SeriesImportOptions = {},
): SeriesImportResult {
  const decoded = decodeMetricsJson(input);
  if (!decoded.ok) return decoded;
  const { json } = decoded;
  const answers = Array.isArray(json) ? json : [json];
  const warnings: Warning[] = [...decoded.warnings];
  type Found = { at: string; labels: Record<string, string>; cls: Classified; samples: Sample[] };
  const found: Found[] = [];
  const csiFound: CsiSeries[] = [];
  const ignored: string[] = [];
  for (const [a, answer] of answers.entries()) {
    const prefix = answers.length > 1 ? `${a}.` : '';
    const parsed = ResponseSchema.safeParse(answer);
    if (!parsed.success) {
      const issue = parsed.error.issues[0]!;
      const path = `${prefix}${issue.path.join('.')}` || 'input';
      return importFailure(
        'bad_prometheus_json',
        `${path}: ${issue.message} (expected the answer of /api/v1/query_range: {"status":"success","data":{"resultType":"matrix","result":[{"metric":{…},"values":[[time,"value"],…]}]}})`,
        path,
      );
    }
    const r = parsed.data;
    if (r.status !== 'success') {
      return importFailure(
        'prometheus_error',
        `Prometheus answered status "${r.status}"${r.errorType ? ` (${r.errorType})` : ''}: ${r.error ?? 'no error text'}`,
        `${prefix}status`,
      );
    }
    for (const w of r.warnings ?? [])
      warnings.push({ code: 'prometheus_warning', message: `Prometheus: ${w}` });
    if (!r.data) return importFailure('bad_prometheus_json', `${prefix}data: missing`, `${prefix}data`);
    if (r.data.resultType !== 'matrix') {
      return importFailure(
        'not_a_range_query',
        `${prefix}data.resultType is "${r.data.resultType}": this is the answer of an instant query (/api/v1/query), one value per series; use /api/v1/query_range with start, end and step for a series over time`,
        `${prefix}data.resultType`,
      );
    }
    for (const [i, s] of r.data.result.entries()) {
      const at = `${prefix}data.result.${i}`;
      const csi = isEbsCsiName(s.metric.__name__);
      const cls = classify(s.metric);
      if (!cls && !csi) {
        ignored.push(labelText(s.metric));
        continue;
      }
      if (
        options.match !== undefined &&
        !labelText(s.metric).toLowerCase().includes(options.match.toLowerCase())
      ) {
        ignored.push(`${labelText(s.metric)} (does not match "${options.match}")`);
        continue;
      }
      const samples: Sample[] = [];
      for (const [j, [t, text]] of (s.values ?? []).entries()) {
        const where = `${at}.values.${j}`;
        if (!Number.isFinite(t))
          return importFailure('bad_timestamp', `${where}: expected a Unix time in seconds, got ${t}`, where);
        // Prometheus marks no data by leaving the point out: "NaN" (or "+Inf") is a value the
        // query computed, not a measurement of the disk.
        const v = text === '+Inf' ? Infinity : text === '-Inf' ? -Infinity : Number(text);
        const why = text.trim() === '' ? 'empty' : impossibleValue(v);
        if (why) {
          return importFailure(
            'bad_value',
            `${where}: expected a non-negative number, got "${text.slice(0, 40)}" (${why})`,
            where,
          );
        }
        samples.push({ t: Math.round(t * 1000), v });
      }
      samples.sort((x, y) => x.t - y.t);
      if (cls) found.push({ at, labels: s.metric, cls, samples });
      else csiFound.push({ at, labels: s.metric, samples });
    }
  }
  // The EBS CSI driver's series come with their own names and units (ebs-csi.ts).
  if (found.length === 0 && csiFound.length > 0) return seriesFromEbsCsi(csiFound, warnings, options);
  if (found.length === 0) {
    return importFailure(
      options.match !== undefined ? 'no_match' : 'no_io_columns',
      `no node_exporter disk series in the answer${ignored.length ? ` (${ignored.slice(0, 4).join('; ')})` : ''}: query node_disk_reads_completed_total, node_disk_writes_completed_total, node_disk_read_bytes_total and node_disk_written_bytes_total, e.g. ${PROMQL_COUNTERS}`,
      'data.result',
    );
  }
  if (ignored.length > 0) {
    warnings.push({
      code: 'columns_ignored',
      message: `Not used: ${ignored.slice(0, 6).join('; ')}${ignored.length > 6 ? `; and ${ignored.length - 6} more` : ''}.`,
    });
  }

  // Counter or rate: the name says, the caller overrides; a counter that keeps falling is asked about.
  if (options.valueKind === undefined) {
    for (const f of found) {
      if (f.cls.kind !== 'counter') continue;
      let falls = 0;
      let prev: number | null = null;
      for (const s of f.samples) {
        if (s.v === null) continue;
        if (prev !== null && s.v < prev) falls += 1;
        prev = s.v;
      }
      if (falls > 2 && falls > 0.1 * f.samples.length) {
        return choiceRequired([
          {
            option: 'valueKind',
            flag: '--values',
            why: `${labelText(f.labels)} (${f.at}) is named like a counter but goes down at ${falls} of ${f.samples.length} points; counters only fall when the machine restarts. If the query applied rate() or irate(), the values are rates`,
            candidates: ['rate', 'counter'],
          },
        ]);
      }
    }
  }

  // Devices: by the device label, with the instance when several machines answer.
  const instances = new Set(found.map((f) => f.labels.instance ?? ''));
  const deviceOf = (labels: Record<string, string>) => {
    const dev = labels.device ?? 'all devices';
    return instances.size > 1 ? `${labels.instance ?? '?'} ${dev}` : dev;
  };
  const counterSteps = new Map<number, number>();
  for (const f of found)
    for (let i = 1; i < f.samples.length; i++) {
      const d = f.samples[i]!.t - f.samples[i - 1]!.t;
      counterSteps.set(d, (counterSteps.get(d) ?? 0) + 1);
    }
  const stepMs = [...counterSteps].sort((a, b) => b[1] - a[1] || a[0] - b[0])[0]?.[0] ?? null;

  let resets = 0;
  let firstReset = '';
  let spanned = 0;
  let counters = 0;
  const list: DeviceMetricSeries[] = found.map((f) => {
    const spec = NAMES[f.cls.name]!;
    const kind = options.valueKind ?? f.cls.kind;
    const points = new Map<number, number | null>();
    if (kind === 'rate') {
      for (const s of f.samples) points.set(s.t, s.v === null ? null : s.v * spec.factor);
    } else {
      counters += 1;
      for (let i = 1; i < f.samples.length; i++) {
        const a = f.samples[i - 1]!;
        const b = f.samples[i]!;
        if (a.v === null || b.v === null) continue;
        let increase = b.v - a.v;
        if (increase < 0) {
          // A counter reset: Prometheus counts the new value as the increase since zero.
          increase = b.v;
          resets += 1;
          if (firstReset === '') firstReset = `${f.at} at ${new Date(b.t).toISOString()}`;
        }
        const span = b.t - a.t;
        const long = stepMs !== null && span > 1.5 * stepMs;
        if (long) spanned += 1;
        points.set(long ? b.t - stepMs : a.t, ((increase * spec.factor) / span) * 1000);
      }
    }
    return {
      device: deviceOf(f.labels),
      metric: spec.metric,
      source: f.at,
      label: labelText(f.labels),
      unit:
        kind === 'rate'
          ? spec.metric.endsWith('Ops')
            ? 'IOPS'
            : spec.factor === 1
              ? 'B/s'
              : 'sectors/s (512 B)'
          : `${spec.unit} (counter → per second)`,
      points,
    };
  });
  if (resets > 0) {
    warnings.push({
      code: 'counter_resets',
      message: `${formatInt(resets)} counter reset${resets === 1 ? '' : 's'} (first ${firstReset}): the machine or node_exporter restarted; the increase is counted from zero, as Prometheus's rate() does.`,
      subject: 'time',
    });
  }
  if (spanned > 0) {
    warnings.push({
      code: 'rate_over_gap',
      message: `${formatInt(spanned)} rate${spanned === 1 ? '' : 's'} span a gap between samples (missed scrapes): each is the average over the gap, placed in its last step.`,
      subject: 'time',
    });
  }
  const result = seriesFromDeviceMetrics('prometheus-query-range', list, warnings, options);
  if (result.ok && counters > 0) {
    result.value.conversion.explanation = `Cumulative counters: the increase between consecutive samples ÷ the seconds between them (Prometheus rate() between two samples), placed at the first sample.`;
  } else if (result.ok) {
    result.value.conversion.explanation =
      'The values are rates already (rate() in the query), placed at their timestamps (the end of each rate window).';
  }
  return result;
}
