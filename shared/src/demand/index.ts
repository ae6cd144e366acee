// The demand model (docs/domain.md "Demand"): what a workload asked of its storage, with its evidence.

export { censoringWarningsOf, demandFromSeries, demandTarget, peaksOf } from './demand.ts';
export type { DemandEvidence } from './demand.ts';
export { judgeLatencyPromise, measuredLatencyOf, measuredLatencyOfFio } from './measured-latency.ts';
export type { MeasuredLatency, PromiseVerdict } from './measured-latency.ts';
export { chooseDemandSource, describeDemandSource, roleOfEvidence } from './evidence-role.ts';
export type { DemandChoice, DemandSourceFacts, EvidenceRole } from './evidence-role.ts';
