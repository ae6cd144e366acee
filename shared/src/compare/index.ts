// Two runs side by side: same fio job? then the verdicts (rates, latency reads and writes).
export * from './compare-jobs.ts';
export * from './compare-runs.ts';
