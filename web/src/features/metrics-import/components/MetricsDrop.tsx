import { DropZone } from '../../../components/DropZone.tsx';

/**
 * Drop or pick production metrics exports: a CloudWatch console graph's CSV, the JSON of
 * `aws cloudwatch get-metric-data`, or a Grafana CSV.
 */
export function MetricsDrop({ onFiles }: { onFiles: (files: File[]) => void }) {
  return (
    <DropZone
      title="Import production metrics"
      hint={
        <>
          A CloudWatch graph’s “Download as .csv”, the JSON of <code>aws cloudwatch get-metric-data</code>, or
          a Grafana panel’s CSV (read/write IOPS and throughput over time). Sized like AWS Compute Optimizer:
          the maximum of 5-minute points, or p99/p95. Read in your browser.
        </>
      }
      buttonLabel="Choose metrics files…"
      accept=".csv,.json,.txt,text/csv,application/json,text/plain"
      onFiles={onFiles}
    />
  );
}
