import { memo } from 'react';
import { DropZone } from '../../../components/DropZone.tsx';

/** Drop or pick fio result files (json, json+, normal+json, with warnings before the JSON — any format the parser takes). */
// Memoized: its only prop is a stable callback, and the planning page re-renders on every what-if step.
export const FileDrop = memo(function FileDrop({ onFiles }: { onFiles: (files: File[]) => void }) {
  return (
    <DropZone
      title="Drop fio result files here"
      hint={
        <>
          JSON, json+ or normal+json output (<code>fio --output-format=json</code>), several at once. Files
          are read in your browser; nothing is uploaded until you choose “Save &amp; share”.
        </>
      }
      buttonLabel="Choose fio files…"
      onFiles={onFiles}
    />
  );
});
