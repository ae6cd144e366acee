import { lazy, memo, type ComponentType } from 'react';
import { sameData } from '../lib/same-data.ts';

/**
 * A chart loaded on demand (Recharts stays out of the first paint) that draws again only when
 * its data changes: props are compared by value (`sameData`), not by identity. A what-if slider
 * step re-derives every plan, and without this every chart on the page — most of a step's
 * main-thread time (bench P16) — re-rendered with numbers that had not changed.
 */
export function lazyChart<Props extends object>(
  load: () => Promise<{ default: ComponentType<Props> }>,
): ComponentType<Props> {
  return lazy(async () => ({ default: memo((await load()).default, sameData) })) as ComponentType<Props>;
}
