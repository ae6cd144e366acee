import type * as Boot from './boot.tsx';
import { nextTask } from '../lib/next-task.ts';

/**
 * The app's module graph, evaluated a layer at a time, one task each.
 *
 * Importing boot.tsx at once evaluates React, Zod, every schema and the domain code in a single
 * task (≈ 130 ms on this machine, ≈ 500 ms on Lighthouse's slow phone: bench P11's Total Blocking
 * Time). Each step below imports a layer whose dependencies earlier steps already evaluated, so it
 * runs only its own code; between steps the browser gets a task boundary to paint and take input.
 * Order matters: a step listed before its dependencies would evaluate them in its own task. What a
 * step leaves out is not lost — boot.tsx imports everything it needs; a layer only runs earlier.
 */
const LAYERS: ReadonlyArray<() => Promise<unknown>> = [
  // First: Zod's jitless switch for the dev server, before any schema exists (production builds
  // set it inside Zod itself: vite.config.ts).
  () => import('../lib/zod-config.ts'),
  () => import('@blockwise/shared/units'),
  () => import('@blockwise/shared/problem'),
  () => import('@blockwise/shared/profile'),
  () => import('@blockwise/shared/aws'),
  () => import('@blockwise/shared/plan'),
  () => import('@blockwise/shared/records'),
  () => import('@blockwise/shared/api'),
  () => import('react'),
  () => import('react-dom/client'),
];

/** Evaluates the layers in order, a task each, then boot.tsx (whose own code is what is left). */
export async function importBootInLayers(): Promise<typeof Boot> {
  for (const layer of LAYERS) {
    await layer();
    await nextTask();
  }
  return import('./boot.tsx');
}
