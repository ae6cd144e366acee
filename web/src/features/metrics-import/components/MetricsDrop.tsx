import { memo } from 'react';
import { PROMQL_COUNTERS, PROMQL_EBS_CSI } from '@blockwise/shared/timeseries';
import { DropZone } from '../../../components/DropZone.tsx';

/**
 * Drop or pick production metrics exports: a CloudWatch console graph's CSV, the JSON of
 * `aws cloudwatch get-metric-data`, a Grafana CSV, iostat -x or sar -d / sadf -d text, a
 * Prometheus query_range answer of node_exporter's disk counters or the EBS CSI driver's metrics,
 * `nvme amzn stats` snapshots, or a Datadog export.
 */
// Memoized: its only prop is a stable callback, and the planning page re-renders on every what-if step.
export const MetricsDrop = memo(function MetricsDrop({ onFiles }: { onFiles: (files: File[]) => void }) {
  return (
    <DropZone
      title="Import production metrics"
      hint={
        <>
          A CloudWatch graph’s “Download as .csv”, the JSON of <code>aws cloudwatch get-metric-data</code>, a
          Grafana panel’s CSV, the text of <code>iostat -x -t 60 1440</code>, <code>sar -d -f sa24</code> or{' '}
          <code>sadf -d sa24 -- -d</code>, a Prometheus <code>/api/v1/query_range</code> answer for{' '}
          <code>{PROMQL_COUNTERS}</code>, or a Datadog CSV of <code>system.io.r_s</code>, <code>w_s</code>,{' '}
          <code>rkb_s</code>, <code>wkb_s</code> by device (read/write IOPS and throughput over time). EBS’s
          own latency and seconds over its limits: snapshots of <code>nvme amzn stats</code> (each after a{' '}
          <code>date -u +%FT%TZ</code> line), or the EBS CSI driver’s metrics as a query_range answer for{' '}
          <code>{PROMQL_EBS_CSI}</code>. Sized on the maximum of the points at their own step (never averaged
          up), or p99/p95 keeping peaks that recur. Read in your browser.
        </>
      }
      buttonLabel="Choose metrics files…"
      accept=".csv,.json,.txt,.log,.out,text/csv,application/json,text/plain"
      onFiles={onFiles}
    />
  );
});
