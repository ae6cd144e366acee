/**
 * The PromQL Blockwise asks for, in a module of its own (no imports) so the web app's drop-zone
 * hint can show it without loading the importer.
 */

/** The PromQL to paste into /api/v1/query_range (or Grafana's Explore): raw counters of one device. */
export const PROMQL_COUNTERS =
  '{__name__=~"node_disk_(reads_completed|writes_completed|read_bytes|written_bytes)_total", device="nvme1n1"}';

/** The same as rates, each series named in a `metric` label (rate() drops `__name__`). */
export const PROMQL_RATES = [
  'label_replace(rate(node_disk_reads_completed_total{device="nvme1n1"}[1m]), "metric", "node_disk_reads_completed_total", "", "")',
  ' or label_replace(rate(node_disk_writes_completed_total{device="nvme1n1"}[1m]), "metric", "node_disk_writes_completed_total", "", "")',
  ' or label_replace(rate(node_disk_read_bytes_total{device="nvme1n1"}[1m]), "metric", "node_disk_read_bytes_total", "", "")',
  ' or label_replace(rate(node_disk_written_bytes_total{device="nvme1n1"}[1m]), "metric", "node_disk_written_bytes_total", "", "")',
].join('');

/**
 * The EBS CSI driver node plugin's NVMe series of one volume, raw (counters, the queue gauge and
 * the latency histograms' buckets): ebs-csi.ts turns them into rates, percentiles and seconds
 * over the limits.
 */
export const PROMQL_EBS_CSI =
  '{__name__=~"aws_ebs_csi_(read|write)_(ops|bytes|seconds)_total|aws_ebs_csi_(ec2_)?exceeded_(iops|tp)_seconds_total|aws_ebs_csi_volume_queue_length|aws_ebs_csi_(read|write)_io_latency_seconds_bucket", volume_id="vol-0a1b2c3d4e5f60718"}';
