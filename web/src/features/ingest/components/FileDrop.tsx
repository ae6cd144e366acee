import { useId, useRef, useState, type DragEvent } from 'react';

/**
 * Drop or pick fio result files (json, json+, normal+json, with warnings before the JSON — any
 * format the parser takes). A real file input, visually replaced by a button-styled label, so it
 * works with the keyboard and screen readers; dropping anywhere on the zone also works.
 */
export function FileDrop({ onFiles }: { onFiles: (files: File[]) => void }) {
  const id = useId();
  const [over, setOver] = useState(false);
  const depth = useRef(0);
  const input = useRef<HTMLInputElement>(null);

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
      <p className="dropzone__title">Drop fio result files here</p>
      <p className="dropzone__hint" id={`${id}-hint`}>
        JSON, json+ or normal+json output (<code>fio --output-format=json</code>), several at once. Files are
        read in your browser; nothing is uploaded until you choose “Save &amp; share”.
      </p>
      <input
        ref={input}
        id={id}
        type="file"
        multiple
        className="visually-hidden-input"
        aria-describedby={`${id}-hint`}
        onChange={(e) => {
          const files = [...(e.target.files ?? [])];
          if (files.length > 0) onFiles(files);
          e.target.value = '';
        }}
      />
      <label htmlFor={id} className="btn btn--primary">
        Choose fio files…
      </label>
    </div>
  );
}
