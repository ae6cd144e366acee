import { looksLikeMetricsExport } from '@blockwise/shared/timeseries';
import { describe, expect, it } from 'vitest';
import { adjustQuestions, questionsFor, readAnswers } from './choice-form.ts';
import { metricsFixture } from './metrics-fixtures.ts';
import { readMetrics } from './metrics-reader.ts';
import { deviceText, queueView, requestSizeText } from './series-view.ts';

/** The iostat / sar / Prometheus / Datadog inputs as the browser reads them (fixtures/metrics). */

function read(name: string, options = {}) {
  const r = readMetrics(metricsFixture(name), options);
  if (!r.ok) throw new Error(`${name}: ${r.error.code}: ${r.error.message}`);
  return r.imported;
}

describe('iostat -x in the browser', () => {
  const imported = read('iostat_12.6.1_x_t_C.txt');

  it('the device, the request-size check and the queue with Little’s law', () => {
    expect(deviceText(imported.series)).toBe('vda, the busiest of 2 devices (vda, loop1)');
    expect(requestSizeText(imported.series)).toMatch(
      /^The tool’s own average request size matches bytes ÷ operations at all \d+ points/,
    );
    const q = queueView(imported.queue)!;
    expect(q.mean).toMatch(/^0\.\d+ requests in flight ÷ 0\.\d+ ms = [\d,]+ requests\/s$/);
    expect(imported.queue!.littleRequestsPerSec! / imported.queue!.meanRequestsPerSec).toBeCloseTo(1, 1);
    expect(q.busiest).toContain('UTC');
  });

  it('offers the other device, and reads it when chosen', () => {
    const questions = adjustQuestions(imported.series, {}, null);
    const device = questions.find((q) => q.option === 'device')!;
    expect(device.current).toBe('vda');
    expect(device.answers.map((a) => a.value)).toEqual(['vda', 'loop1']);
    const answered = readAnswers(
      questions,
      { device: { value: 'loop1', other: '' }, timeZone: { value: 'UTC', other: '' } },
      {},
    );
    expect(answered).toMatchObject({ ok: true, options: { device: 'loop1' } });
    const loop = read('iostat_12.6.1_x_t_C.txt', answered.ok ? answered.options : {});
    expect(loop.series.device).toMatchObject({ name: 'loop1', chosenBy: 'asked' });
  });

  it('without -t: asks for the interval', () => {
    const r = readMetrics(metricsFixture('iostat_12.6.1_xk_2s_no_t.txt'), {});
    expect(r.ok).toBe(false);
    const questions = questionsFor(!r.ok ? r.choices : [], null);
    expect(questions.map((q) => q.option)).toEqual(['periodSec']);
    const answered = readAnswers(questions, { periodSec: { value: '__other__', other: '2' } }, {});
    expect(answered).toMatchObject({ ok: true, options: { periodSec: 2 } });
  });
});

describe('the other per-device formats', () => {
  it.each([
    ['sar_12.6.1_d_en_US.txt', 'sar'],
    ['sadf_12.6.1_d_midnight.csv', 'sadf'],
    ['prometheus_query_range_counters.json', 'prometheus-query-range'],
    ['datadog_timeseries_10s.csv', 'datadog-csv'],
  ])('%s reads as %s with a sizing profile', (name, format) => {
    const imported = read(name);
    expect(imported.series.format).toBe(format);
    expect(imported.profiles?.max.read.iops).toBeGreaterThan(0);
  });

  it('Prometheus rates named like counters: the counter/rate question, answered', () => {
    const rates = JSON.parse(metricsFixture('prometheus_query_range_rate.json'));
    for (const r of rates.data.result) r.metric.__name__ = r.metric.metric;
    const r = readMetrics(JSON.stringify(rates), {});
    const questions = questionsFor(!r.ok ? r.choices : [], null);
    expect(questions[0]).toMatchObject({ option: 'valueKind', legend: 'Are the values counters or rates?' });
    expect(readAnswers(questions, { valueKind: { value: 'rate', other: '' } }, {})).toMatchObject({
      ok: true,
      options: { valueKind: 'rate' },
    });
  });
});

describe('a metrics file dropped on the fio drop zone', () => {
  it.each([
    ['iostat_12.6.1_x_t_C.txt', 'iostat.txt'],
    ['iostat_11.4.11_xd_posix_sectors.txt', 'iostat.log'],
    ['sar_12.0.6_d.txt', 'sar.txt'],
    ['sadf_12.6.1_d.csv', 'sar.out'],
    ['prometheus_query_range_counters.json', 'prom.json'],
    ['datadog_query_10s.json', 'dd.json'],
  ])('%s (as %s) is recognized as a metrics export', (name, fileName) => {
    expect(looksLikeMetricsExport(metricsFixture(name).slice(0, 65536), fileName)).toBe(true);
  });

  it('fio JSON is not', () => {
    expect(looksLikeMetricsExport('{"fio version": "fio-3.33", "jobs": []}', 'run.json')).toBe(false);
  });
});
