import { useEffect, useState } from 'react';

/**
 * A value that follows `value` once it has stopped changing for `delayMs`: what a chart draws
 * during a slider drag. Redrawing a Recharts chart costs 25–40 ms of main thread (its store
 * dispatches and re-measures on every data change; bench P16 on 2 cores, 2026-11-28), more
 * than a frame, so the bars follow when the hand rests while the numbers beside them (tables,
 * the answer) follow every step. The first value is shown at once.
 */
/** How long a what-if drag rests before its charts are redrawn (the tables beside them follow every step). */
export const CHART_SETTLE_MS = 150;

export function useSettledValue<T>(value: T, delayMs: number): T {
  const [settled, setSettled] = useState(value);
  useEffect(() => {
    if (Object.is(value, settled)) return;
    const timer = window.setTimeout(() => setSettled(value), delayMs);
    return () => window.clearTimeout(timer);
  }, [value, settled, delayMs]);
  return settled;
}
