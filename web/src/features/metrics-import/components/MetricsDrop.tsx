import { useId, useRef, useState, type DragEvent } from 'react';

/**
 * Drop or pick production metrics exports: a CloudWatch console graph's CSV, the JSON of
 * `aws cloudwatch get-metric-data`, or a Grafana CSV. A real file input behind a button-styled
 * label (keyboard and screen readers), and the whole zone accepts drops.
 */
export function MetricsDrop({ onFiles }: { onFiles: (files: File[]) => void }) {
  const id = useId();
  const [over, setOver] = useState(false);
  const depth = useRef(0);

  const onDrop = (event: DragEvent) => {
    event.preventDefault();
    depth.current = 0;
    setOver(false);
    const files = [...event.dataTransfer.files];
    if (files.length > 0) onFiles(files);
  };

  return (
    <div
      className={`dropzone${over ? ' is-over' : ''}`}
      onDragEnter={(e) => {
        e.preventDefault();
        depth.current += 1;
        setOver(true);
      }}
      onDragOver={(e) => {
        e.preventDefault();
        e.dataTransfer.dropEffect = 'copy';
      }}
      onDragLeave={() => {
        depth.current -= 1;
        if (depth.current <= 0) setOver(false);
      }}
      onDrop={onDrop}
    >
      <p className="dropzone__title">Import production metrics</p>
      <p className="dropzone__hint" id={`${id}-hint`}>
        A CloudWatch graph’s “Download as .csv”, the JSON of <code>aws cloudwatch get-metric-data</code>, or a
        Grafana panel’s CSV (read/write IOPS and throughput over time). Sized like AWS Compute Optimizer: the
        maximum of 5-minute points, or p99/p95. Read in your browser.
      </p>
      <input
        id={id}
        type="file"
        multiple
        accept=".csv,.json,.txt,text/csv,application/json,text/plain"
        className="visually-hidden-input"
        aria-describedby={`${id}-hint`}
        onChange={(e) => {
          const files = [...(e.target.files ?? [])];
          if (files.length > 0) onFiles(files);
          e.target.value = '';
        }}
      />
      <label htmlFor={id} className="btn btn--primary">
        Choose metrics files…
      </label>
    </div>
  );
}
