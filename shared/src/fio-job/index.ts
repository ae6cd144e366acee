export { DEFAULT_FIO_RAMP_SEC, DEFAULT_FIO_RUNTIME_SEC, generateFioJob } from './generate-fio-job.ts';
export type { FioEngine, FioJobOptions } from './generate-fio-job.ts';
