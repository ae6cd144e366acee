import { useEffect, useState } from 'react';
import { prepareForPrint } from '../lib/print-prepare.ts';
import { whenChartDrawn } from './ChartFrame.tsx';

/**
 * "Print / PDF": mounts every chart of the page, waits for them to draw, then opens the browser's
 * print dialog (where "Save as PDF" is). While it is on the page, Ctrl/Cmd+P does the same, so a
 * keyboard print does not come out with blank charts either.
 */
export function PrintButton() {
  const [preparing, setPreparing] = useState(false);
  const print = async () => {
    setPreparing(true);
    try {
      await prepareForPrint((figure) => whenChartDrawn(figure));
    } finally {
      setPreparing(false);
    }
    window.print();
  };
  useEffect(() => {
    const onKey = (e: KeyboardEvent) => {
      if ((e.ctrlKey || e.metaKey) && !e.altKey && e.key.toLowerCase() === 'p') {
        e.preventDefault();
        void print();
      }
    };
    window.addEventListener('keydown', onKey);
    return () => window.removeEventListener('keydown', onKey);
  });
  return (
    <button
      type="button"
      className="btn btn--small"
      onClick={() => void print()}
      disabled={preparing}
      aria-busy={preparing}
    >
      {preparing ? 'Preparing the charts…' : 'Print / PDF'}
    </button>
  );
}
