/**
 * Test support: the hand-made CloudWatch/Grafana exports with planted peaks
 * (fixtures/cloudwatch/README.md) and the real iostat/sar/sadf/Prometheus captures and Datadog
 * files (fixtures/metrics/README.md), the EBS NVMe sources (fixtures/nvme-amzn, fixtures/ebs-csi),
 * read as text by Vite. Imported by tests only.
 */
const METRICS = import.meta.glob<string>(
  [
    '../../../../fixtures/cloudwatch/*.{csv,json}',
    '../../../../fixtures/metrics/**/*.{txt,csv,json}',
    '../../../../fixtures/nvme-amzn/*.txt',
    '../../../../fixtures/ebs-csi/*.json',
  ],
  { query: '?raw', import: 'default', eager: true },
);

export function metricsFixture(name: string): string {
  const key = Object.keys(METRICS).find((k) => k.endsWith(`/${name}`));
  if (!key) throw new Error(`no metrics fixture ${name}`);
  return METRICS[key]!;
}
