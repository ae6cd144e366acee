// Fleet right-sizing (docs/fleet.md): describe-volumes + get-metric-data → one plan per volume.
export * from './aws-outputs.ts';
export * from './schema.ts';
export * from './parse.ts';
export * from './limits.ts';
export * from './queries.ts';
export * from './metrics.ts';
export * from './concurrent.ts';
export * from './instances.ts';
export * from './delivered.ts';
export * from './scan.ts';
export * from './plan.ts';
export * from './format.ts';
export { describeAlternative } from './format-instances.ts';
