// Two runs side by side: same fio job? then the verdicts (rates, latency reads and writes).
export { describeJobSettings, jobSettingsOf } from './compare-jobs.ts';
export type { ComparedSetting, RunJobSettings } from './compare-jobs.ts';
export { compareRunPair, RunPairComparisonSchema } from './compare-runs.ts';
export type { RunPairComparison } from './compare-runs.ts';
