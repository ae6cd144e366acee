export * from './generate-fio-job.ts';
