export * from './sysbench-result.schema.ts';
export * from './parse-sysbench.ts';
export * from './from-sysbench.ts';
