import { useId, useRef, useState, type DragEvent, type ReactNode } from 'react';

/**
 * Drop or pick files. A real file input, visually replaced by a button-styled label, so it works
 * with the keyboard and screen readers; dropping anywhere on the zone also works. The drag
 * counter keeps the highlight on while the pointer crosses the zone's own children.
 */
export function DropZone({
  title,
  hint,
  buttonLabel,
  accept,
  onFiles,
}: {
  title: string;
  hint: ReactNode;
  buttonLabel: string;
  /** The input's `accept` list; omitted, any file can be picked. */
  accept?: string;
  onFiles: (files: File[]) => void;
}) {
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
      <p className="dropzone__title">{title}</p>
      <p className="dropzone__hint" id={`${id}-hint`}>
        {hint}
      </p>
      <input
        id={id}
        type="file"
        multiple
        accept={accept}
        className="visually-hidden-input"
        aria-describedby={`${id}-hint`}
        onChange={(e) => {
          const files = [...(e.target.files ?? [])];
          if (files.length > 0) onFiles(files);
          e.target.value = '';
        }}
      />
      <label htmlFor={id} className="btn btn--primary">
        {buttonLabel}
      </label>
    </div>
  );
}
