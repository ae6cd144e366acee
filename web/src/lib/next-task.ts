/**
 * A task boundary, so the browser can paint and take input between two pieces of start-up work:
 * scheduler.yield() where the browser has it (continues ahead of other queued tasks), else a
 * zero-delay timer.
 */
export function nextTask(): Promise<void> {
  const scheduler = (globalThis as { scheduler?: { yield?: () => Promise<void> } }).scheduler;
  if (scheduler?.yield) return scheduler.yield();
  return new Promise((resolve) => setTimeout(resolve, 0));
}
