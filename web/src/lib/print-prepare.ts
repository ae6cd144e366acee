/**
 * Printing (and the browser's "Save as PDF") lays the whole page out at once, but charts mount only
 * when a reader scrolls near them (ChartFrame) and load their code then: printed as they are, the
 * charts below the fold come out blank. "Print / PDF" (and Ctrl/Cmd+P) first asks every chart to
 * mount, waits until each has drawn (or a bound passes), and only then opens the print dialog.
 * A print started from the browser's menu still mounts them (`beforeprint`, print media), which
 * helps every chart whose code is already loaded.
 */

/** The event ChartFrame listens to: mount now, a print is coming. */
export const PRINT_PREPARE_EVENT = 'blockwise:print-prepare';

/** Calls `then` when a print is being prepared or starts, or the page is laid out for print media. */
export function onPrint(then: () => void): () => void {
  if (typeof window === 'undefined') return () => {};
  const media = typeof window.matchMedia === 'function' ? window.matchMedia('print') : null;
  if (media?.matches) then();
  const onChange = (e: MediaQueryListEvent) => {
    if (e.matches) then();
  };
  window.addEventListener(PRINT_PREPARE_EVENT, then);
  window.addEventListener('beforeprint', then);
  media?.addEventListener('change', onChange);
  return () => {
    window.removeEventListener(PRINT_PREPARE_EVENT, then);
    window.removeEventListener('beforeprint', then);
    media?.removeEventListener('change', onChange);
  };
}

/**
 * Mounts every chart and resolves once each figure holds its drawing (`drawn` per figure, the
 * chart frame's own wait) or failed to; a chart that never draws does not hold the print back
 * past the frame's own timeout.
 */
export async function prepareForPrint(
  drawn: (figure: HTMLElement) => Promise<unknown>,
  root: ParentNode = document,
): Promise<void> {
  window.dispatchEvent(new Event(PRINT_PREPARE_EVENT));
  // The mount happens on the next render: give React that turn before looking for figures.
  await new Promise((resolve) => setTimeout(resolve, 0));
  const figures = [...root.querySelectorAll<HTMLElement>('figure.chart-frame')];
  await Promise.all(figures.map((f) => drawn(f).catch(() => null)));
}
