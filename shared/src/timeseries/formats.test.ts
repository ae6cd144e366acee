import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import {
  METRICS_FORMATS,
  SERIES_FORMATS,
  SNIFF_CLAIM,
  looksLikeMetricsExport,
  sniffMetrics,
} from './formats.ts';
import { METRICS_PARSERS, importMetrics } from './import-metrics.ts';
import type { SeriesFormat, SeriesImportOptions } from './series.schema.ts';

/**
 * The registry against the list of format ids: every format has a label, a name, help, a sniffer,
 * a parser, and a real export in fixtures/ that its sniffer picks, no other sniffer claims, and
 * importMetrics reads as that format. A format added to SERIES_FORMATS without a fixture here
 * does not compile.
 */
const FIXTURES: Record<SeriesFormat, string> = {
  'cloudwatch-console-csv': 'cloudwatch/console_volume_sum_5min.csv',
  'cloudwatch-get-metric-data': 'cloudwatch/get_metric_data_volume_5min.json',
  'grafana-csv': 'cloudwatch/grafana_node_exporter_1min.csv',
  iostat: 'metrics/iostat_12.6.1_x_t_C.txt',
  sar: 'metrics/sar_12.6.1_d_C.txt',
  sadf: 'metrics/sadf_12.6.1_d.csv',
  'prometheus-query-range': 'metrics/prometheus_query_range_counters.json',
  'datadog-csv': 'metrics/datadog/datadog_timeseries_10s.csv',
  'datadog-query-json': 'metrics/datadog/datadog_query_10s.json',
  'nvme-amzn-stats': 'nvme-amzn/stats_v3.0-rc1_json.txt',
};

/** What a fixture leaves to the user (get-metric-data output does not name its statistic). */
const OPTIONS: Partial<Record<SeriesFormat, SeriesImportOptions>> = {
  'cloudwatch-get-metric-data': { statistic: 'Sum' },
};

const fixture = (path: string) => readFileSync(new URL(`../../../fixtures/${path}`, import.meta.url), 'utf8');

describe('METRICS_FORMATS: one entry per format id', () => {
  it('lists exactly the ids of SERIES_FORMATS, each under its own id', () => {
    expect(Object.keys(METRICS_FORMATS).sort()).toEqual([...SERIES_FORMATS].sort());
    expect(Object.keys(METRICS_PARSERS).sort()).toEqual([...SERIES_FORMATS].sort());
    for (const id of SERIES_FORMATS) expect(METRICS_FORMATS[id].id).toBe(id);
  });

  it('labels and names tell the formats apart', () => {
    const labels = SERIES_FORMATS.map((id) => METRICS_FORMATS[id].label);
    const names = SERIES_FORMATS.map((id) => METRICS_FORMATS[id].name);
    expect(new Set(labels).size).toBe(SERIES_FORMATS.length);
    expect(new Set(names).size).toBe(SERIES_FORMATS.length);
  });

  it.each(SERIES_FORMATS)('%s: help is a "- …" item of `blockwise metrics --help`', (id) => {
    expect(METRICS_FORMATS[id].help).toMatch(/^ {4}- \S/);
  });

  it.each(SERIES_FORMATS)(
    '%s: its fixture is picked by its sniffer, claimed by no other, read as it',
    (id) => {
      const text = fixture(FIXTURES[id]);
      const picked = sniffMetrics(text);
      expect(picked).toMatchObject({ kind: 'format', format: { id } });
      const claimedBy = SERIES_FORMATS.filter((other) => other !== id).filter(
        (other) => METRICS_FORMATS[other].sniff(text) >= SNIFF_CLAIM,
      );
      expect(claimedBy).toEqual([]);
      const direct = METRICS_PARSERS[id](text, OPTIONS[id] ?? {});
      expect(direct.ok && direct.value.format).toBe(id);
      const imported = importMetrics(text, OPTIONS[id]);
      expect(imported.ok && imported.value.format).toBe(id);
    },
  );
});

describe('sniffing', () => {
  it.each([
    ['sysstat JSON', '{"sysstat": {"hosts": []}}', 'unsupported_format'],
    [
      'a sysstat report neither iostat -x nor sar -d',
      'Linux 6.8.0 (db-1) \t11/24/26 \t_x86_64_\t(2 CPU)\n\n12:00:01 AM  CPU  %user\n',
      'unsupported_sysstat_report',
    ],
  ])('%s is refused with what to run instead', (_, text, code) => {
    expect(sniffMetrics(text)).toMatchObject({ kind: 'refused', problem: { code } });
    expect(importMetrics(text)).toMatchObject({ ok: false, error: { code } });
  });

  it('any other JSON falls back to get-metric-data, any other text to a dashboard CSV', () => {
    expect(sniffMetrics('{"a": 1}')).toMatchObject({ format: { id: 'cloudwatch-get-metric-data' } });
    expect(sniffMetrics('{"a": 1}')!.confidence).toBeLessThan(SNIFF_CLAIM);
    expect(sniffMetrics('time,x\n1,2\n')).toMatchObject({ format: { id: 'grafana-csv' } });
    expect(sniffMetrics('time,x\n1,2\n')!.confidence).toBeLessThan(SNIFF_CLAIM);
  });
});

describe('looksLikeMetricsExport: the fio drop zone hands these to the metrics importer', () => {
  it.each(SERIES_FORMATS.filter((id) => id !== 'grafana-csv'))('%s (first 64 KiB, no .csv name)', (id) => {
    expect(looksLikeMetricsExport(fixture(FIXTURES[id]).slice(0, 65_536), 'export.txt')).toBe(true);
  });

  it('a dashboard CSV by its name; fio output is not one', () => {
    expect(looksLikeMetricsExport(fixture(FIXTURES['grafana-csv']), 'panel.csv')).toBe(true);
    expect(looksLikeMetricsExport(fixture('metrics/fio-load.txt'), 'fio-load.txt')).toBe(false);
    expect(looksLikeMetricsExport(fixture('fio/public/brahiam_fio-3.36_randrw_128k.json'), 'run.json')).toBe(
      false,
    );
  });
});
