/**
 * Whether a file dropped on the fio drop zone is a metrics export instead (the user chose the
 * wrong door): `aws cloudwatch get-metric-data` JSON names `MetricDataResults`, and console and
 * Grafana exports are CSV files. fio never writes either.
 */
export function looksLikeMetricsExport(head: string, fileName: string): boolean {
  if (/\.csv$/i.test(fileName.trim())) return true;
  const text = head.replace(/^\uFEFF/, '').trimStart();
  return (text.startsWith('{') || text.startsWith('[')) && /"MetricDataResults"\s*:/.test(text);
}
