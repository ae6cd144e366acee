export { SysbenchFileioSchema } from './sysbench-result.schema.ts';
export type { SysbenchFileio, SysbenchTestMode } from './sysbench-result.schema.ts';
export { parseSysbench } from './parse-sysbench.ts';
export { profileFromSysbench } from './from-sysbench.ts';
