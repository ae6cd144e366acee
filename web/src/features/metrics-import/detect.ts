/**
 * Whether a file dropped on the fio drop zone is a metrics export instead (the user chose the
 * wrong door): `aws cloudwatch get-metric-data` JSON names `MetricDataResults`, a Prometheus
 * query_range answer `resultType`, Datadog's query API `pointlist`; console, Grafana and Datadog
 * exports are CSV files; iostat, sar and sadf write text fio never writes (a sysstat banner
 * `Linux … (host) 11/24/26 _x86_64_ (2 CPU)`, a `Device` header, `# hostname;interval;…`).
 */
export function looksLikeMetricsExport(head: string, fileName: string): boolean {
  if (/\.csv$/i.test(fileName.trim())) return true;
  const text = head.replace(/^\uFEFF/, '').trimStart();
  if (text.startsWith('{') || text.startsWith('[')) {
    return /"(MetricDataResults|resultType|pointlist)"\s*:/.test(text);
  }
  return (
    /^Linux \S+ \([^)]*\)\s+\S+\s+_\S+_\s+\(\d+ CPU\)/.test(text) ||
    /^Device:?\s+\S/m.test(text) ||
    /^#\s*hostname;interval;timestamp;/.test(text)
  );
}
